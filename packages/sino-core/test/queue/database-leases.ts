import { beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@locadora/db';
import { openDatabaseQueue, type QueueJob, type RetryPolicy } from '../../src/queue/index.js';

type Executor = Pick<DatabaseHandle, 'executeSql'>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Short, so that a lapse shows within a test; renewed every 200 ms. */
const LEASE_MS = 1000;
const RETRY: RetryPolicy = { retryLimit: 2, backoff: { type: 'fixed', delayMs: 0 } };

/**
 * The database queue only (decision 016): a consumer holds a job under a lease it renews; a job
 * whose process died (no renewal reaches the database) is taken again by another consumer once
 * the lease lapsed, as its next attempt. `database` answers a fresh executor on the backend's
 * storage for each call, as each process has its own.
 */
export function databaseLeases(label: string, database: () => Promise<Executor>): void {
  describe(`database queue leases: ${label}`, () => {
    let queues = 0;
    let name = '';
    beforeEach(() => {
      name = `leases-${++queues}-${Date.now()}`;
    });

    /**
     * An instance in a "process" that can be killed: from `kill()` on, none of its statements
     * reaches the database, as after a kill -9. A killed instance is never stopped.
     */
    async function open<T>(retry: RetryPolicy = RETRY) {
      const executor = await database();
      let dead = false;
      const errors: unknown[] = [];
      const queue = await openDatabaseQueue<T>({
        name,
        database: {
          executeSql: (text, values) =>
            dead ? new Promise(() => {}) : executor.executeSql(text, values),
        },
        onError: (e) => errors.push(e),
        pollingIntervalMs: 50,
        leaseMs: LEASE_MS,
        retry,
      });
      const seen: QueueJob<T>[] = [];
      const work = (handle: (job: QueueJob<T>) => Promise<void> = async () => {}) =>
        queue.work(
          async (job) => {
            seen.push(job);
            await handle(job);
          },
          { concurrency: 2 },
        );
      return { queue, errors, seen, work, executor, kill: () => void (dead = true) };
    }

    it('takes the jobs of a dead process again once their lease lapsed, as their next attempt', async () => {
      const first = await open<string>();
      await first.work(() => new Promise(() => {}));
      const producer = await open<string>();
      // One claimed at its enqueue by the consumer's own instance, one fetched.
      await sleep(100);
      const claimed = await first.queue.enqueue('claimed');
      const fetched = await producer.queue.enqueue('fetched');
      await expect.poll(() => first.seen.length).toBe(2);
      first.kill();
      const killedAt = Date.now();

      const second = await open<string>();
      await second.work();
      await expect.poll(() => second.seen.length, { timeout: 5000 }).toBe(2);
      // The lease, then the next upkeep of a live consumer and its fetch.
      expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 3);
      expect(second.seen.map((j) => [j.id, j.data, j.attempt, j.maxAttempts]).sort()).toEqual(
        [
          [claimed, 'claimed', 2, 3],
          [fetched, 'fetched', 2, 3],
        ].sort(),
      );
      await expect.poll(() => second.queue.getState(claimed)).toBe('completed');
      await expect.poll(() => second.queue.getState(fetched)).toBe('completed');
      await Promise.all([second.queue.stop(), producer.queue.stop()]);
      expect([...first.errors, ...second.errors, ...producer.errors]).toEqual([]);
    });

    it('renews the lease while its process lives: a long handler is not run twice', async () => {
      const first = await open<string>();
      await first.work(() => sleep(LEASE_MS * 3));
      await sleep(100);
      const id = await first.queue.enqueue('long');
      await expect.poll(() => first.seen.length).toBe(1);
      const second = await open<string>();
      await second.work();

      await expect.poll(() => first.queue.getState(id), { timeout: 5000 }).toBe('completed');
      await sleep(LEASE_MS);
      expect(second.seen).toEqual([]);
      expect(first.seen).toHaveLength(1);
      await Promise.all([first.queue.stop(), second.queue.stop()]);
      expect([...first.errors, ...second.errors]).toEqual([]);
    });

    it('ends a job failed when its lease lapses on its last attempt', async () => {
      const last: RetryPolicy = { retryLimit: 0, backoff: { type: 'fixed', delayMs: 0 } };
      const first = await open<string>(last);
      await first.work(() => new Promise(() => {}));
      await sleep(100);
      const id = await first.queue.enqueue('poison');
      await expect.poll(() => first.seen.length).toBe(1);
      first.kill();

      const second = await open<string>(last);
      await second.work();
      await expect.poll(() => second.queue.getState(id), { timeout: 5000 }).toBe('failed');
      await sleep(200);
      expect(second.seen).toEqual([]);
      await second.queue.stop();
      expect(second.errors).toEqual([]);
    });

    it('deletes a finished job once its retention is over, which frees its dedupe key', async () => {
      const queue = await open<string>();
      await queue.work();
      const id = await queue.queue.enqueue('once', { dedupeKey: 'kept' });
      await expect.poll(() => queue.queue.getState(id)).toBe('completed');
      expect(await queue.queue.enqueue('held', { dedupeKey: 'kept' })).toBe(id);

      // As if 12 hours had gone by.
      await queue.executor.executeSql(
        `update sino.queue_jobs set keep_until = now() - interval '1 second' where queue = $1 and id = $2`,
        [name, id],
      );
      await expect.poll(() => queue.queue.getState(id)).toBeNull();
      expect(await queue.queue.enqueue('again', { dedupeKey: 'kept' })).toBe(id);
      await expect.poll(() => queue.seen.map((j) => j.data)).toEqual(['once', 'again']);
      await queue.queue.stop();
      expect(queue.errors).toEqual([]);
    });
  });
}
