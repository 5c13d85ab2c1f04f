import { desc, eq } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { avaliacoes } from '../../db/schema.js';

export type AvaliacaoRegistro = typeof avaliacoes.$inferSelect;
export type NovaAvaliacao = typeof avaliacoes.$inferInsert;

// Newest first, as the index avaliacoes_criado_em serves; the id breaks ties.
const maisRecentes = [desc(avaliacoes.criadoEm), desc(avaliacoes.id)];

export function criarRepositorioAvaliacoes(db: Database) {
  return {
    async inserir(dados: NovaAvaliacao): Promise<AvaliacaoRegistro> {
      const [criada] = await db.insert(avaliacoes).values(dados).returning();
      return criada!;
    },
    async porId(id: number): Promise<AvaliacaoRegistro | undefined> {
      const [a] = await db.select().from(avaliacoes).where(eq(avaliacoes.id, id));
      return a;
    },
    listar(filtro: { pagina: number; limite: number }): Promise<AvaliacaoRegistro[]> {
      return db
        .select()
        .from(avaliacoes)
        .orderBy(...maisRecentes)
        .limit(filtro.limite)
        .offset((filtro.pagina - 1) * filtro.limite);
    },
    /** The reviews an account wrote (LGPD export). */
    doAutor(usuarioId: number): Promise<AvaliacaoRegistro[]> {
      return db
        .select()
        .from(avaliacoes)
        .where(eq(avaliacoes.usuarioId, usuarioId))
        .orderBy(...maisRecentes);
    },
    async excluir(id: number): Promise<void> {
      await db.delete(avaliacoes).where(eq(avaliacoes.id, id));
    },
  };
}
export type RepositorioAvaliacoes = ReturnType<typeof criarRepositorioAvaliacoes>;
