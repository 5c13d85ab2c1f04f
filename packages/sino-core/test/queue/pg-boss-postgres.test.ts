import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { openPgBossQueue } from '../../src/queue/index.js';
import { queueContract } from './contract.js';
import { pgBossClaims } from './pg-boss-claims.js';

// Background errors of the queues opened below; every test expects none.
const errors: unknown[] = [];
const onError = (error: unknown) => void errors.push(error);
afterEach(() => expect(errors.splice(0)).toEqual([]));

// CI runs the suite a second time with TEST_DATABASE_URL set (see packages/db/src/testing.ts).
const server = process.env.TEST_DATABASE_URL;

describe.runIf(server)('pg-boss on PostgreSQL', () => {
  queueContract('pg-boss on PostgreSQL', async () => {
    const test = await createTestDatabase();
    const handles: DatabaseHandle[] = [];
    return {
      // A pool per instance, as each process has its own.
      async open(settings) {
        const database = await openDatabase({ url: test.url, poolMax: 4 });
        handles.push(database);
        return openPgBossQueue({ ...settings, database, pollingIntervalMs: 50 });
      },
      async close() {
        await Promise.all(handles.map((h) => h.close()));
        await test.drop();
      },
    };
  });

  describe('claims at enqueue', () => {
    let test: Awaited<ReturnType<typeof createTestDatabase>>;
    let database: DatabaseHandle;
    beforeAll(async () => {
      test = await createTestDatabase();
      database = await openDatabase({ url: test.url, poolMax: 4 });
    });
    afterAll(async () => {
      await database.close();
      await test.drop();
    });
    pgBossClaims('PostgreSQL', async () => database);
  });

  describe('raw executor', () => {
    let test: Awaited<ReturnType<typeof createTestDatabase>>;
    let database: DatabaseHandle;
    beforeAll(async () => {
      test = await createTestDatabase();
      // One connection, so the statement after the failure runs where the failure was.
      database = await openDatabase({ url: test.url, poolMax: 1 });
    });
    afterAll(async () => {
      await database.close();
      await test.drop();
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

    it('answers the rows of the last statement of a text', async () => {
      expect(await database.executeSql('select 1 as a; select 2 as b')).toEqual({
        rows: [{ b: 2 }],
      });
      expect(await database.executeSql('select $1::int + 1 as n', [41])).toEqual({
        rows: [{ n: 42 }],
      });
    });

    it('lets several processes install pg-boss at once', async () => {
      const handles = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ url: test.url, poolMax: 2 })),
      );
      try {
        const queues = await Promise.all(
          handles.map((database) =>
            openPgBossQueue<string>({
              name: 'together',
              database,
              onError,
            }),
          ),
        );
        const id = await queues[0]!.enqueue('one');
        expect(await queues[2]!.getState(id)).toBe('waiting');
        await Promise.all(queues.map((q) => q.stop()));
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    });
  });
  it('fetches and completes through plain index scans, whatever the planner would prefer', async () => {
    const test = await createTestDatabase();
    const database = await openDatabase({ url: test.url, poolMax: 2 });
    const observer = new pg.Client({ connectionString: test.url });
    try {
      const queue = await openPgBossQueue<number>({ name: 'plan', database, onError });
      await queue.enqueueMany([1, 2, 3].map((data) => ({ data })));
      // auto_explain sends the plans of the function's statement to this client.
      await observer.connect();
      const plans: string[] = [];
      observer.on('notice', (notice) => plans.push(notice.message ?? ''));
      for (const setting of [
        "load 'auto_explain'",
        'set auto_explain.log_min_duration = 0',
        'set auto_explain.log_nested_statements = on',
        'set client_min_messages = log',
        // A planner that would rather not walk an index, as after a minute of traffic, when
        // statistics promise a few waiting jobs and a bitmap scan looks cheaper (bench/README.md).
        'set enable_indexscan = off',
      ])
        await observer.query(setting);
      const { rows } = await observer.query<{ id: string }>(
        `select * from sino_queue.sino_fetch('plan', 2)`,
      );
      expect(rows).toHaveLength(2);
      const done = await observer.query<{ n: number }>(
        `select sino_queue.sino_complete('plan', $1::uuid[]) as n`,
        [rows.map((r) => r.id)],
      );
      expect(done.rows).toEqual([{ n: 2 }]);
      for (const marker of ['for update skip locked', "state = 'completed'"]) {
        const plan = plans.find((p) => p.includes(marker));
        expect(plan).toMatch(/Index Scan using \S+ on/);
        // A bitmap scan visits every dead row version at every call; a sequential scan, every
        // job the queue keeps.
        expect(plan).not.toMatch(/Bitmap|Seq Scan/);
      }
      await queue.stop();
    } finally {
      await observer.end();
      await database.close();
      await test.drop();
    }
  });
});
