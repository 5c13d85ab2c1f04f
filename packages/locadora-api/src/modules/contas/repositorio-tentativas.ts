import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { tentativasDeLogin as t } from '../../db/schema.js';

/** One key's count as it stood right after an attempt was counted. */
export interface JanelaDeTentativas {
  falhas: number;
  /** Identifies the window: a count taken back must be taken from the window that counted it. */
  inicio: Date;
  fim: Date;
}

/** SQL of the login throttle's counters (the rules are in limitador.ts). */
export function criarRepositorioTentativas(db: Database) {
  return {
    /**
     * Counts one attempt against `chave` in one statement, so concurrent attempts each see a
     * different count: a new window (ending at `fimDoBloqueio`) when the last one has ended;
     * the attempt that reaches `maximo` moves the window's end to `fimDoBloqueio`, the block.
     */
    async contar(
      chave: string,
      agora: Date,
      fimDoBloqueio: Date,
      maximo: number,
    ): Promise<JanelaDeTentativas> {
      const instante = sql`${agora.toISOString()}::timestamptz`;
      const bloqueio = sql`${fimDoBloqueio.toISOString()}::timestamptz`;
      const encerrada = sql`${t.janelaFim} <= ${instante}`;
      const [linha] = await db
        .insert(t)
        .values({ chave, falhas: 1, janelaInicio: agora, janelaFim: fimDoBloqueio })
        .onConflictDoUpdate({
          target: t.chave,
          set: {
            falhas: sql`case when ${encerrada} then 1 else ${t.falhas} + 1 end`,
            janelaInicio: sql`case when ${encerrada} then ${instante} else ${t.janelaInicio} end`,
            janelaFim: sql`case when ${encerrada} or ${t.falhas} + 1 = ${maximo}::int then ${bloqueio} else ${t.janelaFim} end`,
          },
        })
        .returning({ falhas: t.falhas, inicio: t.janelaInicio, fim: t.janelaFim });
      return linha!;
    },

    /** Takes back an attempt that checked no password, if its window is still the current one. */
    async descontar(chave: string, inicio: Date): Promise<void> {
      await db
        .update(t)
        .set({ falhas: sql`${t.falhas} - 1` })
        .where(and(eq(t.chave, chave), eq(t.janelaInicio, inicio), gt(t.falhas, 0)));
    },

    async apagar(chave: string): Promise<void> {
      await db.delete(t).where(eq(t.chave, chave));
    },

    /** Removes up to `quantas` rows whose window has ended, skipping rows another login holds. */
    async apagarEncerradas(agora: Date, quantas: number): Promise<void> {
      const encerradas = db
        .select({ chave: t.chave })
        .from(t)
        .where(lte(t.janelaFim, agora))
        .limit(quantas)
        .for('update', { skipLocked: true });
      await db.delete(t).where(inArray(t.chave, encerradas));
    },
  };
}
export type RepositorioTentativas = ReturnType<typeof criarRepositorioTentativas>;
