import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  locacaoSchema,
  type LocacaoEntrada,
  type LocacaoPedido,
} from '@locadora/contract/locacoes';
import { Campo, CampoSelecao, CampoTextoLongo } from '../../../components/Campo';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta } from '../../../components/Estados';
import { useAvisos } from '../../../components/Avisos';
import { mensagemDoErro } from '../../../lib/api';
import { formatarData, formatarReais, hojeLocal } from '../../../lib/formatos';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import {
  useCancelarLocacao,
  useCotacao,
  useGravarLocacao,
  type Cotacao,
  type Locacao,
} from '../api/locacoes';
import type { Adicional, Categoria, Cliente, Local, Modelo } from '../api/referencia';
import { orcamentoDoFormulario, periodoValido } from '../orcamento';
import { MOTIVO_SOMENTE_LEITURA, ROTULOS_DE_STATUS } from '../status';
import { ResumoDoTotal, type ValoresDoTotal } from './ResumoDoTotal';
import { SeletorDeCliente } from './SeletorDeCliente';

export interface Referencia {
  locais: Local[];
  categorias: Categoria[];
  modelos: Modelo[];
  adicionais: Adicional[];
}

/** What the inputs hold: the selects give text, which the contract's schema reads as ids. */
type Valores = LocacaoEntrada;

const CAMPOS = [
  'id_local',
  'id_categoria',
  'modelo_veiculo',
  'data_retirada',
  'hora_retirada',
  'data_entrega',
  'hora_entrega',
  'id_adicional',
  'observacao',
] as const;

const HORA_PADRAO = '10:00';

const comoTexto = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function valoresDe(l: Locacao | null, ref: Referencia): Valores {
  // A new booking starts with no extra ("Nenhum", the one that costs nothing).
  const semAdicional = ref.adicionais.find((a) => a.valor === 0) ?? ref.adicionais[0];
  return {
    id_local: l ? String(l.id_local) : '',
    id_categoria: l ? String(l.id_categoria) : '',
    modelo_veiculo: l?.modelo_veiculo ?? '',
    data_retirada: l?.data_retirada ?? '',
    hora_retirada: l?.hora_retirada ?? HORA_PADRAO,
    data_entrega: l?.data_entrega ?? '',
    hora_entrega: l?.hora_entrega ?? HORA_PADRAO,
    id_adicional: l
      ? String(l.id_adicional)
      : semAdicional
        ? String(semAdicional.id_adicional)
        : '',
    observacao: l?.observacao ?? '',
  };
}

/**
 * The booking form: creates with no reservation selected, edits the selected one while it is
 * still 'reservada', and only shows it otherwise.
 */
export function FormularioDeLocacao({
  locacao,
  referencia,
  equipe,
  nomeDoUsuario,
  aoGravar,
  aoNovo,
  aoExcluir,
}: {
  locacao: Locacao | null;
  referencia: Referencia;
  equipe: boolean;
  nomeDoUsuario: string;
  aoGravar: (l: Locacao) => void;
  aoNovo: () => void;
  aoExcluir: () => void;
}) {
  const gravar = useGravarLocacao();
  const cancelar = useCancelarLocacao();
  const cotar = useCotacao();
  const avisar = useAvisos();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const [confirmando, setConfirmando] = useState(false);
  const [cliente, setCliente] = useState<Cliente | null>(null);
  // The server's answer to "Calcular Total", shown only while the form still matches it.
  const [cotacao, setCotacao] = useState<{ chave: string; resultado: Cotacao } | null>(null);

  const somenteLeitura = locacao !== null && locacao.status !== 'reservada';
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    reset,
    control,
    formState: { errors },
  } = useForm<Valores, unknown, LocacaoPedido>({
    resolver: zodResolver(locacaoSchema),
    defaultValues: valoresDe(locacao, referencia),
  });

  const vigiados = useWatch({
    control,
    name: [
      'id_local',
      'id_categoria',
      'modelo_veiculo',
      'data_retirada',
      'hora_retirada',
      'data_entrega',
      'hora_entrega',
      'id_adicional',
    ],
  });
  const [
    idLocal,
    idCategoria,
    modelo,
    dataRetirada,
    horaRetirada,
    dataEntrega,
    horaEntrega,
    idAdicional,
  ] = vigiados.map(comoTexto) as [string, string, string, string, string, string, string, string];
  const chaveAtual = JSON.stringify(vigiados);

  const local = referencia.locais.find((l) => String(l.id_local) === idLocal);
  const categoria = referencia.categorias.find((c) => String(c.id_categoria) === idCategoria);
  const adicional = referencia.adicionais.find((a) => String(a.id_adicional) === idAdicional);
  const modelosDaCategoria = referencia.modelos.filter(
    (m) => String(m.id_categoria) === idCategoria,
  );

  const periodo = {
    data_retirada: dataRetirada,
    hora_retirada: horaRetirada,
    data_entrega: dataEntrega,
    hora_entrega: horaEntrega,
  };
  let total: ValoresDoTotal | null = null;
  let avisoDoTotal: string | undefined;
  if (somenteLeitura && locacao) {
    // A closed reservation keeps the price it was booked at, whatever the catalogue says now.
    total = {
      diarias: locacao.diarias,
      valorDiaria: locacao.vl_categoria,
      adicional: locacao.adicional,
      valorAdicional: locacao.custos_ad,
      total: locacao.vl_total,
    };
  } else {
    const orcamento = orcamentoDoFormulario(
      periodo,
      categoria?.vl_categoria,
      adicional?.valor ?? 0,
    );
    if (orcamento) {
      total = {
        diarias: orcamento.diarias,
        valorDiaria: orcamento.valorDiariaCentavos / 100,
        adicional: adicional?.descricao ?? 'Nenhum',
        valorAdicional: orcamento.valorAdicionalCentavos / 100,
        total: orcamento.valorTotalCentavos / 100,
      };
      if (orcamento.acimaDoLimite) avisoDoTotal = 'O período máximo de uma locação é de 90 dias.';
    }
  }

  const corpoDoPedido = (dados: LocacaoPedido): LocacaoPedido =>
    equipe && cliente && !locacao ? { ...dados, id_usuario: cliente.id } : dados;

  const enviar = handleSubmit(async (dados) => {
    setErroGeral(null);
    try {
      const salva = await gravar.mutateAsync({
        id: locacao?.id_locacao ?? null,
        corpo: corpoDoPedido(dados),
      });
      reset(valoresDe(salva, referencia));
      setCotacao(null);
      avisar(
        locacao
          ? 'Solicitação de locação realizado com sucesso!'
          : 'Reserva Cadastrada com sucesso',
      );
      aoGravar(salva);
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  const calcular = handleSubmit(async (dados) => {
    setErroGeral(null);
    const chave = chaveAtual;
    try {
      const { id_usuario: _ignorado, ...corpo } = dados;
      const resultado = await cotar.mutateAsync(corpo);
      setCotacao({ chave, resultado });
    } catch (erro) {
      setCotacao(null);
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  async function confirmarExclusao() {
    if (!locacao) return;
    try {
      await cancelar.mutateAsync(locacao.id_locacao);
      setConfirmando(false);
      avisar('Reserva excluída com sucesso!');
      aoExcluir();
    } catch (erro) {
      // Picked up meanwhile, say: the reservation stays and the reason is shown.
      setConfirmando(false);
      setErroGeral(mensagemDoErro(erro));
    }
  }

  const confirmacao = cotacao?.chave === chaveAtual ? cotacao.resultado : null;

  return (
    <form onSubmit={enviar} noValidate className="formulario" aria-label="Dados da reserva">
      {locacao && (
        <dl className="dados locacao__cabecalho">
          <dt>Status</dt>
          <dd>
            <span className={`locacao__status locacao__status--${locacao.status}`}>
              {ROTULOS_DE_STATUS[locacao.status]}
            </span>
          </dd>
          {equipe && (
            <>
              <dt>Cliente</dt>
              <dd>{locacao.nome_cliente}</dd>
            </>
          )}
          {locacao.placa && (
            <>
              <dt>Veículo</dt>
              <dd>{locacao.placa}</dd>
            </>
          )}
        </dl>
      )}
      {somenteLeitura && locacao && locacao.status !== 'reservada' && (
        <Alerta tipo="info">{MOTIVO_SOMENTE_LEITURA[locacao.status]}</Alerta>
      )}
      {equipe && !locacao && (
        <SeletorDeCliente cliente={cliente} aoEscolher={setCliente} nomeProprio={nomeDoUsuario} />
      )}

      <fieldset className="formulario--grade locacao__campos" disabled={somenteLeitura}>
        <legend className="visualmente-oculto">Retirada, veículo e entrega</legend>
        <CampoSelecao
          rotulo="Local de retirada"
          erro={errors.id_local?.message}
          dica={local ? `${local.endereco}, ${local.bairro}, ${local.cidade}` : undefined}
          {...register('id_local')}
        >
          <option value="">Selecione o local</option>
          {referencia.locais.map((l) => (
            <option key={l.id_local} value={l.id_local}>
              {l.nome} ({l.bairro})
            </option>
          ))}
        </CampoSelecao>
        <CampoSelecao
          rotulo="Categoria"
          erro={errors.id_categoria?.message}
          {...register('id_categoria', {
            // A model of another category would be refused: the choice starts over.
            onChange: (e: { target: { value: string } }) => {
              const ainda = referencia.modelos.some(
                (m) => m.nome === modelo && String(m.id_categoria) === e.target.value,
              );
              if (!ainda) setValue('modelo_veiculo', '');
            },
          })}
        >
          <option value="">Selecione a categoria</option>
          {referencia.categorias.map((c) => (
            <option key={c.id_categoria} value={c.id_categoria}>
              {c.desc_categoria} ({formatarReais(c.vl_categoria)}/dia)
            </option>
          ))}
        </CampoSelecao>
        <CampoSelecao
          rotulo="Modelo"
          erro={errors.modelo_veiculo?.message}
          dica={categoria ? undefined : 'Escolha a categoria primeiro.'}
          {...register('modelo_veiculo')}
        >
          <option value="">{categoria ? 'Selecione o modelo' : '—'}</option>
          {modelosDaCategoria.map((m) => (
            <option key={m.id_modelo} value={m.nome}>
              {m.nome} ({m.marca})
            </option>
          ))}
        </CampoSelecao>
        <CampoSelecao
          rotulo="Adicional"
          erro={errors.id_adicional?.message}
          {...register('id_adicional')}
        >
          {referencia.adicionais.map((a) => (
            <option key={a.id_adicional} value={a.id_adicional}>
              {a.descricao}
              {a.valor > 0 ? ` (${formatarReais(a.valor)})` : ''}
            </option>
          ))}
        </CampoSelecao>
        <div className="locacao__periodo">
          <div className="locacao__par">
            <Campo
              rotulo="Data de retirada"
              type="date"
              min={somenteLeitura ? undefined : hojeLocal()}
              erro={errors.data_retirada?.message}
              {...register('data_retirada')}
            />
            <Campo
              rotulo="Hora de retirada"
              type="time"
              step={60}
              erro={errors.hora_retirada?.message}
              {...register('hora_retirada')}
            />
          </div>
          <div className="locacao__par">
            <Campo
              rotulo="Data de entrega"
              type="date"
              min={somenteLeitura ? undefined : dataRetirada || hojeLocal()}
              erro={errors.data_entrega?.message}
              {...register('data_entrega')}
            />
            <Campo
              rotulo="Hora de entrega"
              type="time"
              step={60}
              erro={errors.hora_entrega?.message}
              {...register('hora_entrega')}
            />
          </div>
        </div>
        <div className="locacao__observacao">
          <CampoTextoLongo
            rotulo="Observação (opcional)"
            maxLength={500}
            erro={errors.observacao?.message}
            {...register('observacao')}
          />
        </div>
      </fieldset>

      <ResumoDoTotal
        titulo={somenteLeitura ? 'Total da reserva' : 'Total estimado'}
        valores={total}
        aviso={avisoDoTotal}
        datasConflitantes={
          !somenteLeitura && dataRetirada !== '' && dataEntrega !== '' && !periodoValido(periodo)
        }
        confirmacao={confirmacao}
        calculando={cotar.isPending}
        edicao={locacao !== null}
      />

      {erroGeral && (
        <div className="locacao__erro">
          <Alerta tipo="erro">{erroGeral}</Alerta>
        </div>
      )}

      <div className="formulario__acoes">
        <button type="submit" className="botao" disabled={somenteLeitura || gravar.isPending}>
          {gravar.isPending ? 'Reservando…' : 'Reservar'}
        </button>
        <button
          type="button"
          className="botao botao--secundario"
          disabled={somenteLeitura || cotar.isPending}
          onClick={() => void calcular()}
        >
          Calcular Total
        </button>
        <button type="button" className="botao botao--secundario" onClick={aoNovo}>
          Novo Registro
        </button>
        <button
          type="button"
          className="botao botao--perigo"
          disabled={!locacao || somenteLeitura}
          onClick={() => {
            setErroGeral(null);
            setConfirmando(true);
          }}
        >
          Excluir
        </button>
      </div>

      <Confirmacao
        aberta={confirmando}
        titulo="Excluir esta reserva?"
        confirmar="Excluir reserva"
        cancelar="Voltar"
        perigosa
        ocupada={cancelar.isPending}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setConfirmando(false)}
      >
        {locacao && (
          <p>
            A reserva {locacao.codigo} ({locacao.modelo_veiculo}, retirada em{' '}
            {formatarData(locacao.data_retirada)}) será cancelada. O registro continua guardado no
            histórico.
          </p>
        )}
      </Confirmacao>
    </form>
  );
}
