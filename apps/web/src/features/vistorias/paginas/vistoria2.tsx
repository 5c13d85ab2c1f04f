import { useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { mensagemDoErro } from '../../../lib/api';
import { formatarData } from '../../../lib/formatos';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import { rotuloDoVeiculo, useVeiculos, type Veiculo } from '../api/veiculos';
import {
  useExcluirVistoria,
  useVistoriasDoVeiculo,
  type Vistoria,
  type VistoriaRegistrada,
} from '../api/vistorias';
import { LinhaDeVistoria } from '../componentes/LinhaDeVistoria';
import { SeletorDeVeiculo } from '../componentes/SeletorDeVeiculo';
import '../vistorias.css';

/** The server answers a vehicle's newest inspections, at most this many. */
const MAXIMO = 20;

const idValido = (texto: string | null): number | null => {
  const n = Number(texto);
  return Number.isInteger(n) && n > 0 ? n : null;
};

function Busca({
  veiculos,
  veiculoId,
  aoBuscar,
}: {
  veiculos: readonly Veiculo[];
  veiculoId: number | null;
  aoBuscar: (id: number) => void;
}) {
  const atual = veiculoId === null ? '' : String(veiculoId);
  const [escolhido, setEscolhido] = useState(atual);
  const [doEndereco, setDoEndereco] = useState(atual);
  const [erro, setErro] = useState<string | undefined>();
  if (doEndereco !== atual) {
    // The address changed (back button, a link): the select follows it.
    setDoEndereco(atual);
    setEscolhido(atual);
  }
  return (
    <form
      className="cartao vistorias__busca"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const id = idValido(escolhido);
        if (id === null) return setErro('Escolha o veículo.');
        setErro(undefined);
        aoBuscar(id);
      }}
    >
      <SeletorDeVeiculo
        rotulo="Veículo"
        veiculos={veiculos}
        value={escolhido}
        erro={erro}
        onChange={(e) => setEscolhido(e.target.value)}
      />
      <button type="submit" className="botao">
        Buscar Vistorias
      </button>
    </form>
  );
}

function Resultado({
  veiculoId,
  veiculo,
  registrada,
}: {
  veiculoId: number;
  veiculo: Veiculo | undefined;
  registrada: VistoriaRegistrada | null;
}) {
  const vistorias = useVistoriasDoVeiculo(veiculoId);
  const excluir = useExcluirVistoria();
  const avisar = useAvisos();
  const [erro, setErro] = useState<string | null>(null);
  const [aExcluir, setAExcluir] = useState<Vistoria | null>(null);
  const titulo = useRef<HTMLHeadingElement>(null);
  const nome = veiculo ? rotuloDoVeiculo(veiculo) : `veículo nº ${veiculoId}`;

  async function confirmarExclusao() {
    if (!aExcluir) return;
    try {
      await excluir.mutateAsync(aExcluir);
      setErro(null);
      avisar('Vistoria excluída com sucesso.');
    } catch (e) {
      setErro(`Erro ao excluir a vistoria: ${mensagemDoErro(e)}`);
    } finally {
      setAExcluir(null);
      // The row is gone: the list's heading takes the focus, not the page's top.
      titulo.current?.focus();
    }
  }

  return (
    <section className="vistorias__resultado" aria-labelledby="vistorias-titulo">
      <div className="vistorias__cabecalho">
        <h2 id="vistorias-titulo" ref={titulo} tabIndex={-1}>
          Vistorias de {nome}
        </h2>
        <Link
          className="botao botao--secundario botao--pequeno"
          to={`${paths.vistoria.caminho}?veiculo=${veiculoId}`}
        >
          Cadastrar vistoria deste veículo
        </Link>
      </div>
      {registrada?.ordem != null && (
        <Alerta tipo="sucesso">
          <p>
            A vistoria nº {registrada.registrada} abriu a ordem de manutenção nº {registrada.ordem}:
            o veículo fica fora da frota disponível até a ordem ser encerrada.{' '}
            <Link to={`${paths.manutencao.caminho}?veiculo=${veiculoId}&ordem=${registrada.ordem}`}>
              Ver a ordem em Manutenções
            </Link>
          </p>
        </Alerta>
      )}
      {erro && <Alerta tipo="erro">{erro}</Alerta>}
      {vistorias.isPending && <Carregando texto="Buscando vistorias…" />}
      {vistorias.isError && (
        <ErroDeCarga erro={vistorias.error} tentarDeNovo={() => void vistorias.refetch()} />
      )}
      {vistorias.data?.length === 0 && <Vazio>Nenhuma vistoria para este veículo.</Vazio>}
      {vistorias.data && vistorias.data.length > 0 && (
        <>
          <p className="vistorias__nota">
            {vistorias.data.length === MAXIMO
              ? `As ${MAXIMO} vistorias mais recentes, da mais nova à mais antiga.`
              : `${vistorias.data.length} ${vistorias.data.length === 1 ? 'vistoria' : 'vistorias'}, da mais nova à mais antiga.`}
            {vistorias.isFetching && ' Atualizando…'}
          </p>
          <div className="tabela-rolavel">
            <table className="tabela vistorias-tabela" aria-labelledby="vistorias-titulo">
              <thead>
                <tr>
                  <th scope="col">Data</th>
                  <th scope="col">Tipo</th>
                  <th scope="col">Descrição</th>
                  <th scope="col">Observações</th>
                  <th scope="col">Manutenção</th>
                  <th scope="col">Ações</th>
                </tr>
              </thead>
              <tbody>
                {vistorias.data.map((v) => (
                  <LinhaDeVistoria
                    key={v.id_vistoria}
                    vistoria={v}
                    nova={registrada?.registrada === v.id_vistoria}
                    aoExcluir={(alvo) => {
                      setErro(null);
                      setAExcluir(alvo);
                    }}
                    aoFalhar={setErro}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Confirmacao
        aberta={aExcluir !== null}
        titulo="Excluir esta vistoria?"
        confirmar="Excluir"
        perigosa
        ocupada={excluir.isPending}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setAExcluir(null)}
      >
        {aExcluir && (
          <>
            <p>
              {aExcluir.tipo_descricao} de {formatarData(aExcluir.data)}: “{aExcluir.descricao}”. A
              exclusão não pode ser desfeita.
            </p>
            {aExcluir.id_manutencao !== null && (
              <p>
                A ordem de manutenção nº {aExcluir.id_manutencao} continua registrada, sem vínculo
                com a vistoria.
              </p>
            )}
          </>
        )}
      </Confirmacao>
    </section>
  );
}

/** /vistoria2: a vehicle's latest inspections, edited and deleted in place (staff). */
export default function PaginaVistoria2() {
  const veiculos = useVeiculos();
  const [parametros, setParametros] = useSearchParams();
  const local = useLocation();
  const veiculoId = idValido(parametros.get('veiculo'));
  const registrada = (local.state as VistoriaRegistrada | null) ?? null;
  const vistorias = useVistoriasDoVeiculo(veiculoId);

  return (
    <Pagina
      titulo="Consultar vistorias"
      descricao="Escolha o veículo para ver as vistorias mais recentes e editá-las na própria linha."
    >
      {veiculos.isPending && <Carregando texto="Carregando a frota…" />}
      {veiculos.isError && (
        <ErroDeCarga erro={veiculos.error} tentarDeNovo={() => void veiculos.refetch()} />
      )}
      {veiculos.data && (
        <Busca
          veiculos={veiculos.data}
          veiculoId={veiculoId}
          aoBuscar={(id) => {
            // The same vehicle again reads the list again (someone may have changed it).
            if (id === veiculoId) void vistorias.refetch();
            else setParametros({ veiculo: String(id) });
          }}
        />
      )}
      {veiculoId !== null && (
        <Resultado
          key={veiculoId}
          veiculoId={veiculoId}
          veiculo={veiculos.data?.find((v) => v.id_veiculo === veiculoId)}
          registrada={registrada}
        />
      )}
    </Pagina>
  );
}
