import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@locadora/db';
import { sinoMigrations } from '../../src/index.js';
import { dedupeJobId } from '../../src/queue/options.js';
import { openDatabaseQueue, type QueueJob } from '../../src/queue/index.js';

const PG_BOSS_10_SCHEMA = readFileSync(new URL('./pg-boss-10-schema.sql', import.meta.url), 'utf8');

// Ids of the jobs a deployment still had in pg-boss when it upgraded.
const WAITING = '00000000-0000-4000-8000-000000000001';
const DELAYED = '00000000-0000-4000-8000-000000000002';
const RETRYING = '00000000-0000-4000-8000-000000000003';
const ACTIVE = '00000000-0000-4000-8000-000000000004';
const COMPLETED = '00000000-0000-4000-8000-000000000005';
const OTHER_QUEUE = '00000000-0000-4000-8000-000000000006';
const DEDUPED = dedupeJobId('step:upgraded:now');

/**
 * Migration 0002 on a database where pg-boss 10 kept Sino's queue (decision 016). `fresh`
 * answers a new database on which no migration has run.
 */
export function databaseUpgrade(
  label: string,
  fresh: () => Promise<{ database: DatabaseHandle; close(): Promise<void> }>,
): void {
  describe(`upgrade from pg-boss: ${label}`, () => {
    it("copies the jobs pg-boss still had to run, once, and leaves pg-boss's tables as they were", async () => {
      const { database, close } = await fresh();
      try {
        await database.executeSql(PG_BOSS_10_SCHEMA);
        await database.executeSql(`
          select sino_queue.create_queue('sino-jobs', '{"policy": "standard"}');
          select sino_queue.create_queue('elsewhere', '{"policy": "standard"}');`);
        // As pg-boss left them: a job due, a digest days out, one waiting for its third attempt
        // (two failed), one running in a process of the old version, one done.
        await database.executeSql(`
          insert into sino_queue.job (id, name, data, state, retry_limit, retry_count,
            retry_delay, retry_backoff, start_after, started_on, created_on, completed_on, policy)
          values
            ('${WAITING}', 'sino-jobs', '{"kind": "trigger", "n": 1}', 'created', 3, 0, 1, true,
              now() - interval '1 minute', null, now() - interval '1 minute', null, 'standard'),
            ('${DELAYED}', 'sino-jobs', '{"kind": "step", "jobId": "digest"}', 'created', 3, 0, 1,
              true, now() + interval '3 days', null, now() - interval '1 hour', null, 'standard'),
            ('${RETRYING}', 'sino-jobs', '"retrying"', 'retry', 3, 1, 2, false,
              now() - interval '1 second', now() - interval '5 seconds', now() - interval '1 minute',
              null, 'standard'),
            ('${ACTIVE}', 'sino-jobs', '"interrupted"', 'active', 3, 0, 1, true,
              now() - interval '2 minutes', now() - interval '1 minute', now() - interval '2 minutes',
              null, 'standard'),
            ('${COMPLETED}', 'sino-jobs', '"done"', 'completed', 3, 0, 1, true,
              now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour',
              now() - interval '59 minutes', 'standard'),
            ('${DEDUPED}', 'sino-jobs', '"deduped"', 'created', 3, 0, 1, true,
              now() + interval '1 day', null, now(), null, 'standard'),
            ('${OTHER_QUEUE}', 'elsewhere', '"elsewhere"', 'created', 0, 0, 0, false,
              now(), null, now(), null, 'standard')`);
        const pgBossRows = `select id, state::text, start_after, started_on, retry_count
          from sino_queue.job order by id`;
        const before = await database.executeSql(pgBossRows);

        await database.migrate([sinoMigrations]);

        const { rows: copied } = await database.executeSql(
          `select c.id::text, c.queue, c.data, c.state, c.attempts, c.retry_limit,
             c.backoff_ms::int, c.backoff_exponential, c.start_after = j.start_after as same_due_time
           from sino.queue_jobs c join sino_queue.job j on j.name = c.queue and j.id = c.id
           where c.id <> $1
           order by c.id`,
          [DEDUPED],
        );
        expect(copied).toEqual([
          {
            id: WAITING,
            queue: 'sino-jobs',
            data: { kind: 'trigger', n: 1 },
            state: 'waiting',
            attempts: 0,
            retry_limit: 3,
            backoff_ms: 1000,
            backoff_exponential: true,
            same_due_time: true,
          },
          expect.objectContaining({ id: DELAYED, attempts: 0, same_due_time: true }),
          expect.objectContaining({ id: RETRYING, attempts: 2, backoff_ms: 2000 }),
          // Its interrupted attempt is not counted: the upgrade interrupted it.
          expect.objectContaining({ id: ACTIVE, state: 'waiting', attempts: 0 }),
          expect.objectContaining({ id: OTHER_QUEUE, queue: 'elsewhere' }),
        ]);
        const dedupedRow = await database.executeSql(
          `select count(*)::int as n from sino.queue_jobs where id = $1`,
          [DEDUPED],
        );
        expect(dedupedRow.rows).toEqual([{ n: 1 }]);

        const errors: unknown[] = [];
        const queue = await openDatabaseQueue<unknown>({
          name: 'sino-jobs',
          database,
          pollingIntervalMs: 50,
          onError: (e) => errors.push(e),
        });
        expect(await queue.getState(DELAYED)).toBe('delayed');
        expect(await queue.getState(COMPLETED)).toBeNull();
        // A dedupe key pg-boss held is still held.
        expect(await queue.enqueue('again', { dedupeKey: 'step:upgraded:now' })).toBe(DEDUPED);
        const seen: QueueJob<unknown>[] = [];
        await queue.work(async (job) => void seen.push(job), { concurrency: 4 });
        await expect.poll(() => seen.length).toBe(3);
        expect(seen.map((j) => [j.id, j.data, j.attempt, j.maxAttempts]).sort()).toEqual(
          [
            [WAITING, { kind: 'trigger', n: 1 }, 1, 4],
            [RETRYING, 'retrying', 3, 4],
            [ACTIVE, 'interrupted', 1, 4],
          ].sort(),
        );
        await expect.poll(() => queue.getState(ACTIVE)).toBe('completed');
        await queue.stop();
        expect(errors).toEqual([]);

        // Read only: pg-boss's rows are as they were.
        expect(await database.executeSql(pgBossRows)).toEqual(before);
      } finally {
        await close();
      }
    });
  });
}
