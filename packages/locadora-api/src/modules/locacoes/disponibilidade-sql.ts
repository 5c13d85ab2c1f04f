import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const MS_POR_HORA = 3_600_000;

export interface PedidoDeDisponibilidade {
  categoriaId: number;
  inicio: Date;
  fim: Date;
  /** Turnaround gap kept free before and after each reservation (cleaning, inspection). */
  intervaloHoras: number;
  /** A reservation being changed does not compete with itself. */
  ignorarLocacaoId?: number | undefined;
}

/**
 * Free vehicles of a category for a period, in one statement: active vehicles of the category,
 * minus its reservations (reservada, retirada) overlapping the period widened by the turnaround
 * gap, minus its vehicles blocked by maintenance during the period.
 *
 * Both overlap predicates are written exactly as the GiST index expressions
 * (`locacoes_periodo_ativo`, partial on the holding statuses, and `manutencoes_bloqueio`), so the
 * planner reads only the rows of the asked period however large the tables grow.
 */
export function consultaDeDisponibilidade(p: PedidoDeDisponibilidade): SQL {
  const gap = p.intervaloHoras * MS_POR_HORA;
  const inicio = p.inicio.toISOString();
  const fim = p.fim.toISOString();
  const inicioAmpliado = new Date(p.inicio.getTime() - gap).toISOString();
  const fimAmpliado = new Date(p.fim.getTime() + gap).toISOString();
  const outraQueNao =
    p.ignorarLocacaoId === undefined ? sql`` : sql` and l.id <> ${p.ignorarLocacaoId}`;
  return sql`select
  (select count(*)::int
     from locadora.veiculos v
     join locadora.modelos m on m.id = v.modelo_id
    where m.categoria_id = ${p.categoriaId} and v.ativo) as frota,
  (select count(*)::int
     from locadora.locacoes l
    where l.status in ('reservada', 'retirada')
      and tstzrange(l.retirada_prevista, l.entrega_prevista, '[)')
          && tstzrange(${inicioAmpliado}::timestamptz, ${fimAmpliado}::timestamptz, '[)')
      and l.categoria_id = ${p.categoriaId}${outraQueNao}) as reservadas,
  (select count(distinct mt.veiculo_id)::int
     from locadora.manutencoes mt
     join locadora.veiculos v on v.id = mt.veiculo_id
     join locadora.modelos m on m.id = v.modelo_id
    where tstzrange(mt.inicio, coalesce(mt.encerrada_em, mt.previsao_termino), '[)')
          && tstzrange(${inicio}::timestamptz, ${fim}::timestamptz, '[)')
      and m.categoria_id = ${p.categoriaId} and v.ativo) as em_manutencao`;
}

export interface Disponibilidade {
  frota: number;
  reservadas: number;
  emManutencao: number;
  livres: number;
}

export function paraDisponibilidade(linha: {
  frota: number;
  reservadas: number;
  em_manutencao: number;
}): Disponibilidade {
  const { frota, reservadas, em_manutencao: emManutencao } = linha;
  return {
    frota,
    reservadas,
    emManutencao,
    livres: Math.max(0, frota - reservadas - emManutencao),
  };
}

const dialeto = new PgDialect();

/**
 * The same statement as text and values for a plain `pg` client (the benchmark EXPLAINs it).
 */
export function sqlDaDisponibilidade(
  categoriaId: number,
  inicio: Date,
  fim: Date,
  intervaloHoras: number,
): { text: string; values: unknown[] } {
  const q = dialeto.sqlToQuery(
    consultaDeDisponibilidade({ categoriaId, inicio, fim, intervaloHoras }),
  );
  return { text: q.sql, values: q.params };
}
