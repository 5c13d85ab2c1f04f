import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/index.js';
import { createTestDatabase } from '../src/testing.js';

const dormir = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs three holders of one key at once, each through its own handle (processes sharing
 * PostgreSQL) or through one (PGlite's one connection): their turns never overlap, and a
 * holder that fails lets the next one in.
 */
async function turnos(handles: DatabaseHandle[]): Promise<string[]> {
  const diario: string[] = [];
  let dentro = 0;
  const resultados = await Promise.allSettled(
    handles.map((h, i) =>
      h.exclusive(727_101, async () => {
        dentro++;
        diario.push(`entra ${dentro}`);
        await dormir(60);
        dentro--;
        if (i === 0) throw new Error('falha do primeiro');
        return i;
      }),
    ),
  );
  expect(resultados.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
  return diario;
}

describe('exclusive: one holder at a time', () => {
  it('on PGlite, callers of one handle take turns, and a failure does not block the next', async () => {
    const banco = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await turnos([banco, banco, banco])).toEqual(['entra 1', 'entra 1', 'entra 1']);
      // Another key is not held up by this one.
      let outra = false;
      await banco.exclusive(1, async () => {
        await banco.exclusive(2, async () => {
          outra = true;
        });
      });
      expect(outra).toBe(true);
    } finally {
      await banco.close();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, three pools (three processes) take turns through an advisory lock',
    async () => {
      const teste = await createTestDatabase();
      const bancos = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ url: teste.url, poolMax: 2 })),
      );
      try {
        expect(await turnos(bancos)).toEqual(['entra 1', 'entra 1', 'entra 1']);
      } finally {
        await Promise.all(bancos.map((b) => b.close()));
        await teste.drop();
      }
    },
  );
});
