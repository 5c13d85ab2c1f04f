import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { TIPOS_VISTORIA } from '@locadora/contract/dominio';
import { vistoriaSchema, type VistoriaPedido } from '@locadora/contract/operacao';
import { paths } from '../../../config/paths';
import { hojeLocal } from '../../../lib/formatos';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { Campo, CampoMarcacao, CampoSelecao, CampoTextoLongo } from '../../../components/Campo';
import { Alerta, Carregando, ErroDeCarga } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import { useVeiculos, type Veiculo } from '../api/veiculos';
import { useRegistrarVistoria, type VistoriaRegistrada } from '../api/vistorias';
import { SeletorDeVeiculo } from '../componentes/SeletorDeVeiculo';
import { ouIndefinido, resolverDoContrato } from '../formulario';
import '../vistorias.css';

interface Formulario {
  id_veiculo: string;
  data_vistoria: string;
  tipo: string;
  quilometragem: string;
  id_locacao: string;
  descricao: string;
  observacoes: string;
  cria_ordem_manut: boolean;
}

const CAMPOS = [
  'id_veiculo',
  'data_vistoria',
  'tipo',
  'quilometragem',
  'id_locacao',
  'descricao',
  'observacoes',
  'cria_ordem_manut',
] as const;

const paraPedido = (f: Formulario) => ({
  id_veiculo: ouIndefinido(f.id_veiculo),
  data_vistoria: ouIndefinido(f.data_vistoria),
  tipo: ouIndefinido(f.tipo),
  quilometragem: ouIndefinido(f.quilometragem),
  id_locacao: ouIndefinido(f.id_locacao),
  descricao: f.descricao,
  observacoes: f.observacoes,
  cria_ordem_manut: f.cria_ordem_manut,
});

const resolver = resolverDoContrato(vistoriaSchema, paraPedido, {
  id_veiculo: 'Escolha o veículo.',
  data_vistoria: 'Informe a data da vistoria.',
  tipo: 'Escolha o tipo da vistoria.',
});

const milhar = new Intl.NumberFormat('pt-BR');

function FormularioDeVistoria({
  veiculos,
  veiculoInicial,
}: {
  veiculos: readonly Veiculo[];
  veiculoInicial: string;
}) {
  const registrar = useRegistrarVistoria();
  const avisar = useAvisos();
  const navegar = useNavigate();
  const local = useLocation();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<Formulario, unknown, VistoriaPedido>({
    resolver,
    defaultValues: {
      id_veiculo: veiculos.some((v) => String(v.id_veiculo) === veiculoInicial)
        ? veiculoInicial
        : '',
      data_vistoria: hojeLocal(),
      tipo: '',
      quilometragem: '',
      id_locacao: '',
      descricao: '',
      observacoes: '',
      cria_ordem_manut: false,
    },
  });
  const veiculoEscolhido = useWatch({ control, name: 'id_veiculo' });
  const escolhido = veiculos.find((v) => String(v.id_veiculo) === veiculoEscolhido);

  const enviar = handleSubmit(async (pedido) => {
    setErroGeral(null);
    try {
      const vistoria = await registrar.mutateAsync(pedido);
      avisar('Vistoria Inserida com Sucesso.');
      const estado: VistoriaRegistrada = {
        registrada: vistoria.id_vistoria,
        ordem: vistoria.id_manutencao,
      };
      navegar(`${paths.vistoria2.caminho}?veiculo=${vistoria.id_veiculo}`, { state: estado });
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  // Back where the person came from; a page opened directly has nowhere to go back to.
  const voltar = () => (local.key === 'default' ? navegar(paths.vistoria2.caminho) : navegar(-1));

  return (
    <form onSubmit={enviar} noValidate className="cartao formulario formulario--grade">
      {erroGeral && (
        <div className="formulario__acoes">
          <Alerta tipo="erro">{erroGeral}</Alerta>
        </div>
      )}
      <div className="vistorias__veiculo">
        <SeletorDeVeiculo
          rotulo="Veículo"
          veiculos={veiculos}
          erro={errors.id_veiculo?.message}
          {...register('id_veiculo')}
        />
      </div>
      <Campo
        rotulo="Data da vistoria"
        type="date"
        max={hojeLocal()}
        erro={errors.data_vistoria?.message}
        {...register('data_vistoria')}
      />
      <CampoSelecao rotulo="Tipo" erro={errors.tipo?.message} {...register('tipo')}>
        <option value="">Selecione o tipo</option>
        {Object.entries(TIPOS_VISTORIA).map(([valor, rotulo]) => (
          <option key={valor} value={valor}>
            {rotulo}
          </option>
        ))}
      </CampoSelecao>
      <Campo
        rotulo="Quilometragem (opcional)"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        dica={
          escolhido
            ? `Último registro do veículo: ${milhar.format(escolhido.quilometragem)} km.`
            : undefined
        }
        erro={errors.quilometragem?.message}
        {...register('quilometragem')}
      />
      <Campo
        rotulo="Contrato (opcional)"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        dica="Número da locação deste veículo, para comparar saída e devolução."
        erro={errors.id_locacao?.message}
        {...register('id_locacao')}
      />
      <div className="vistorias__largo">
        <CampoTextoLongo
          rotulo="Descrição"
          rows={3}
          erro={errors.descricao?.message}
          {...register('descricao')}
        />
      </div>
      <div className="vistorias__largo">
        <CampoTextoLongo
          rotulo="Observações (opcional)"
          rows={3}
          erro={errors.observacoes?.message}
          {...register('observacoes')}
        />
      </div>
      <div className="vistorias__largo">
        <CampoMarcacao
          rotulo="Criar ordem de manutenção"
          aria-describedby="vistoria-ordem-dica"
          erro={errors.cria_ordem_manut?.message}
          {...register('cria_ordem_manut')}
        />
        <p id="vistoria-ordem-dica" className="campo__dica vistorias__dica-marcacao">
          Abre uma ordem de reparo vinculada a esta vistoria. O veículo fica fora da frota
          disponível para reservas até a ordem ser encerrada em Manutenções.
        </p>
      </div>
      <div className="formulario__acoes">
        <button type="submit" className="botao" disabled={registrar.isPending}>
          {registrar.isPending ? 'Cadastrando…' : 'Cadastrar Vistoria'}
        </button>
        <button type="button" className="botao botao--secundario" onClick={() => void voltar()}>
          Voltar
        </button>
      </div>
    </form>
  );
}

/** /vistoria: registers a departure or return inspection (staff). */
export default function PaginaVistoria() {
  const veiculos = useVeiculos();
  const [parametros] = useSearchParams();
  return (
    <Pagina
      titulo="Cadastrar vistoria"
      descricao="Registre a vistoria de saída ou de devolução de um veículo."
    >
      {veiculos.isPending && <Carregando texto="Carregando a frota…" />}
      {veiculos.isError && (
        <ErroDeCarga erro={veiculos.error} tentarDeNovo={() => void veiculos.refetch()} />
      )}
      {veiculos.data && (
        <FormularioDeVistoria
          veiculos={veiculos.data}
          veiculoInicial={parametros.get('veiculo') ?? ''}
        />
      )}
    </Pagina>
  );
}
