import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { locacoes, manutencoes, veiculos, vistorias } from '../../db/schema.js';

export type VistoriaRegistro = typeof vistorias.$inferSelect;
export type NovaVistoria = typeof vistorias.$inferInsert;

/** An inspection with what its answer shows besides its own columns. */
export type VistoriaDetalhada = VistoriaRegistro & {
  placa: string;
  /** The maintenance order linked to the inspection (the first one, if several were). */
  idManutencao: number | null;
};

export function criarRepositorioVistorias(db: Database) {
  const comDetalhes = () =>
    db
      .select({
        vistoria: vistorias,
        placa: veiculos.placa,
        idManutencao: sql<number | null>`(
          select min(${manutencoes.id}) from ${manutencoes}
          where ${manutencoes.vistoriaId} = ${vistorias.id}
        )`.mapWith((v: unknown) => (v === null ? null : Number(v))),
      })
      .from(vistorias)
      .innerJoin(veiculos, eq(veiculos.id, vistorias.veiculoId));

  const achatar = (linha: {
    vistoria: VistoriaRegistro;
    placa: string;
    idManutencao: number | null;
  }): VistoriaDetalhada => ({
    ...linha.vistoria,
    placa: linha.placa,
    idManutencao: linha.idManutencao,
  });

  // Lookups that a write depends on lock the row (for key share) until the transaction ends, so a
  // concurrent delete cannot slip in between the check and the insert.
  return {
    async veiculo(id: number) {
      const [v] = await db
        .select({ id: veiculos.id, placa: veiculos.placa })
        .from(veiculos)
        .where(eq(veiculos.id, id))
        .for('key share');
      return v;
    },
    async locacao(id: number) {
      const [l] = await db
        .select({ id: locacoes.id, veiculoId: locacoes.veiculoId })
        .from(locacoes)
        .where(eq(locacoes.id, id))
        .for('key share');
      return l;
    },

    /** The vehicle's newest inspections (index vistorias_veiculo_data). */
    async listarPorVeiculo(veiculoId: number, limite: number): Promise<VistoriaDetalhada[]> {
      const linhas = await comDetalhes()
        .where(eq(vistorias.veiculoId, veiculoId))
        .orderBy(desc(vistorias.realizadaEm), desc(vistorias.id))
        .limit(limite);
      return linhas.map(achatar);
    },
    async detalhada(id: number): Promise<VistoriaDetalhada | undefined> {
      const [linha] = await comDetalhes().where(eq(vistorias.id, id));
      return linha && achatar(linha);
    },
    /** Reads and locks the row: concurrent updates of one inspection run one after the other. */
    async porIdParaAlterar(id: number): Promise<VistoriaRegistro | undefined> {
      const [v] = await db.select().from(vistorias).where(eq(vistorias.id, id)).for('update');
      return v;
    },
    async inserir(dados: NovaVistoria): Promise<VistoriaRegistro> {
      const [criada] = await db.insert(vistorias).values(dados).returning();
      return criada!;
    },
    async atualizar(id: number, dados: Partial<NovaVistoria>): Promise<void> {
      await db.update(vistorias).set(dados).where(eq(vistorias.id, id));
    },
    /** Deletes exactly that row; its maintenance orders stay (vistoria_id set null by the FK). */
    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(vistorias)
        .where(eq(vistorias.id, id))
        .returning({ id: vistorias.id });
      return apagadas.length === 1;
    },
    async ordemVinculada(vistoriaId: number): Promise<number | undefined> {
      const [m] = await db
        .select({ id: manutencoes.id })
        .from(manutencoes)
        .where(eq(manutencoes.vistoriaId, vistoriaId))
        .orderBy(manutencoes.id)
        .limit(1);
      return m?.id;
    },
  };
}
export type RepositorioVistorias = ReturnType<typeof criarRepositorioVistorias>;
