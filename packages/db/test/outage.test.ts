import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, openDatabase, type DatabaseHandle } from '../src/index.js';
import { createTestDatabase, startTcpProxy, type TcpProxy } from '../src/testing.js';

// A PostgreSQL server that hangs or goes away, played by a proxy between the pool and the
// server of TEST_DATABASE_URL: every statement fails within the timeouts with an error the
// API answers as 503, nothing crashes, and the same handle works again once the server is back.

const servidor = process.env.TEST_DATABASE_URL;
if (!servidor) console.info('outage.test.ts: skipped, it needs TEST_DATABASE_URL (PostgreSQL)');

const PRAZO_MS = 800;
/** Connect timeout plus statement timeout, and room for a busy machine. */
const LIMITE_MS = 2 * PRAZO_MS + 1000;

describe.runIf(servidor)('PostgreSQL that stalls or refuses', () => {
  let teste: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let banco: DatabaseHandle;

  beforeAll(async () => {
    teste = await createTestDatabase();
    const alvo = new URL(teste.url!);
    proxy = await startTcpProxy({ host: alvo.hostname, port: Number(alvo.port || 5432) });
    banco = await openDatabase({
      url: proxy.urlFor(teste.url!),
      poolMax: 3,
      connectTimeoutMs: PRAZO_MS,
      statementTimeoutMs: PRAZO_MS,
    });
    await banco.db.execute(sql`create table conta (id int primary key, saldo int not null)`);
    await banco.db.execute(sql`insert into conta values (1, 0)`);
  });
  afterAll(async () => {
    await banco?.close();
    await proxy?.close();
    await teste?.drop();
  });

  /** The failure of `trabalho`, and how long it took to come. */
  async function falha(trabalho: () => Promise<unknown>): Promise<{ erro: unknown; ms: number }> {
    const inicio = performance.now();
    const erro = await trabalho().then(
      () => new Error('it succeeded'),
      (e: unknown) => e,
    );
    return { erro, ms: performance.now() - inicio };
  }

  const saldo = async () =>
    (
      (await banco.db.execute(sql`select saldo from conta where id = 1`)) as unknown as {
        rows: { saldo: number }[];
      }
    ).rows[0]!.saldo;
  const somar = () =>
    banco.db.transaction(async (tx) => {
      await tx.execute(sql`update conta set saldo = saldo + 1 where id = 1`);
      await tx.execute(sql`select pg_sleep(0.05)`);
    });

  it('stalled: statements, transactions and new connections fail within the timeouts', async () => {
    // Three connections in the pool, all of them idle when the server stalls.
    await Promise.all([somar(), somar(), somar()]);
    expect(await saldo()).toBe(3);
    proxy.stall();
    // Every pooled connection held in a stalled BEGIN, then more work than the pool has
    // connections: it waits for a free one, or for a new one that never answers.
    const falhas = await Promise.all([
      falha(somar),
      falha(somar),
      falha(somar),
      falha(saldo),
      falha(() => banco.executeSql('select 1; select 2')),
    ]);
    for (const { erro, ms } of falhas) {
      expect(isDatabaseUnavailable(erro), String(erro)).toBe(true);
      expect(ms).toBeLessThan(LIMITE_MS);
    }
    expect(await banco.ping()).toBe(false);
    await proxy.resume();
    // Without a new handle, and at once.
    const inicio = performance.now();
    await saldo();
    expect(performance.now() - inicio).toBeLessThan(200);
    // No connection was lost to the failed transactions: the pool has all three again.
    await Promise.all([somar(), somar(), somar()]);
    // The stalled transactions never committed; those before the stall did, and these.
    await expect(saldo()).resolves.toBe(6);
  });

  it('refused: every statement fails at once, connections cut mid-transaction included', async () => {
    const emCurso = banco.db.transaction(async (tx) => {
      await tx.execute(sql`update conta set saldo = saldo + 100 where id = 1`);
      await tx.execute(sql`select pg_sleep(2)`);
    });
    await new Promise((r) => setTimeout(r, 100));
    await proxy.refuse();
    const cortada = await emCurso.then(
      () => new Error('it committed'),
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(cortada), String(cortada)).toBe(true);
    for (const { erro, ms } of await Promise.all([falha(saldo), falha(somar)])) {
      expect(isDatabaseUnavailable(erro), String(erro)).toBe(true);
      expect(ms).toBeLessThan(500);
    }
    await proxy.resume();
    await somar();
    await expect(saldo()).resolves.toBe(7);
  });

  it('tells an outage from a statement the server refused', async () => {
    const recusada = await banco.db.execute(sql`select * from nao_existe`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(recusada)).toBe(false);
    const cancelada = await banco.db
      .execute(sql`select pg_sleep(5)`)
      .catch((e: unknown) => e as Error);
    // The server's statement_timeout (57014), or the client's own wait, whichever came first.
    expect(isDatabaseUnavailable(cancelada), String(cancelada)).toBe(true);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
