import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { sinoMigrations } from '../../src/index.js';
import { openDatabaseQueue, type JobQueue } from '../../src/queue/index.js';
import { JOB_BY_ID_STATEMENTS } from '../../src/queue/database.js';
import { queueContract } from './contract.js';
import { databaseClaims } from './database-claims.js';
import { databaseLeases } from './database-leases.js';
import { databaseUpgrade } from './database-upgrade.js';

// Background errors of the queues opened below; every test expects none.
const errors: unknown[] = [];
const onError = (error: unknown) => void errors.push(error);
afterEach(() => expect(errors.splice(0)).toEqual([]));

// CI runs the suite a second time with TEST_DATABASE_URL set (see packages/db/src/testing.ts).
const server = process.env.TEST_DATABASE_URL;

/** A fresh database with Sino's migrations, and a pool per "process" opened on it. */
async function migratedDatabase() {
  const test = await createTestDatabase();
  const handles: DatabaseHandle[] = [];
  const open = async (poolMax = 4) => {
    const database = await openDatabase({ url: test.url, poolMax });
    handles.push(database);
    return database;
  };
  // migrate() holds one connection for its lock and runs the migrations on another.
  await (await open(2)).migrate([sinoMigrations]);
  return {
    url: test.url,
    open,
    async close() {
      await Promise.all(handles.map((h) => h.close()));
      await test.drop();
    },
  };
}

describe.runIf(server)('database queue on PostgreSQL', () => {
  queueContract('database queue on PostgreSQL', async () => {
    const storage = await migratedDatabase();
    return {
      // A pool per instance, as each process has its own.
      open: async (settings) =>
        openDatabaseQueue({ ...settings, database: await storage.open(), pollingIntervalMs: 50 }),
      close: () => storage.close(),
    };
  });

  describe('claims and leases', () => {
    let storage: Awaited<ReturnType<typeof migratedDatabase>>;
    beforeAll(async () => {
      storage = await migratedDatabase();
    });
    afterAll(() => storage.close());
    databaseClaims('PostgreSQL', () => storage.open());
    databaseLeases('PostgreSQL', () => storage.open());
  });

  databaseUpgrade('PostgreSQL', async () => {
    const test = await createTestDatabase();
    const database = await openDatabase({ url: test.url, poolMax: 2 });
    return {
      database,
      async close() {
        await database.close();
        await test.drop();
      },
    };
  });

  describe('several processes', () => {
    let storage: Awaited<ReturnType<typeof migratedDatabase>>;
    beforeAll(async () => {
      storage = await migratedDatabase();
    });
    afterAll(() => storage.close());

    it('share one queue: each job runs once, whichever process enqueued it', async () => {
      const queues: JobQueue<number>[] = await Promise.all(
        [1, 2, 3].map(async () =>
          openDatabaseQueue<number>({
            name: 'shared',
            database: await storage.open(),
            onError,
            pollingIntervalMs: 20,
          }),
        ),
      );
      const seen: number[] = [];
      await Promise.all(
        queues.map((q) => q.work(async (job) => void seen.push(job.data), { concurrency: 4 })),
      );
      // Each process enqueues its own share, in batches and one by one.
      await Promise.all(
        queues.map(async (q, i) => {
          await q.enqueueMany(Array.from({ length: 50 }, (_, k) => ({ data: i * 100 + k })));
          for (let k = 50; k < 60; k++) await q.enqueue(i * 100 + k);
        }),
      );
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(180);
      expect(new Set(seen).size).toBe(180);
      await Promise.all(queues.map((q) => q.stop()));
    });
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
      ).rejects.toThrow(/SQLSTATE 22012/); // division by zero
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
  });

  it('fetches, completes and keeps up through plain index scans, whatever the planner would prefer', async () => {
    const storage = await migratedDatabase();
    const database = await storage.open(2);
    const observer = new pg.Client({ connectionString: storage.url });
    try {
      const queue = await openDatabaseQueue<number>({ name: 'plan', database, onError });
      await queue.enqueueMany([1, 2, 3].map((data) => ({ data })));
      // auto_explain sends the plans of the functions' statements to this client.
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
        `select * from sino.queue_fetch('plan', 2, 10000)`,
      );
      expect(rows).toHaveLength(2);
      const done = await observer.query<{ n: number }>(
        `select sino.queue_complete('plan', $1::uuid[], 60) as n`,
        [rows.map((r) => r.id)],
      );
      expect(done.rows).toEqual([{ n: 2 }]);
      await observer.query(`select * from sino.queue_upkeep('plan', $1::uuid[], 10000, 60, 100)`, [
        rows.map((r) => r.id),
      ]);
      for (const marker of [
        'FOR UPDATE SKIP LOCKED',
        "SET state = 'completed'",
        'SET locked_until = now()',
        // The upkeep's searches for lapsed leases and for finished jobs past their retention.
        'j.locked_until < now()',
        'j.keep_until < now()',
      ]) {
        const plan = plans.find((p) => p.includes(marker));
        expect(plan, marker).toMatch(/Index (Only )?Scan using \S+ on/);
        // A bitmap scan visits every dead row version at every call; a sequential scan, every
        // job the queue keeps.
        expect(plan, marker).not.toMatch(/Bitmap|Seq Scan/);
      }
      // A completion and a renewal name their jobs: a probe of the primary key per job, not the
      // lease index (every active job and every dead version of one) nor the queue's whole
      // range of the key (decision 040).
      for (const marker of ["SET state = 'completed'", 'SET locked_until = now()'])
        expect(
          plans.find((p) => p.includes(marker)),
          marker,
        ).toMatch(
          /Index Scan using queue_jobs_queue_id_pk on[^\n]*\n\s*Index Cond: \(\(queue = [^)]*\) AND \(id = /,
        );
      await queue.stop();
    } finally {
      await observer.end();
      await storage.close();
    }
  });

  it('reaches a job named by id through the primary key, never through a partial index', async () => {
    const storage = await migratedDatabase();
    const client = new pg.Client({ connectionString: storage.url });
    try {
      await client.connect();
      // A queue after a burst on a fresh installation: finished jobs kept for their retention,
      // a few hundred active and waiting ones, and no statistics yet (autovacuum has not run;
      // it is off on CI's PostgreSQL). The partial indexes and the key's whole range of the
      // queue then look cheapest to the planner.
      await client.query(`
        insert into sino.queue_jobs (queue, id, state, retry_limit, keep_until)
        select 'plan', gen_random_uuid(), 'completed', 3, now() + interval '12 hours'
        from generate_series(1, 20000) g`);
      await client.query(`
        insert into sino.queue_jobs (queue, id, state, retry_limit, locked_until)
        select 'plan', gen_random_uuid(), case when g <= 500 then 'active' else 'waiting' end, 3,
          case when g <= 500 then now() + interval '10 seconds' end
        from generate_series(1, 1000) g`);
      const id = '00000000-0000-4000-8000-000000000001';
      const cases: [string, unknown[]][] = [
        [JOB_BY_ID_STATEMENTS.fail, ['plan', id, 'error', 60]],
        [JOB_BY_ID_STATEMENTS.handBack, ['plan', [id], true, 60]],
        [JOB_BY_ID_STATEMENTS.cancel, ['plan', id]],
      ];
      for (const [sql, params] of cases) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        // The key probed, not the queue's whole range of it filtered by id.
        expect(plan, sql).toMatch(
          /Index Scan using queue_jobs_queue_id_pk on[^\n]*\n\s*Index Cond: \(\(queue = [^)]*\) AND \(id = /,
        );
      }
      // A completion and a renewal of the 500 active jobs at once, as a busy worker sends them:
      // every statement they run probes the key (a range scan filtered by id was the cost
      // model's choice for a few hundred ids, 60 ms a call under a backlog).
      const plans: string[] = [];
      client.on('notice', (notice) => plans.push(notice.message ?? ''));
      for (const setting of [
        "load 'auto_explain'",
        'set auto_explain.log_min_duration = 0',
        'set auto_explain.log_nested_statements = on',
        'set client_min_messages = log',
      ])
        await client.query(setting);
      const active = await client.query<{ id: string }>(
        `select id from sino.queue_jobs where queue = 'plan' and state = 'active'`,
      );
      const ids = active.rows.map((r) => r.id);
      await client.query(`select * from sino.queue_upkeep('plan', $1::uuid[], 10000, 60, 100)`, [
        ids,
      ]);
      const done = await client.query<{ n: number }>(
        `select sino.queue_complete('plan', $1::uuid[], 60) as n`,
        [ids],
      );
      expect(done.rows).toEqual([{ n: 500 }]);
      // And a fetch of due jobs, each taken by its key (as a join, the update read the queue's
      // whole key range once the table held other queues' rows).
      await client.query(`
        insert into sino.queue_jobs (queue, id, state, retry_limit)
        select 'other', gen_random_uuid(), 'waiting', 3 from generate_series(1, 20000) g`);
      const fetched = await client.query(`select * from sino.queue_fetch('plan', 64, 10000)`);
      expect(fetched.rows).toHaveLength(64);
      const byId = plans.filter(
        (p) =>
          p.includes("SET state = 'completed'") ||
          p.includes('SET locked_until = now()') ||
          p.includes("SET state = 'active'"),
      );
      expect(plans.some((p) => p.includes("SET state = 'active'"))).toBe(true);
      expect(byId.length).toBeGreaterThan(0);
      for (const plan of byId)
        expect(plan).toMatch(
          /Index Scan using queue_jobs_queue_id_pk on[^\n]*\n\s*Index Cond: \(\(queue = [^)]*\) AND \(id = /,
        );
    } finally {
      await client.end();
      await storage.close();
    }
  });
});
