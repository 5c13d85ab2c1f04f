import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { formatarData, formatarDataHora, formatarReais } from '../../../lib/formatos';
import { Carregando, ErroDeCarga } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useConfiguracao, usePainel, type Painel } from '../api/painel';
import {
  inteiro,
  mesPorExtenso,
  porcento,
  ReceitaPorMes,
  ReservasPorMes,
  ReservasPorStatus,
  UtilizacaoPorCategoria,
} from '../components/Graficos';
import '../dashboard.css';

const PERIODOS = [6, 12, 24] as const;
const PERIODO_PADRAO = 12;

/** The period lives in the address (?meses=6), so a reload or a shared link keeps it. */
function usePeriodo(): [number, (meses: number) => void] {
  const [parametros, setParametros] = useSearchParams();
  const pedido = Number(parametros.get('meses'));
  const meses = (PERIODOS as readonly number[]).includes(pedido) ? pedido : PERIODO_PADRAO;
  return [
    meses,
    (novo) =>
      setParametros(novo === PERIODO_PADRAO ? {} : { meses: String(novo) }, { replace: true }),
  ];
}

function SeletorDePeriodo({ meses, aoMudar }: { meses: number; aoMudar: (m: number) => void }) {
  const nome = useId();
  return (
    <fieldset className="periodo">
      <legend>Período</legend>
      {PERIODOS.map((p) => (
        <label key={p} className="periodo__opcao">
          <input
            type="radio"
            name={nome}
            value={p}
            checked={meses === p}
            onChange={() => aoMudar(p)}
          />
          <span className="periodo__botao">
            <span className="visualmente-oculto">Últimos </span>
            {p} meses
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function Cifras({ painel }: { painel: Painel }) {
  const { totais, multasEmAberto: multas } = painel;
  return (
    <section aria-labelledby="titulo-cifras">
      <h2 id="titulo-cifras" className="visualmente-oculto">
        Números principais
      </h2>
      <dl className="cifras">
        <div className="cifra cartao">
          <dt>Reservas no período</dt>
          <dd className="cifra__valor">{inteiro.format(totais.reservas)}</dd>
          <dd className="cifra__nota">
            {totais.canceladas === 1
              ? '1 cancelada'
              : `${inteiro.format(totais.canceladas)} canceladas`}
          </dd>
        </div>
        <div className="cifra cartao">
          <dt>Receita no período</dt>
          <dd className="cifra__valor">{formatarReais(totais.receita)}</dd>
          <dd className="cifra__nota">Sem as reservas canceladas</dd>
        </div>
        <div className="cifra cartao">
          <dt>Frota com cliente agora</dt>
          <dd className="cifra__valor">{porcento(totais.percentualUtilizacao)}</dd>
          <dd className="cifra__nota">
            {inteiro.format(totais.veiculosRetirados)} de {inteiro.format(totais.veiculosAtivos)}{' '}
            veículos ativos; {inteiro.format(totais.veiculosEmManutencao)} em manutenção
          </dd>
        </div>
        <div className="cifra cartao">
          <dt>Multas em aberto</dt>
          <dd className="cifra__valor">{inteiro.format(multas.quantidade)}</dd>
          <dd className="cifra__nota">
            Desde {formatarData(multas.desde)} (últimos 90 dias);{' '}
            {inteiro.format(multas.comPrazoDeIndicacaoAberto)} com prazo de indicação aberto
          </dd>
        </div>
        <div className="cifra cartao">
          <dt>Valor das multas em aberto</dt>
          <dd className="cifra__valor">{formatarReais(multas.valorTotal)}</dd>
          <dd className="cifra__nota">Infrações dos últimos 90 dias</dd>
        </div>
      </dl>
    </section>
  );
}

function RelatorioBi({ url }: { url: string }) {
  return (
    <section className="cartao relatorio-bi" aria-labelledby="titulo-relatorio-bi">
      <h2 id="titulo-relatorio-bi">Relatório de BI</h2>
      <p className="grafico__descricao">
        Relatório externo configurado para esta locadora.{' '}
        <a href={url} target="_blank" rel="noreferrer">
          Abrir em nova aba
        </a>
      </p>
      <iframe
        title="Relatório de BI da locadora"
        src={url}
        loading="lazy"
        referrerPolicy="no-referrer"
      />
    </section>
  );
}

/** /dashboard (staff): the business figures of the last months, drawn and tabulated. */
export default function PaginaDashboard() {
  const [meses, setMeses] = usePeriodo();
  const painel = usePainel(meses);
  const configuracao = useConfiguracao();
  const urlDoBi = configuracao.data?.dashboard.urlDoRelatorioBi;
  const dados = painel.data;

  return (
    <Pagina
      titulo="Dashboard"
      descricao={
        dados
          ? `De ${mesPorExtenso(dados.periodo.inicio)} a ${mesPorExtenso(dados.periodo.fim)}, horário de Brasília. Atualizado em ${formatarDataHora(dados.periodo.geradoEm)}.`
          : 'Os números da locadora nos últimos meses.'
      }
      acoes={<SeletorDePeriodo meses={meses} aoMudar={setMeses} />}
    >
      {painel.isPending && <Carregando texto="Calculando os números…" />}
      {painel.isError && (
        <ErroDeCarga erro={painel.error} tentarDeNovo={() => void painel.refetch()} />
      )}
      {dados && (
        <div
          className={painel.isPlaceholderData ? 'painel painel--atualizando' : 'painel'}
          aria-busy={painel.isPlaceholderData}
        >
          <Cifras painel={dados} />
          <div className="graficos">
            <ReservasPorMes painel={dados} />
            <ReceitaPorMes painel={dados} />
            <UtilizacaoPorCategoria painel={dados} />
            <ReservasPorStatus painel={dados} />
          </div>
        </div>
      )}
      {urlDoBi && <RelatorioBi url={urlDoBi} />}
    </Pagina>
  );
}
