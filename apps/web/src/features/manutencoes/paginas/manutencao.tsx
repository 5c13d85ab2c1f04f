import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Carregando, ErroDeCarga } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useVeiculos } from '../api/veiculos';
import type { FiltroDaLista } from '../api/manutencoes';
import { FormularioDeManutencao } from '../componentes/FormularioDeManutencao';
import { ListaDeManutencoes } from '../componentes/ListaDeManutencoes';
import '../manutencoes.css';

const idValido = (texto: string | null): number | null => {
  const n = Number(texto);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * /manutencao: opens maintenance orders and lists them with their effect on the fleet (staff).
 * `?veiculo=` preselects the vehicle (form and list), `&vistoria=` the inspection that led to
 * the order, `&ordem=` highlights one order: the inspection screens link here that way.
 */
export default function PaginaManutencao() {
  const veiculos = useVeiculos();
  const [parametros] = useSearchParams();
  const veiculoDoEndereco = idValido(parametros.get('veiculo'));
  const [filtro, setFiltro] = useState<FiltroDaLista>({
    situacao: 'todas',
    veiculoId: veiculoDoEndereco,
    pagina: 1,
  });
  const [destaque, setDestaque] = useState(idValido(parametros.get('ordem')));

  return (
    <Pagina
      titulo="Manutenção"
      descricao="Abra ordens de manutenção e encerre-as quando o veículo sair da oficina."
    >
      {veiculos.isPending && <Carregando texto="Carregando a frota…" />}
      {veiculos.isError && (
        <ErroDeCarga erro={veiculos.error} tentarDeNovo={() => void veiculos.refetch()} />
      )}
      {veiculos.data && (
        <div className="manutencoes">
          <FormularioDeManutencao
            veiculos={veiculos.data}
            veiculoInicial={veiculoDoEndereco === null ? '' : String(veiculoDoEndereco)}
            vistoriaInicial={parametros.get('vistoria') ?? ''}
            aoRegistrar={(m) => {
              setDestaque(m.id_manutencao);
              // Show the new order: a filter that would hide it gives way.
              setFiltro((f) => ({
                situacao: f.situacao === 'encerradas' ? 'todas' : f.situacao,
                veiculoId:
                  f.veiculoId === null || f.veiculoId === m.id_veiculo ? f.veiculoId : m.id_veiculo,
                pagina: 1,
              }));
            }}
          />
          <ListaDeManutencoes
            veiculos={veiculos.data}
            filtro={filtro}
            aoFiltrar={setFiltro}
            destaque={destaque}
          />
        </div>
      )}
    </Pagina>
  );
}
