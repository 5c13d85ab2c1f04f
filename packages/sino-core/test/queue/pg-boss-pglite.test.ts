import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createJobQueue, openPgBossQueue, PG_BOSS_SCHEMA } from '../../src/queue/index.js';
import { queueContract } from './contract.js';
import { pgBossClaims } from './pg-boss-claims.js';

// Background errors of the queues opened below; every test expects none.
const errors: unknown[] = [];
const onError = (error: unknown) => void errors.push(error);
afterEach(() => expect(errors.splice(0)).toEqual([]));

// One in-memory database for the whole file: PGlite takes seconds to start on a small machine.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => database.close());

queueContract('pg-boss on PGlite', async () => ({
  open: (settings) => openPgBossQueue({ ...settings, database, pollingIntervalMs: 50 }),
  close: async () => {},
}));

pgBossClaims('PGlite', async () => database);

describe('pg-boss on PGlite', () => {
  it('keeps a delayed job across a restart of the embedded database itself', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sino-queue-'));
    try {
      const first = await openDatabase({ dataDir });
      const before = await openPgBossQueue<string>({ name: 'restart', database: first, onError });
      const id = await before.enqueue('on disk', { delayMs: 300 });
      await before.stop();
      await first.close();

      const second = await openDatabase({ dataDir });
      const after = await openPgBossQueue<string>({
        name: 'restart',
        database: second,
        onError,
        pollingIntervalMs: 50,
      });
      const seen: string[] = [];
      await after.work(async (job) => void seen.push(`${job.id} ${job.data}`));
      await expect.poll(() => seen, { timeout: 3000 }).toEqual([`${id} on disk`]);
      await after.stop();
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is what the factory opens without a Redis URL', async () => {
    const queue = await createJobQueue<string>({
      name: 'sino-jobs',
      database,
      redisUrl: undefined,
      onError,
    });
    const id = await queue.enqueue('in the database');
    const { rows } = await database.executeSql(
      `select data from ${PG_BOSS_SCHEMA}.job where name = 'sino-jobs' and id = $1`,
      [id],
    );
    expect(rows).toEqual([{ data: 'in the database' }]);
    await queue.stop();
  });

  it('leaves no transaction open when a multi-statement text fails', async () => {
    await database.executeSql('create table t (x int)');
    await expect(
      database.executeSql('begin; insert into t values (1); select 1 / 0; commit;'),
    ).rejects.toThrow(/division by zero/);
    expect(await database.executeSql('select count(*)::int as n from t')).toEqual({
      rows: [{ n: 0 }],
    });
  });
});
