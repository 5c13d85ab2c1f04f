import { sql, type SQL } from 'drizzle-orm';

export interface PedidoDeDisponibilidade {
  categoriaId: number;
  inicio: Date;
  fim: Date;
  /** Turnaround gap kept free before and after each reservation (cleaning, inspection). */
  intervaloHoras: number;
  /** A reservation being changed does not compete with itself. */
  ignorarLocacaoId?: number | undefined;
  /**
   * Lock the category's row until the transaction ends, and count after the lock is granted
   * (bookings of a category run one after the other).
   */
  travar?: boolean;
}

/**
 * Free vehicles of a category for a period: `locadora.disponibilidade` (migration 0007, decision
 * 053) counts the active vehicles, the overlapping reservations and the vehicles in maintenance
 * in one statement, reading only the rows of the asked period through the GiST indexes. With
 * `travar` it locks the category first and counts in a snapshot taken after the lock.
 */
export function consultaDeDisponibilidade(p: PedidoDeDisponibilidade): SQL {
  return sql`select frota, reservadas, em_manutencao from locadora.disponibilidade(
    ${p.categoriaId}::int, ${p.inicio.toISOString()}::timestamptz, ${p.fim.toISOString()}::timestamptz,
    ${p.intervaloHoras}::float8 * interval '1 hour', ${p.ignorarLocacaoId ?? null}::int,
    ${p.travar ?? false}::boolean)`;
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
