import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/index.js';
import { createTestDatabase } from '../src/testing.js';

// LISTEN/NOTIFY through the handle, on PGlite or (TEST_DATABASE_URL) PostgreSQL.
let teste: Awaited<ReturnType<typeof createTestDatabase>>;
let banco: DatabaseHandle;

beforeAll(async () => {
  teste = await createTestDatabase();
  banco = await openDatabase({ url: teste.url, dataDir: 'memory://' });
});
afterAll(async () => {
  await banco.close();
  await teste.drop();
});

const pausa = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('listen', () => {
  it('hears a committed transaction at its commit, and never a rolled-back one', async () => {
    const ouvidos: number[] = [];
    const parar = await banco.listen('canal_teste', () => ouvidos.push(Date.now()));
    try {
      await banco.db
        .transaction(async (tx) => {
          await tx.execute(sql`select pg_notify('canal_teste', '')`);
          throw new Error('desfeita');
        })
        .catch(() => {});
      await pausa(300);
      expect(ouvidos).toEqual([]);

      let confirmadaEm = 0;
      await banco.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('canal_teste', '')`);
        await pausa(200);
        // Not yet: the transaction is still open.
        expect(ouvidos).toEqual([]);
        confirmadaEm = Date.now();
      });
      await vi.waitFor(() => expect(ouvidos).toHaveLength(1));
      expect(ouvidos[0]!).toBeGreaterThanOrEqual(confirmadaEm);

      // Another channel is not heard.
      await banco.db.execute(sql`select pg_notify('outro_canal', '')`);
      await pausa(200);
      expect(ouvidos).toHaveLength(1);
    } finally {
      await parar();
    }
    await banco.db.execute(sql`select pg_notify('canal_teste', '')`);
    await pausa(200);
    expect(ouvidos).toHaveLength(1);
  });

  it('passes each notification its payload', async () => {
    const ouvidos: (string | undefined)[] = [];
    const parar = await banco.listen('canal_com_texto', (texto) => ouvidos.push(texto));
    try {
      await banco.db.execute(sql`select pg_notify('canal_com_texto', 'workflows')`);
      await banco.db.execute(sql`select pg_notify('canal_com_texto', 'api-keys')`);
      await vi.waitFor(() => expect(ouvidos).toEqual(['workflows', 'api-keys']));
    } finally {
      await parar();
    }
  });

  it('refuses a channel that is not a plain identifier', async () => {
    await expect(banco.listen('x; drop table y', () => {})).rejects.toThrow(
      'Invalid notification channel',
    );
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: a listener whose connection is cut says so once and listens again',
    async () => {
      let ouvidos = 0;
      const semTexto: (string | undefined)[] = [];
      const parar = await banco.listen('canal_religado', (texto) => {
        if (ouvidos++ === 0) semTexto.push(texto);
      });
      try {
        await banco.db.execute(sql`
          select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and query = 'listen canal_religado'`);
        // The hint for what may have been missed while it was cut, without a payload.
        await vi.waitFor(() => expect(ouvidos).toBe(1));
        expect(semTexto).toEqual([undefined]);
        // Back within its first pause (1 s): a new notification is heard again.
        await vi.waitFor(
          async () => {
            await banco.db.execute(sql`select pg_notify('canal_religado', '')`);
            expect(ouvidos).toBeGreaterThan(1);
          },
          { timeout: 5000, interval: 250 },
        );
      } finally {
        await parar();
      }
    },
  );
});
