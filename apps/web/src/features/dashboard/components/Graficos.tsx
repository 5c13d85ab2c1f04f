import { useId } from 'react';
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatarReais } from '../../../lib/formatos';
import { Vazio } from '../../../components/Estados';
import type { Painel } from '../api/painel';

// The dashboard's charts. Each is drawn by recharts for the eye and hidden from assistive
// technology behind one short label; the same numbers are in a table anyone can open.

const CORES = {
  azul: '#0a4fd6',
  vermelho: '#b3261e',
  verde: '#1b6e3a',
  ambar: '#a15c00',
  cinza: '#4a5668',
};

const NOMES_DOS_MESES = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

/** 'aaaa-mm' -> 'nov/26' (axis). */
export const mesCurto = (mes: string): string => {
  const [ano, m] = mes.split('-');
  return `${NOMES_DOS_MESES[Number(m) - 1]!.slice(0, 3)}/${ano!.slice(2)}`;
};
/** 'aaaa-mm' -> 'novembro de 2026' (tables). */
export const mesPorExtenso = (mes: string): string => {
  const [ano, m] = mes.split('-');
  return `${NOMES_DOS_MESES[Number(m) - 1]} de ${ano}`;
};

const reaisCompactos = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  notation: 'compact',
  maximumFractionDigits: 1,
});
const inteiro = new Intl.NumberFormat('pt-BR');
const porcento = (v: number) =>
  `${v.toLocaleString('pt-BR', { minimumFractionDigits: 0, maximumFractionDigits: 1 })}%`;

export const ROTULOS_DE_STATUS: Record<Painel['reservasPorStatus'][number]['status'], string> = {
  reservada: 'Reservadas',
  retirada: 'Retiradas (em andamento)',
  devolvida: 'Devolvidas',
  cancelada: 'Canceladas',
};
const CORES_DE_STATUS = {
  reservada: CORES.azul,
  retirada: CORES.ambar,
  devolvida: CORES.verde,
  cancelada: CORES.vermelho,
};

const eixo = { fontSize: 12, fill: CORES.cinza };
// Legend text in the page's text colour: the series colours are for shapes, not for small text.
const legenda = (valor: ReactNode) => <span className="grafico__legenda">{valor}</span>;
// Charts are redrawn on every period change; animating them only delays the numbers.
const comum = { isAnimationActive: false } as const;
const ALTURA = 280;

/** A chart's card: heading, the drawing (or the empty state) and the table of its numbers. */
function CartaoDeGrafico({
  titulo,
  descricao,
  resumo,
  vazio,
  grafico,
  tabela,
}: {
  titulo: string;
  descricao: string;
  /** What the drawing shows, for screen readers (the numbers are in the table). */
  resumo: string;
  vazio: string | null;
  grafico: ReactNode;
  tabela: ReactNode;
}) {
  const id = useId();
  return (
    <section className="cartao grafico" aria-labelledby={id}>
      <h2 id={id}>{titulo}</h2>
      <p className="grafico__descricao">{descricao}</p>
      {vazio ? (
        <Vazio>{vazio}</Vazio>
      ) : (
        <>
          <div className="grafico__desenho" role="img" aria-label={resumo}>
            {grafico}
          </div>
          <details className="grafico__dados">
            <summary>Ver os números em tabela</summary>
            <div className="tabela-rolavel">{tabela}</div>
          </details>
        </>
      )}
    </section>
  );
}

const SEM_DADOS = 'Sem dados no período';

export function ReservasPorMes({ painel }: { painel: Painel }) {
  const dados = painel.reservasPorMes.map((m) => ({
    mes: mesCurto(m.mes),
    confirmadas: m.quantidade - m.canceladas,
    canceladas: m.canceladas,
  }));
  return (
    <CartaoDeGrafico
      titulo="Reservas por mês"
      descricao="Pelo mês previsto de retirada; as canceladas aparecem à parte."
      resumo={`Gráfico de barras: reservas em cada um dos últimos ${painel.periodo.meses} meses.`}
      vazio={painel.totais.reservas === 0 ? SEM_DADOS : null}
      grafico={
        <BarChart
          data={dados}
          responsive
          style={{ width: '100%', height: ALTURA }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="mes" tick={eixo} />
          <YAxis allowDecimals={false} tick={eixo} width={36} />
          <Tooltip />
          <Legend formatter={legenda} />
          <Bar dataKey="confirmadas" name="Reservas" stackId="r" fill={CORES.azul} {...comum} />
          <Bar
            dataKey="canceladas"
            name="Canceladas"
            stackId="r"
            fill={CORES.vermelho}
            {...comum}
          />
        </BarChart>
      }
      tabela={
        <table className="tabela">
          <caption>Reservas por mês de retirada</caption>
          <thead>
            <tr>
              <th scope="col">Mês</th>
              <th scope="col">Reservas</th>
              <th scope="col">Canceladas</th>
            </tr>
          </thead>
          <tbody>
            {painel.reservasPorMes.map((m) => (
              <tr key={m.mes}>
                <th scope="row">{mesPorExtenso(m.mes)}</th>
                <td>{inteiro.format(m.quantidade)}</td>
                <td>{inteiro.format(m.canceladas)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

export function ReceitaPorMes({ painel }: { painel: Painel }) {
  const dados = painel.receitaPorMes.map((m) => ({ mes: mesCurto(m.mes), valor: m.valor }));
  return (
    <CartaoDeGrafico
      titulo="Receita por mês"
      descricao="Soma dos totais das reservas reservadas, retiradas e devolvidas; as canceladas não contam."
      resumo={`Gráfico de linha: receita em reais em cada um dos últimos ${painel.periodo.meses} meses.`}
      vazio={painel.totais.reservas === 0 ? SEM_DADOS : null}
      grafico={
        <LineChart
          data={dados}
          responsive
          style={{ width: '100%', height: ALTURA }}
          accessibilityLayer={false}
          margin={{ top: 10, right: 16, bottom: 5, left: 5 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="mes" tick={eixo} />
          <YAxis tick={eixo} width={76} tickFormatter={(v: number) => reaisCompactos.format(v)} />
          <Tooltip formatter={(v) => formatarReais(Number(v))} />
          <Line
            type="linear"
            dataKey="valor"
            name="Receita"
            stroke={CORES.verde}
            strokeWidth={2.5}
            dot={{ r: 3 }}
            {...comum}
          />
        </LineChart>
      }
      tabela={
        <table className="tabela">
          <caption>Receita por mês de retirada</caption>
          <thead>
            <tr>
              <th scope="col">Mês</th>
              <th scope="col">Receita</th>
            </tr>
          </thead>
          <tbody>
            {painel.receitaPorMes.map((m) => (
              <tr key={m.mes}>
                <th scope="row">{mesPorExtenso(m.mes)}</th>
                <td>{formatarReais(m.valor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

export function UtilizacaoPorCategoria({ painel }: { painel: Painel }) {
  const dados = painel.utilizacaoPorCategoria.map((c) => ({
    categoria: c.categoria,
    retirados: c.percentualUtilizacao,
    manutencao: c.percentualEmManutencao,
  }));
  return (
    <CartaoDeGrafico
      titulo="Utilização da frota por categoria"
      descricao="Agora: veículos ativos com cliente e em manutenção, em % de cada categoria."
      resumo="Gráfico de barras: percentual de veículos retirados e em manutenção em cada categoria."
      vazio={painel.totais.veiculosAtivos === 0 ? 'Nenhum veículo ativo na frota.' : null}
      grafico={
        <BarChart
          data={dados}
          responsive
          style={{ width: '100%', height: ALTURA }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="categoria" tick={eixo} />
          <YAxis
            domain={[0, 100]}
            ticks={[0, 25, 50, 75, 100]}
            tick={eixo}
            width={44}
            tickFormatter={(v: number) => `${v}%`}
          />
          <Tooltip formatter={(v) => porcento(Number(v))} />
          <Legend formatter={legenda} />
          <Bar dataKey="retirados" name="Com cliente" stackId="u" fill={CORES.azul} {...comum} />
          <Bar
            dataKey="manutencao"
            name="Em manutenção"
            stackId="u"
            fill={CORES.ambar}
            {...comum}
          />
        </BarChart>
      }
      tabela={
        <table className="tabela">
          <caption>Utilização da frota por categoria, agora</caption>
          <thead>
            <tr>
              <th scope="col">Categoria</th>
              <th scope="col">Veículos ativos</th>
              <th scope="col">Com cliente</th>
              <th scope="col">Em manutenção</th>
              <th scope="col">Utilização</th>
              <th scope="col">Em manutenção (%)</th>
            </tr>
          </thead>
          <tbody>
            {painel.utilizacaoPorCategoria.map((c) => (
              <tr key={c.id_categoria}>
                <th scope="row">{c.categoria}</th>
                <td>{inteiro.format(c.veiculosAtivos)}</td>
                <td>{inteiro.format(c.retirados)}</td>
                <td>{inteiro.format(c.emManutencao)}</td>
                <td>{porcento(c.percentualUtilizacao)}</td>
                <td>{porcento(c.percentualEmManutencao)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

export function ReservasPorStatus({ painel }: { painel: Painel }) {
  const total = painel.reservasPorStatus.reduce((s, x) => s + x.quantidade, 0);
  const dados = painel.reservasPorStatus
    .filter((s) => s.quantidade > 0)
    .map((s) => ({ status: s.status, nome: ROTULOS_DE_STATUS[s.status], valor: s.quantidade }));
  return (
    <CartaoDeGrafico
      titulo="Reservas por situação"
      descricao="Reservas do período pela situação atual."
      resumo="Gráfico de pizza: divisão das reservas do período entre reservadas, retiradas, devolvidas e canceladas."
      vazio={total === 0 ? SEM_DADOS : null}
      grafico={
        <PieChart responsive style={{ width: '100%', height: ALTURA }} accessibilityLayer={false}>
          <Tooltip />
          <Legend formatter={legenda} />
          <Pie
            data={dados}
            dataKey="valor"
            nameKey="nome"
            innerRadius="45%"
            outerRadius="80%"
            label={({ value }: { value?: number }) => inteiro.format(value ?? 0)}
            {...comum}
          >
            {dados.map((d) => (
              <Cell key={d.status} fill={CORES_DE_STATUS[d.status]} />
            ))}
          </Pie>
        </PieChart>
      }
      tabela={
        <table className="tabela">
          <caption>Reservas do período por situação</caption>
          <thead>
            <tr>
              <th scope="col">Situação</th>
              <th scope="col">Reservas</th>
              <th scope="col">Parcela</th>
            </tr>
          </thead>
          <tbody>
            {painel.reservasPorStatus.map((s) => (
              <tr key={s.status}>
                <th scope="row">{ROTULOS_DE_STATUS[s.status]}</th>
                <td>{inteiro.format(s.quantidade)}</td>
                <td>{porcento(total ? Math.round((s.quantidade * 1000) / total) / 10 : 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

export { inteiro, porcento };
