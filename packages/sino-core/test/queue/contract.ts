import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue, QueueJob, RetryPolicy } from '../../src/queue/index.js';
import type { QueueSettings } from '../../src/queue/options.js';

/** One store the contract runs against. */
export interface QueueBackend {
  /**
   * A new queue instance on the backend's storage, with its own connections where the store
   * has any, as another process (or the same one after a restart) would open it. Consumers
   * must poll often enough for the timings below (50 ms suits).
   */
  open<T>(settings: QueueSettings): Promise<JobQueue<T>>;
  /** Releases the storage: connections, databases, keys. */
  close(): Promise<void>;
}

/** Short enough for tests, long enough to tell "waited" from "did not". */
const FAST_RETRY: RetryPolicy = { retryLimit: 2, backoff: { type: 'fixed', delayMs: 0 } };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * The behaviour every queue adapter owes the engine (src/queue/port.ts), as `describe` blocks
 * run against the backend `connect` answers.
 */
export function queueContract(label: string, connect: () => Promise<QueueBackend>): void {
  describe(`job queue contract: ${label}`, () => {
    let backend: QueueBackend | undefined;
    let opened: JobQueue<unknown>[] = [];
    let errors: unknown[] = [];
    let queues = 0;
    let name = '';

    beforeAll(async () => {
      backend = await connect();
    });
    afterAll(async () => {
      await backend?.close();
    });
    afterEach(async () => {
      await Promise.all(opened.map((q) => q.stop()));
      opened = [];
      // Background errors (polling, maintenance, connections) have no caller to reach.
      expect(errors).toEqual([]);
      errors = [];
    });

    /** An instance of this test's queue; every test has a queue of its own. */
    async function open<T>(retry: RetryPolicy = FAST_RETRY): Promise<JobQueue<T>> {
      if (!backend) throw new Error('backend not connected');
      const queue = await backend.open<T>({ name, retry, onError: (e) => errors.push(e) });
      opened.push(queue as JobQueue<unknown>);
      return queue;
    }

    /** A consumer that records what it was given, and when. */
    async function recorded<T>(
      queue: JobQueue<T>,
      handle: (job: QueueJob<T>) => Promise<void> = async () => {},
      concurrency = 1,
    ): Promise<{ job: QueueJob<T>; at: number }[]> {
      const seen: { job: QueueJob<T>; at: number }[] = [];
      await queue.work(
        async (job) => {
          seen.push({ job, at: Date.now() });
          await handle(job);
        },
        { concurrency },
      );
      return seen;
    }

    beforeEach(() => {
      name = `contract-${++queues}`;
    });

    describe('delivery', () => {
      it('runs a job once, with its id, data and first attempt', async () => {
        const queue = await open<unknown>();
        const seen = await recorded(queue);
        const data = { text: 'olá', n: 1, list: [1, { nested: null }] };
        const id = await queue.enqueue(data);
        // Any JSON value travels, a bare string included.
        const other = await queue.enqueue('just text');

        await waitFor('both jobs', () => seen.length === 2);
        await waitFor('completion', async () => (await queue.getState(id)) === 'completed');
        await sleep(200);
        expect(seen).toHaveLength(2);
        const byId = new Map(seen.map((s) => [s.job.id, s.job]));
        expect(byId.get(id)).toEqual({ id, data, attempt: 1, maxAttempts: 3 });
        expect(byId.get(other)?.data).toBe('just text');
        expect(id).not.toBe(other);
      });

      it('runs at most `concurrency` handlers at once', async () => {
        const queue = await open<number>();
        for (let i = 0; i < 8; i++) await queue.enqueue(i);
        let running = 0;
        let most = 0;
        const seen = await recorded(
          queue,
          async () => {
            most = Math.max(most, ++running);
            await sleep(60);
            running--;
          },
          3,
        );

        await waitFor('all eight', () => seen.length === 8 && running === 0);
        expect(most).toBe(3);
        expect(seen.map((s) => s.job.data).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      });

      it('refuses options it cannot honour', async () => {
        const queue = await open<string>();
        await expect(queue.enqueue('x', { delayMs: -1 })).rejects.toThrow(RangeError);
        await expect(queue.enqueue('x', { retryLimit: 1.5 })).rejects.toThrow(RangeError);
        await expect(queue.enqueue('x', { dedupeKey: '' })).rejects.toThrow(TypeError);
        await expect(queue.work(async () => {}, { concurrency: 0 })).rejects.toThrow(RangeError);
      });

      it('picks a job up promptly, from this instance and from another', async () => {
        const consumer = await open<number>();
        const producer = await open<number>();
        const seen = await recorded(consumer);
        const latencies = async (from: JobQueue<number>) => {
          const ms: number[] = [];
          for (let i = 0; i < 15; i++) {
            const before = seen.length;
            const start = Date.now();
            await from.enqueue(i);
            await waitFor('the job', () => seen.length > before);
            ms.push(seen.at(-1)!.at - start);
          }
          return ms.sort((a, b) => a - b)[7]!;
        };
        const local = await latencies(consumer);
        const remote = await latencies(producer);
        console.info(
          `${label}: enqueue-to-handler median ${local} ms (same instance), ${remote} ms (another instance)`,
        );
        expect(local).toBeLessThan(100);
        expect(remote).toBeLessThan(250);
      });
    });

    describe('enqueueMany', () => {
      it('stores every job in order, each run once, as if enqueued one by one', async () => {
        const queue = await open<unknown>();
        const held = await queue.enqueue('first', { dedupeKey: 'many:held' });
        const ids = await queue.enqueueMany([
          { data: { n: 1 } },
          { data: 'bare text' },
          { data: 'dropped', options: { dedupeKey: 'many:held' } },
          { data: { n: 3 }, options: { dedupeKey: 'many:new' } },
        ]);
        expect(ids).toHaveLength(4);
        expect(ids[2]).toBe(held);
        expect(new Set(ids).size).toBe(4);
        expect(await queue.enqueueMany([])).toEqual([]);

        const seen = await recorded(queue);
        await waitFor('four jobs', () => seen.length === 4);
        await sleep(200);
        const byId = new Map(seen.map((s) => [s.job.id, s.job.data]));
        expect(byId.get(held)).toBe('first');
        expect(byId.get(ids[0]!)).toEqual({ n: 1 });
        expect(byId.get(ids[1]!)).toBe('bare text');
        expect(byId.get(ids[3]!)).toEqual({ n: 3 });
        expect(await queue.getState(ids[0]!)).toBe('completed');
      });

      it("keeps each job's delay, and a delayed job can be canceled", async () => {
        const queue = await open<string>();
        const seen = await recorded(queue);
        const [now, later, never] = await queue.enqueueMany([
          { data: 'now' },
          { data: 'later', options: { delayMs: 400 } },
          { data: 'never', options: { delayMs: 60_000 } },
        ]);
        await waitFor('the due job', () => seen.length === 1);
        expect(seen[0]!.job.id).toBe(now);
        expect(await queue.getState(later!)).toBe('delayed');
        expect(await queue.cancel(never!)).toBe(true);
        await waitFor('the delayed job', () => seen.length === 2);
        expect(seen[1]!.job.id).toBe(later);
        expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(300);
        await sleep(200);
        expect(seen).toHaveLength(2);
      });
    });

    describe('delays', () => {
      it('does not run a delayed job before its delay, and runs it after', async () => {
        const queue = await open<string>();
        const seen = await recorded(queue);
        const start = Date.now();
        const id = await queue.enqueue('later', { delayMs: 700 });
        expect(await queue.getState(id)).toBe('delayed');

        await waitFor('the delayed job', () => seen.length === 1, 3000);
        expect(seen[0]!.at - start).toBeGreaterThanOrEqual(700);
        expect(seen[0]!.job).toMatchObject({ id, data: 'later', attempt: 1 });
      });

      it('keeps a delayed job across a restart, and runs it in the next instance', async () => {
        const before = await open<string>();
        const seenBefore = await recorded(before);
        const id = await before.enqueue('survives', { delayMs: 500 });
        await before.stop();

        const after = await open<string>();
        expect(await after.getState(id)).toBe('delayed');
        const seenAfter = await recorded(after);
        await waitFor('the delayed job after the restart', () => seenAfter.length === 1, 3000);
        expect(seenBefore).toEqual([]);
        expect(seenAfter[0]!.job).toMatchObject({ id, data: 'survives' });
        await waitFor('completion', async () => (await after.getState(id)) === 'completed');
      });
    });

    describe('cancel', () => {
      it('removes a delayed job, which then never runs', async () => {
        const queue = await open<string>();
        const seen = await recorded(queue);
        const id = await queue.enqueue('never', { delayMs: 300 });

        expect(await queue.cancel(id)).toBe(true);
        expect(await queue.getState(id)).toBeNull();
        expect(await queue.cancel(id)).toBe(false);
        await sleep(700);
        expect(seen).toEqual([]);
      });

      it('answers false for an unknown, a running and a finished job', async () => {
        const queue = await open<string>();
        const release = gate();
        const seen = await recorded(queue, () => release.promise);
        expect(await queue.cancel(randomUUID())).toBe(false);
        expect(await queue.cancel('no-such-job')).toBe(false);

        const id = await queue.enqueue('busy');
        await waitFor('the handler', () => seen.length === 1);
        expect(await queue.cancel(id)).toBe(false);
        expect(await queue.getState(id)).toBe('active');
        release.open();
        await waitFor('completion', async () => (await queue.getState(id)) === 'completed');
        expect(await queue.cancel(id)).toBe(false);
        expect(await queue.getState(id)).toBe('completed');
      });
    });

    describe('retries', () => {
      it('runs a failing job again, attempt by attempt, until it succeeds', async () => {
        const queue = await open<string>({ retryLimit: 3, backoff: { type: 'fixed', delayMs: 0 } });
        const seen = await recorded(queue, async (job) => {
          if (job.attempt < 3) throw new Error(`attempt ${job.attempt} fails`);
        });
        const id = await queue.enqueue('flaky');

        await waitFor('completion', async () => (await queue.getState(id)) === 'completed');
        expect(seen.map((s) => [s.job.attempt, s.job.maxAttempts])).toEqual([
          [1, 4],
          [2, 4],
          [3, 4],
        ]);
        expect(seen.every((s) => s.job.id === id && s.job.data === 'flaky')).toBe(true);
      });

      it('ends a job failed after its retry limit, and runs it no more', async () => {
        const queue = await open<string>();
        const seen = await recorded(queue, async () => {
          throw new Error('always');
        });
        const id = await queue.enqueue('doomed', { retryLimit: 1 });

        await waitFor('failure', async () => (await queue.getState(id)) === 'failed');
        await sleep(300);
        expect(seen.map((s) => s.job.attempt)).toEqual([1, 2]);
      });

      it('waits the backoff before a retry', async () => {
        const queue = await open<string>();
        const seen = await recorded(queue, async (job) => {
          if (job.attempt === 1) throw new Error('first attempt fails');
        });
        const id = await queue.enqueue('patient', {
          retryLimit: 1,
          backoff: { type: 'fixed', delayMs: 1000 },
        });

        await waitFor('the first attempt', () => seen.length === 1);
        await waitFor(
          'the retry to be scheduled',
          async () => (await queue.getState(id)) === 'delayed',
        );
        await waitFor('the retry', () => seen.length === 2, 4000);
        expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);
        await waitFor('completion', async () => (await queue.getState(id)) === 'completed');
      });
    });

    describe('dedupe key', () => {
      it('runs a job enqueued twice with one key once', async () => {
        const queue = await open<number>();
        const first = await queue.enqueue(1, { dedupeKey: 'step:abc' });
        const second = await queue.enqueue(2, { dedupeKey: 'step:abc' });
        const unrelated = await queue.enqueue(3, { dedupeKey: 'step:xyz' });
        expect(second).toBe(first);
        expect(unrelated).not.toBe(first);

        const seen = await recorded(queue);
        await waitFor('both jobs', () => seen.length === 2);
        await sleep(200);
        expect(seen.map((s) => s.job.data).sort()).toEqual([1, 3]);
      });

      it('holds the key after the job finished, and frees it when the job is canceled', async () => {
        const queue = await open<string>();
        const seen = await recorded(queue);
        const done = await queue.enqueue('once', { dedupeKey: 'done' });
        await waitFor('completion', async () => (await queue.getState(done)) === 'completed');
        expect(await queue.enqueue('again', { dedupeKey: 'done' })).toBe(done);

        const canceled = await queue.enqueue('canceled', { dedupeKey: 'free', delayMs: 60_000 });
        expect(await queue.cancel(canceled)).toBe(true);
        const fresh = await queue.enqueue('fresh', { dedupeKey: 'free' });
        await waitFor('the fresh job', () => seen.some((s) => s.job.id === fresh));
        await sleep(200);
        expect(seen.map((s) => s.job.data)).toEqual(['once', 'fresh']);
      });
    });

    describe('stats', () => {
      it('counts waiting, delayed and active jobs, and ages the oldest waiting one', async () => {
        const queue = await open<string>();
        expect(await queue.stats()).toEqual({
          waiting: 0,
          delayed: 0,
          active: 0,
          oldestWaitingSeconds: 0,
        });
        await queue.enqueueMany([{ data: 'first' }, { data: 'second' }]);
        await queue.enqueue('later', { delayMs: 60_000 });
        await sleep(400);
        const waited = await queue.stats();
        expect(waited).toMatchObject({ waiting: 2, delayed: 1, active: 0 });
        // The first job has waited since its enqueue; no longer than the test has run.
        expect(waited.oldestWaitingSeconds).toBeGreaterThanOrEqual(0.3);
        expect(waited.oldestWaitingSeconds).toBeLessThan(10);

        const held = gate();
        const seen = await recorded(queue, () => held.promise);
        await waitFor('a handler', () => seen.length === 1);
        // Another instance (another process) reads the same numbers.
        const other = await open<string>();
        expect(await other.stats()).toMatchObject({ waiting: 1, delayed: 1, active: 1 });
        held.open();
        await waitFor('the queue drained', async () => {
          const now = await other.stats();
          return now.waiting === 0 && now.active === 0;
        });
        expect(await other.stats()).toEqual({
          waiting: 0,
          delayed: 1,
          active: 0,
          oldestWaitingSeconds: 0,
        });
      });
    });

    describe('stop', () => {
      it('waits for a running handler, then refuses work', async () => {
        const queue = await open<string>();
        let finished = false;
        const seen = await recorded(queue, async () => {
          await sleep(300);
          finished = true;
        });
        const id = await queue.enqueue('in flight');
        await waitFor('the handler', () => seen.length === 1);

        await queue.stop();
        expect(finished).toBe(true);
        await expect(queue.enqueue('late')).rejects.toThrow(/stopped/);
        const next = await open<string>();
        expect(await next.getState(id)).toBe('completed');
      });

      it('with a grace, hands a job still running after it back at once: another consumer runs it, and the late outcome is not written', async () => {
        const queue = await open<string>();
        const stuck = gate();
        const first = await recorded(queue, () => stuck.promise);
        const id = await queue.enqueue('stuck');
        await waitFor('the first handler', () => first.length === 1);

        const started = Date.now();
        await queue.stop({ graceMs: 200 });
        expect(Date.now() - started).toBeLessThan(2000);
        // Another consumer has it long before the stopped one's lease or lock would lapse.
        const next = await open<string>();
        const held = gate();
        const second = await recorded(next, () => held.promise);
        await waitFor('the second consumer', () => second.length === 1, 3000);
        expect(second[0]!.job.id).toBe(id);

        // The first handler ends at last: its outcome is not written over the second's run.
        stuck.open();
        await sleep(300);
        expect(await next.getState(id)).toBe('active');
        held.open();
        await waitFor('completion', async () => (await next.getState(id)) === 'completed');
      });

      it('with a grace, waits for handlers that end within it, as without one', async () => {
        const queue = await open<string>();
        let finished = false;
        const seen = await recorded(queue, async () => {
          await sleep(200);
          finished = true;
        });
        const id = await queue.enqueue('quick');
        await waitFor('the handler', () => seen.length === 1);
        await queue.stop({ graceMs: 5000 });
        expect(finished).toBe(true);
        const next = await open<string>();
        await waitFor('completion', async () => (await next.getState(id)) === 'completed');
      });

      it('takes no job after it stopped', async () => {
        const stopped = await open<string>();
        const seen = await recorded(stopped);
        await stopped.stop();
        const producer = await open<string>();
        const id = await producer.enqueue('for someone else');
        await sleep(300);
        expect(seen).toEqual([]);
        expect(await producer.getState(id)).toBe('waiting');
      });
    });
  });
}
