import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { manutencoes, veiculos, vistorias } from '../../db/schema.js';

export type ManutencaoRegistro = typeof manutencoes.$inferSelect;
export type NovaManutencao = typeof manutencoes.$inferInsert;
export type ManutencaoDetalhada = ManutencaoRegistro & { placa: string };

export interface FiltroManutencoes {
  veiculoId?: number | undefined;
  /** true: not closed yet; false: closed; absent: both. */
  abertas?: boolean | undefined;
  pagina: number;
  limite: number;
}

export function criarRepositorioManutencoes(db: Database) {
  const comPlaca = () =>
    db
      .select({ manutencao: manutencoes, placa: veiculos.placa })
      .from(manutencoes)
      .innerJoin(veiculos, eq(veiculos.id, manutencoes.veiculoId));

  const achatar = (linha: {
    manutencao: ManutencaoRegistro;
    placa: string;
  }): ManutencaoDetalhada => ({ ...linha.manutencao, placa: linha.placa });

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
    async vistoria(id: number) {
      const [v] = await db
        .select({ id: vistorias.id, veiculoId: vistorias.veiculoId })
        .from(vistorias)
        .where(eq(vistorias.id, id))
        .for('key share');
      return v;
    },

    async inserir(dados: NovaManutencao): Promise<ManutencaoRegistro> {
      const [criada] = await db.insert(manutencoes).values(dados).returning();
      return criada!;
    },
    async detalhada(id: number): Promise<ManutencaoDetalhada | undefined> {
      const [linha] = await comPlaca().where(eq(manutencoes.id, id));
      return linha && achatar(linha);
    },
    async porId(id: number): Promise<ManutencaoRegistro | undefined> {
      const [m] = await db.select().from(manutencoes).where(eq(manutencoes.id, id));
      return m;
    },
    /** Reads and locks the row: an update and a closing of one order run one after the other. */
    async porIdParaAlterar(id: number): Promise<ManutencaoRegistro | undefined> {
      const [m] = await db.select().from(manutencoes).where(eq(manutencoes.id, id)).for('update');
      return m;
    },
    /** Newest first: by start, then by id. */
    async listar(filtro: FiltroManutencoes): Promise<ManutencaoDetalhada[]> {
      const linhas = await comPlaca()
        .where(
          and(
            filtro.veiculoId === undefined
              ? undefined
              : eq(manutencoes.veiculoId, filtro.veiculoId),
            filtro.abertas === undefined
              ? undefined
              : filtro.abertas
                ? isNull(manutencoes.encerradaEm)
                : isNotNull(manutencoes.encerradaEm),
          ),
        )
        .orderBy(desc(manutencoes.inicio), desc(manutencoes.id))
        .limit(filtro.limite)
        .offset((filtro.pagina - 1) * filtro.limite);
      return linhas.map(achatar);
    },
    async atualizar(id: number, dados: Partial<NovaManutencao>): Promise<boolean> {
      const alteradas = await db
        .update(manutencoes)
        .set(dados)
        .where(eq(manutencoes.id, id))
        .returning({ id: manutencoes.id });
      return alteradas.length === 1;
    },
    async encerrar(id: number, encerradaEm: Date): Promise<void> {
      await db.update(manutencoes).set({ encerradaEm }).where(eq(manutencoes.id, id));
    },
    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(manutencoes)
        .where(eq(manutencoes.id, id))
        .returning({ id: manutencoes.id });
      return apagadas.length === 1;
    },
  };
}
export type RepositorioManutencoes = ReturnType<typeof criarRepositorioManutencoes>;
