import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { sinoMigrations } from '../../src/index.js';
import { createJobQueue, openDatabaseQueue } from '../../src/queue/index.js';
import { queueContract } from './contract.js';
import { databaseClaims } from './database-claims.js';
import { databaseLeases } from './database-leases.js';
import { databaseUpgrade } from './database-upgrade.js';

// Background errors of the queues opened below; every test expects none.
const errors: unknown[] = [];
const onError = (error: unknown) => void errors.push(error);
afterEach(() => expect(errors.splice(0)).toEqual([]));

/** An embedded database with Sino's migrations, the queue's table among them. */
async function migrated(dataDir: string): Promise<DatabaseHandle> {
  const database = await openDatabase({ dataDir });
  await database.migrate([sinoMigrations]);
  return database;
}

// One in-memory database for the whole file: PGlite takes seconds to start on a small machine.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await migrated('memory://');
});
afterAll(() => database.close());

queueContract('database queue on PGlite', async () => ({
  open: (settings) => openDatabaseQueue({ ...settings, database, pollingIntervalMs: 50 }),
  close: async () => {},
}));

databaseClaims('PGlite', async () => database);

databaseLeases('PGlite', async () => database);

databaseUpgrade('PGlite', async () => {
  const fresh = await openDatabase({ dataDir: 'memory://' });
  return { database: fresh, close: () => fresh.close() };
});

describe('database queue on PGlite', () => {
  it('keeps a delayed job across a restart of the embedded database itself', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sino-queue-'));
    try {
      const first = await migrated(dataDir);
      const before = await openDatabaseQueue<string>({ name: 'restart', database: first, onError });
      const id = await before.enqueue('on disk', { delayMs: 300 });
      await before.stop();
      await first.close();

      const second = await migrated(dataDir);
      const after = await openDatabaseQueue<string>({
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
      `select data from sino.queue_jobs where queue = 'sino-jobs' and id = $1`,
      [id],
    );
    expect(rows).toEqual([{ data: 'in the database' }]);
    await queue.stop();
  });

  it("keeps the queue in Sino's schema: opening and using it creates nothing outside `sino`", async () => {
    const fresh = await migrated('memory://');
    try {
      const outside = async () =>
        (
          await fresh.executeSql(
            `select n.nspname || '.' || c.relname as name from pg_class c
               join pg_namespace n on n.oid = c.relnamespace
             where n.nspname not in ('sino', 'pg_catalog', 'information_schema', 'pg_toast')
             union all
             select n.nspname || '.' || p.proname from pg_proc p
               join pg_namespace n on n.oid = p.pronamespace
             where n.nspname not in ('sino', 'pg_catalog', 'information_schema')
             union all
             select nspname from pg_namespace
             where nspname not in ('sino', 'public', 'pg_catalog', 'information_schema', 'pg_toast')
             order by 1`,
          )
        ).rows;
      const before = await outside();
      const queue = await createJobQueue<string>({ name: 'sino-jobs', database: fresh, onError });
      const seen: string[] = [];
      await queue.work(async (job) => void seen.push(job.data));
      await queue.enqueue('here');
      await expect.poll(() => seen).toEqual(['here']);
      await queue.stop();
      expect(await outside()).toEqual(before);
    } finally {
      await fresh.close();
    }
  });

  it('refuses to open on a database without its table, naming the migrations', async () => {
    const bare = await openDatabase({ dataDir: 'memory://' });
    try {
      await expect(openDatabaseQueue({ name: 'bare', database: bare, onError })).rejects.toThrow(
        /sino\.queue_jobs does not exist: apply Sino's migrations/,
      );
    } finally {
      await bare.close();
    }
  });

  it('leaves no transaction open when a multi-statement text fails', async () => {
    await database.executeSql('create table t (x int)');
    await expect(
      database.executeSql('begin; insert into t values (1); select 1 / 0; commit;'),
    ).rejects.toThrow(/SQLSTATE 22012/); // division by zero
    expect(await database.executeSql('select count(*)::int as n from t')).toEqual({
      rows: [{ n: 0 }],
    });
  });
});
