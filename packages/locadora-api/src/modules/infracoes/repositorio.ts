import { sql, and, desc, eq, gte, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { infracoes, locacoes, veiculos } from '../../db/schema.js';

export type NovaInfracao = typeof infracoes.$inferInsert;

/** A fine with its vehicle's plate and the customer of its contract, if any. */
export interface InfracaoDetalhada {
  id: number;
  veiculoId: number;
  placa: string;
  locacaoId: number | null;
  ocorridaEm: Date;
  descricao: string;
  valorCentavos: number;
  local: string;
  prazoIndicacao: string;
  criadoEm: Date;
}

const colunas = {
  id: infracoes.id,
  veiculoId: infracoes.veiculoId,
  placa: veiculos.placa,
  locacaoId: infracoes.locacaoId,
  ocorridaEm: infracoes.ocorridaEm,
  descricao: infracoes.descricao,
  valorCentavos: infracoes.valorCentavos,
  local: infracoes.local,
  prazoIndicacao: infracoes.prazoIndicacao,
  criadoEm: infracoes.criadoEm,
};

export function criarRepositorioInfracoes(db: Database) {
  function detalhadas(filtro: SQL | undefined) {
    return db
      .select(colunas)
      .from(infracoes)
      .innerJoin(veiculos, eq(veiculos.id, infracoes.veiculoId))
      .leftJoin(locacoes, eq(locacoes.id, infracoes.locacaoId))
      .where(filtro)
      .orderBy(desc(infracoes.ocorridaEm), desc(infracoes.id));
  }

  return {
    async veiculoPorPlaca(placa: string) {
      const [v] = await db
        .select({ id: veiculos.id, placa: veiculos.placa })
        .from(veiculos)
        .where(eq(veiculos.placa, placa));
      return v;
    },

    /**
     * The contract that had the vehicle at that moment: picked up at or before it and not yet
     * returned, or returned at or after it. When a return and the next pickup share the very
     * instant, the later pickup wins.
     */
    async contratoNoMomento(veiculoId: number, momento: Date): Promise<number | undefined> {
      const [l] = await db
        .select({ id: locacoes.id })
        .from(locacoes)
        .where(
          and(
            eq(locacoes.veiculoId, veiculoId),
            inArray(locacoes.status, ['retirada', 'devolvida']),
            // Fines are written to the minute and pickups to the millisecond: a fine in the
            // pickup's own minute belongs to that contract.
            lte(sql`date_trunc('minute', ${locacoes.retiradaEm})`, momento),
            or(isNull(locacoes.devolvidaEm), gte(locacoes.devolvidaEm, momento)),
          ),
        )
        .orderBy(desc(locacoes.retiradaEm), desc(locacoes.id))
        .limit(1);
      return l?.id;
    },

    async locacao(id: number) {
      const [l] = await db
        .select({ id: locacoes.id, usuarioId: locacoes.usuarioId })
        .from(locacoes)
        .where(eq(locacoes.id, id));
      return l;
    },

    async jaRegistrada(veiculoId: number, ocorridaEm: Date, descricao: string): Promise<boolean> {
      const [i] = await db
        .select({ id: infracoes.id })
        .from(infracoes)
        .where(
          and(
            eq(infracoes.veiculoId, veiculoId),
            eq(infracoes.ocorridaEm, ocorridaEm),
            eq(infracoes.descricao, descricao),
          ),
        )
        .limit(1);
      return Boolean(i);
    },

    async inserir(dados: NovaInfracao): Promise<number> {
      const [criada] = await db.insert(infracoes).values(dados).returning({ id: infracoes.id });
      return criada!.id;
    },

    async porId(id: number): Promise<InfracaoDetalhada | undefined> {
      const [i] = await detalhadas(eq(infracoes.id, id));
      return i;
    },

    daLocacao: (locacaoId: number): Promise<InfracaoDetalhada[]> =>
      detalhadas(eq(infracoes.locacaoId, locacaoId)),

    /** Every fine of the customer's contracts, newest first (LGPD export). */
    doCliente: (usuarioId: number): Promise<InfracaoDetalhada[]> =>
      detalhadas(eq(locacoes.usuarioId, usuarioId)),

    listar(filtro: {
      usuarioId?: number | undefined;
      placa?: string | undefined;
      pagina: number;
      limite: number;
    }): Promise<InfracaoDetalhada[]> {
      return detalhadas(
        and(
          filtro.usuarioId === undefined ? undefined : eq(locacoes.usuarioId, filtro.usuarioId),
          filtro.placa === undefined ? undefined : eq(veiculos.placa, filtro.placa),
        ),
      )
        .limit(filtro.limite)
        .offset((filtro.pagina - 1) * filtro.limite);
    },

    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(infracoes)
        .where(eq(infracoes.id, id))
        .returning({ id: infracoes.id });
      return apagadas.length > 0;
    },
  };
}
export type RepositorioInfracoes = ReturnType<typeof criarRepositorioInfracoes>;
