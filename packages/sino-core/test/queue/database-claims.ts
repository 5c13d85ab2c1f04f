import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@locadora/db';
import { openDatabaseQueue, type JobQueue, type QueueJob } from '../../src/queue/index.js';

type Executor = Pick<DatabaseHandle, 'executeSql'>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Until the consumer's first fetch answered (an empty queue), and it took the answer in. */
async function idle(fetches: () => number): Promise<void> {
  await expect.poll(fetches).toBe(1);
  await sleep(0);
}

/**
 * The database queue only (decision 015): a due job enqueued while this instance's consumer is idle with a
 * free slot is inserted active and run here, without a fetch; waiting jobs still go first.
 * `database` answers a fresh executor on the backend's storage for each call.
 */
export function databaseClaims(label: string, database: () => Promise<Executor>): void {
  describe(`database queue claims at enqueue: ${label}`, () => {
    let queues = 0;

    /** A queue whose statements are counted, and which polls only when told to (1 min). */
    async function open<T>(name = `claims-${++queues}-${Date.now()}`) {
      const executor = await database();
      const statements: string[] = [];
      const errors: unknown[] = [];
      const queue = await openDatabaseQueue<T>({
        name,
        database: {
          // Counted once answered: the consumer has seen the answer right after.
          executeSql: async (text, values) => {
            const answer = await executor.executeSql(text, values);
            statements.push(text);
            return answer;
          },
        },
        onError: (e) => errors.push(e),
        pollingIntervalMs: 60_000,
        retry: { retryLimit: 0, backoff: { type: 'fixed', delayMs: 0 } },
      });
      const fetches = () =>
        statements.filter((s) => s.startsWith('select * from sino.queue_fetch(')).length;
      // Read in the store, whatever the instance's own state (a stopped one answers nothing).
      const stored = async (id: string) => {
        const { rows } = await executor.executeSql(
          'select state from sino.queue_jobs where id = $1',
          [id],
        );
        return (rows[0] as { state: string } | undefined)?.state;
      };
      return { queue, fetches, errors, stored, name };
    }

    async function consume<T>(
      queue: JobQueue<T>,
      concurrency: number,
      handle: (job: QueueJob<T>) => Promise<void> = async () => {},
    ) {
      const seen: QueueJob<T>[] = [];
      await queue.work(
        async (job) => {
          seen.push(job);
          await handle(job);
        },
        { concurrency },
      );
      return seen;
    }

    it('runs a job enqueued into an idle consumer at once, without a fetch', async () => {
      const { queue, fetches, errors } = await open<{ at: string; n: number }>();
      const seen = await consume(queue, 4);
      await idle(fetches); // the consumer's first look: an empty queue

      const ids: string[] = [];
      for (let n = 0; n < 5; n++) {
        ids.push(await queue.enqueue({ at: new Date(0) as unknown as string, n }));
        // Handed to the handler before enqueue answered.
        expect(seen.map((j) => j.data.n)).toEqual([...Array(n + 1).keys()]);
      }
      expect(fetches()).toBe(1);
      // As any job: its id, first attempt, and its data as JSON (a date becomes a string).
      expect(seen.map((j) => j.id)).toEqual(ids);
      expect(seen[0]).toMatchObject({ attempt: 1, maxAttempts: 1 });
      expect(seen[0]!.data.at).toBe('1970-01-01T00:00:00.000Z');
      await expect.poll(() => queue.getState(ids[4]!)).toBe('completed');
      await queue.stop();
      expect(errors).toEqual([]);
    });

    it('stores a claimed job active while its handler runs, and stop() waits for it', async () => {
      const { queue, errors, stored, fetches } = await open<string>();
      const held = gate();
      const seen = await consume(queue, 1, () => held.promise);
      await idle(fetches);
      const id = await queue.enqueue('held');
      expect(seen.map((j) => j.data)).toEqual(['held']);
      // Active in the store: a process that dies now leaves it to run again once its lease lapses.
      expect(await queue.getState(id)).toBe('active');

      let stopped = false;
      const stopping = queue.stop().then(() => (stopped = true));
      await sleep(100);
      expect(stopped).toBe(false);
      held.open();
      await stopping;
      expect(await stored(id)).toBe('completed');
      expect(errors).toEqual([]);
    });

    it('hands back, unstarted, a job claimed by an insert that answered after stop() began', async () => {
      const { queue, errors, stored, fetches, name } = await open<string>();
      const seen = await consume(queue, 1);
      await idle(fetches);
      // The insert claims the job for this instance; stop() begins before it answers.
      const enqueued = queue.enqueue('claimed');
      const stopping = queue.stop();
      const id = await enqueued;
      await stopping;
      expect(seen).toEqual([]);
      expect(await stored(id)).toBe('waiting');

      // Another instance runs it as its first attempt: the claim did not count as one.
      const other = await open<string>(name);
      const taken = await consume(other.queue, 1);
      await expect.poll(() => taken.map((j) => j.id)).toContain(id);
      expect(taken.find((j) => j.id === id)).toMatchObject({ attempt: 1, data: 'claimed' });
      await other.queue.stop();
      expect([...errors, ...other.errors]).toEqual([]);
    });

    it('claims no more than the free slots; the rest wait for a fetch', async () => {
      const { queue, fetches, errors } = await open<number>();
      const held = gate();
      let running = 0;
      let most = 0;
      const seen = await consume(queue, 2, async () => {
        most = Math.max(most, ++running);
        await held.promise;
        running--;
      });
      await idle(fetches);

      await queue.enqueueMany([0, 1, 2, 3, 4].map((data) => ({ data })));
      expect(seen.map((j) => j.data)).toEqual([0, 1]);
      await sleep(100);
      expect(seen).toHaveLength(2);

      held.open();
      await expect.poll(() => seen.length).toBe(5);
      expect(most).toBe(2);
      // The three left over were fetched (one statement's jobs have no order among them).
      expect(
        seen
          .slice(2)
          .map((j) => j.data)
          .sort(),
      ).toEqual([2, 3, 4]);
      expect(fetches()).toBeGreaterThan(1);
      await queue.stop();
      expect(errors).toEqual([]);
    });

    it('lets waiting jobs go first: nothing is claimed while the queue has a backlog', async () => {
      const { queue, errors } = await open<number>();
      for (const data of [0, 1, 2]) await queue.enqueue(data);
      const held = gate();
      const seen = await consume(queue, 1, () => held.promise);
      await expect.poll(() => seen.length).toBe(1);

      // The consumer's last fetch filled its slot: jobs may be waiting, so this one waits too.
      await queue.enqueue(3);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.data).not.toBe(3);
      held.open();
      await expect.poll(() => seen.length).toBe(4);
      // Waiting jobs first, then the one enqueued behind them. Jobs due at the same instant
      // (PGlite's clock can give any two of 0, 1 and 2 the same one) have no order among them.
      const order = seen.map((j) => j.data);
      expect([[...order.slice(0, 3)].sort(), order[3]]).toEqual([[0, 1, 2], 3]);
      await queue.stop();
      expect(errors).toEqual([]);
    });

    it('runs a job whose dedupe key is held nowhere, and a delayed one only when due', async () => {
      const { queue, errors, fetches } = await open<string>();
      const held = gate();
      const seen = await consume(queue, 2, () => held.promise);
      await idle(fetches);

      const first = await queue.enqueue('first', { dedupeKey: 'k' });
      const again = await queue.enqueue('again', { dedupeKey: 'k' });
      const later = await queue.enqueue('later', { delayMs: 60_000 });
      expect(again).toBe(first);
      // One run for the key; the slot the second enqueue would have had is still free.
      expect(seen.map((j) => j.data)).toEqual(['first']);
      expect(await queue.getState(later)).toBe('delayed');
      await queue.enqueue('next');
      expect(seen.map((j) => j.data)).toEqual(['first', 'next']);

      held.open();
      expect(await queue.cancel(later)).toBe(true);
      await queue.stop();
      expect(errors).toEqual([]);
    });
  });
}
