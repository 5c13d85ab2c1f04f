import { and, asc, count, eq, gte, sql, sum } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { FUSO_HORARIO, type StatusLocacao } from '@locadora/contract/dominio';
import {
  categorias,
  infracoes,
  locacoes,
  manutencoes,
  modelos,
  veiculos,
} from '../../db/schema.js';

/** Both drivers answer raw statements as `{ rows }`; the shared Database type leaves it open. */
type Linhas<T> = { rows: T[] };

/** sum() of bigint answers text on PostgreSQL and a number on PGlite; cents fit a double. */
const numero = (v: unknown): number => Number(v ?? 0);

export interface MesDoPainel {
  mes: string;
  quantidade: number;
  canceladas: number;
  receitaCentavos: number;
}

export interface CategoriaDoPainel {
  id: number;
  descricao: string;
  ativos: number;
  retirados: number;
  emManutencao: number;
}

export interface MultasDoPainel {
  quantidade: number;
  valorCentavos: number;
  comPrazoAberto: number;
}

/**
 * The period: the `meses` local (São Paulo) months up to and including the one of `agora`, as
 * local timestamps. Pickups are compared as instants against these bounds turned back into
 * instants, so the `locacoes_retirada` index serves the range.
 */
const fuso = sql`${FUSO_HORARIO}::text`;

const inicioLocal = (agora: Date, meses: number) =>
  sql`(date_trunc('month', ${agora.toISOString()}::timestamptz at time zone ${fuso}) - make_interval(months => ${meses - 1}::int))`;
const fimLocal = (agora: Date) =>
  sql`(date_trunc('month', ${agora.toISOString()}::timestamptz at time zone ${fuso}) + interval '1 month')`;
const noPeriodo = (agora: Date, meses: number) =>
  sql`${locacoes.retiradaPrevista} >= ${inicioLocal(agora, meses)} at time zone ${fuso}
      and ${locacoes.retiradaPrevista} < ${fimLocal(agora)} at time zone ${fuso}`;

export function criarRepositorioPainel(db: Database) {
  return {
    /**
     * One row per month of the period, oldest first, months without reservations included
     * (generate_series left-joined to the month totals): reservations by planned pickup month,
     * every status counted, and the totals of those not cancelled.
     */
    async porMes(agora: Date, meses: number): Promise<MesDoPainel[]> {
      const resultado = (await db.execute(sql`
        with meses as (
          select generate_series(${inicioLocal(agora, meses)}, ${fimLocal(agora)} - interval '1 month', interval '1 month') as mes
        ),
        totais as (
          select date_trunc('month', ${locacoes.retiradaPrevista} at time zone ${fuso}) as mes,
                 count(*)::int as quantidade,
                 (count(*) filter (where ${locacoes.status} = 'cancelada'))::int as canceladas,
                 coalesce(sum(${locacoes.valorTotalCentavos}) filter (where ${locacoes.status} <> 'cancelada'), 0)::bigint as receita
            from ${locacoes}
           where ${noPeriodo(agora, meses)}
           group by 1
        )
        select to_char(m.mes, 'YYYY-MM') as mes,
               coalesce(t.quantidade, 0) as quantidade,
               coalesce(t.canceladas, 0) as canceladas,
               coalesce(t.receita, 0) as receita
          from meses m
          left join totais t on t.mes = m.mes
         order by m.mes`)) as Linhas<{
        mes: string;
        quantidade: number;
        canceladas: number;
        receita: unknown;
      }>;
      return resultado.rows.map((l) => ({
        mes: l.mes,
        quantidade: numero(l.quantidade),
        canceladas: numero(l.canceladas),
        receitaCentavos: numero(l.receita),
      }));
    },

    /** Reservations of the period by status (only the statuses present). */
    async porStatus(
      agora: Date,
      meses: number,
    ): Promise<{ status: StatusLocacao; quantidade: number }[]> {
      return db
        .select({ status: locacoes.status, quantidade: count() })
        .from(locacoes)
        .where(noPeriodo(agora, meses))
        .groupBy(locacoes.status);
    },

    /**
     * The fleet now, per category (categories without vehicles included): active vehicles, those
     * out with a customer (a reservation in status retirada) and those blocked by maintenance at
     * `agora`, with the same blocking range as availability and the GiST index.
     */
    async frotaPorCategoria(agora: Date): Promise<CategoriaDoPainel[]> {
      const instante = agora.toISOString();
      const retirado = sql`exists (select 1 from ${locacoes} l
        where l.veiculo_id = ${veiculos.id} and l.status = 'retirada')`;
      const emManutencao = sql`exists (select 1 from ${manutencoes} mt
        where mt.veiculo_id = ${veiculos.id}
          and tstzrange(mt.inicio, coalesce(mt.encerrada_em, mt.previsao_termino), '[)')
              @> ${instante}::timestamptz)`;
      const linhas = await db
        .select({
          id: categorias.id,
          descricao: categorias.descricao,
          ativos: sql<number>`count(${veiculos.id})::int`,
          retirados: sql<number>`(count(${veiculos.id}) filter (where ${retirado}))::int`,
          emManutencao: sql<number>`(count(${veiculos.id}) filter (where ${emManutencao}))::int`,
        })
        .from(categorias)
        .leftJoin(modelos, eq(modelos.categoriaId, categorias.id))
        .leftJoin(veiculos, and(eq(veiculos.modeloId, modelos.id), eq(veiculos.ativo, true)))
        .groupBy(categorias.id, categorias.descricao)
        .orderBy(sql`lower(${categorias.descricao})`, asc(categorias.id));
      return linhas.map((l) => ({
        ...l,
        ativos: numero(l.ativos),
        retirados: numero(l.retirados),
        emManutencao: numero(l.emManutencao),
      }));
    },

    /**
     * Fines that occurred since `desde`, their total, and how many still have the
     * driver-indication deadline open on `hoje` ('aaaa-mm-dd', local).
     */
    async multasDesde(desde: Date, hoje: string): Promise<MultasDoPainel> {
      const [linha] = await db
        .select({
          quantidade: count(),
          valor: sum(infracoes.valorCentavos),
          comPrazoAberto: sql<number>`(count(*) filter (where ${infracoes.prazoIndicacao} >= ${hoje}::date))::int`,
        })
        .from(infracoes)
        .where(gte(infracoes.ocorridaEm, desde));
      return {
        quantidade: numero(linha?.quantidade),
        valorCentavos: numero(linha?.valor),
        comPrazoAberto: numero(linha?.comPrazoAberto),
      };
    },
  };
}
export type RepositorioPainel = ReturnType<typeof criarRepositorioPainel>;
