import { Queue, WaitingError, Worker, type Job, type JobState } from 'bullmq';
import { Redis } from 'ioredis';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, failFastOptions } from '../redis.js';
import {
  checkConcurrency,
  checkQueueName,
  checkRetryPolicy,
  resolveEnqueue,
  settledWithin,
  type QueueSettings,
} from './options.js';
import {
  DEFAULT_RETRY,
  RETENTION,
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  type QueueJobState,
  type QueueStats,
  type RetryPolicy,
  type StopOptions,
  type WorkOptions,
} from './port.js';

export interface BullMqQueueOptions extends QueueSettings {
  /** `redis://...` of the Redis every process of the deployment shares. */
  redisUrl: string;
  /** Prefix of the queue's Redis keys; `sino` when absent. Tests use one of their own. */
  prefix?: string;
  /**
   * Longest wait for Redis's answer to an enqueue, a cancel or a state (a request waits on
   * them); 5 s when absent. The workers' own commands wait for Redis however long it is away.
   */
  commandTimeoutMs?: number;
}

/**
 * The queue on BullMQ, for deployments with `REDIS_URL`. Consumers block on Redis rather than
 * poll, so a waiting job is picked up within milliseconds whichever process enqueued it
 * (delayed jobs ran up to about 100 ms after their due time in docs/decisions/010).
 * While Redis is unreachable, opening the queue and the workers wait for it; enqueueing,
 * cancelling and reading a state fail at once, or after `commandTimeoutMs` when Redis does
 * not answer, so that the request behind them answers 503 (decision 027).
 */
export async function openBullMqQueue<T>(options: BullMqQueueOptions): Promise<JobQueue<T>> {
  const name = checkQueueName(options.name);
  const retry = checkRetryPolicy(options.retry ?? DEFAULT_RETRY);
  const prefix = options.prefix ?? 'sino';
  // The workers' connection: BullMQ's blocking commands must wait out a Redis restart instead
  // of failing after the default 20 retries, hence no per-request retry limit.
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, keepAlive: 10_000 });
  // Requests enqueue on a connection of their own, which fails fast (see above).
  const producer = new Redis(
    options.redisUrl,
    failFastOptions(options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS),
  );
  const queue = new Queue(name, { connection: producer, prefix });
  queue.on('error', (error) => options.onError(error));
  try {
    await queue.waitUntilReady();
  } catch (error) {
    await queue.close().catch(() => {});
    producer.disconnect();
    connection.disconnect();
    throw error;
  }
  return new BullMqJobQueue<T>(name, queue, [connection, producer], prefix, retry, options.onError);
}

class BullMqJobQueue<T> implements JobQueue<T> {
  readonly #queue: Queue;
  /** The workers' connection, then the producer's. */
  readonly #connections: [Redis, Redis];
  readonly #prefix: string;
  readonly #retry: RetryPolicy;
  readonly #onError: (error: unknown) => void;
  #worker: Worker | undefined;
  /** Jobs whose handlers are running, with the lock token BullMQ gave this worker for each. */
  readonly #inHandler = new Map<
    string,
    { job: Job<T>; token: string | undefined; settled: Promise<unknown> }
  >();
  /** Jobs handed back at the stop's grace while their handlers ran: no outcome is written. */
  readonly #handedBack = new Set<string>();
  #stopping: Promise<void> | undefined;
  #stopped = false;

  constructor(
    readonly name: string,
    queue: Queue,
    connections: [Redis, Redis],
    prefix: string,
    retry: RetryPolicy,
    onError: (error: unknown) => void,
  ) {
    this.#queue = queue;
    this.#connections = connections;
    this.#prefix = prefix;
    this.#retry = retry;
    this.#onError = onError;
  }

  async enqueue(data: T, options: EnqueueOptions = {}): Promise<string> {
    this.#assertOpen();
    const added = await this.#queue.add(this.name, data ?? null, this.#jobOptions(options));
    if (!added.id) throw new Error(`BullMQ stored no job in queue "${this.name}"`);
    return added.id;
  }

  async enqueueMany(jobs: { data: T; options?: EnqueueOptions }[]): Promise<string[]> {
    this.#assertOpen();
    if (jobs.length === 0) return [];
    // One MULTI: an existing job id (a held dedupe key) answers that id, as in enqueue().
    const added = await this.#queue.addBulk(
      jobs.map(({ data, options = {} }) => ({
        name: this.name,
        data: data ?? null,
        opts: this.#jobOptions(options),
      })),
    );
    return added.map((job) => {
      if (!job.id) throw new Error(`BullMQ stored no job in queue "${this.name}"`);
      return job.id;
    });
  }

  #jobOptions(options: EnqueueOptions) {
    const job = resolveEnqueue(options, this.#retry);
    const { backoff } = job;
    // An existing job id makes BullMQ store nothing and answer that id: the dedupe.
    return {
      ...(job.jobId && { jobId: job.jobId }),
      ...(job.delayMs > 0 && { delay: Math.ceil(job.delayMs) }),
      attempts: job.retryLimit + 1,
      ...(backoff.delayMs > 0 && { backoff: { type: backoff.type, delay: backoff.delayMs } }),
      removeOnComplete: { age: RETENTION.completedSeconds },
      removeOnFail: { age: RETENTION.failedSeconds },
    };
  }

  async cancel(jobId: string): Promise<boolean> {
    this.#assertOpen();
    const state = await this.#queue.getJobState(jobId);
    if (!NOT_STARTED.has(state)) return false;
    // 0 when a worker locked the job meanwhile. A job that went all the way to finished
    // between the two calls would be removed and reported canceled; the engine tolerates
    // that, since it marks its own job canceled before calling here.
    return (await this.#queue.remove(jobId)) === 1;
  }

  async ping(): Promise<boolean> {
    // The producer's connection: the one requests wait on, failing fast.
    return this.#connections[1].ping().then(
      () => true,
      () => false,
    );
  }

  async stats(): Promise<QueueStats> {
    this.#assertOpen();
    const [counts, [oldest]] = await Promise.all([
      this.#queue.getJobCounts('wait', 'prioritized', 'delayed', 'active'),
      // The wait list's tail: jobs are pushed at its head and taken from its tail.
      this.#queue.getJobs(['wait'], 0, 0, true),
    ]);
    const waiting = (counts['wait'] ?? 0) + (counts['prioritized'] ?? 0);
    return {
      waiting,
      delayed: counts['delayed'] ?? 0,
      active: counts['active'] ?? 0,
      oldestWaitingSeconds:
        waiting > 0 && oldest ? Math.max(0, (Date.now() - dueTime(oldest)) / 1000) : 0,
    };
  }

  async getState(jobId: string): Promise<QueueJobState | null> {
    this.#assertOpen();
    return STATES[await this.#queue.getJobState(jobId)];
  }

  async work(handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    if (this.#stopping) throw new Error(`queue "${this.name}" is stopped`);
    if (this.#worker) throw new Error(`queue "${this.name}" is already being worked`);
    const concurrency = checkConcurrency(options);
    const worker = new Worker<T>(
      this.name,
      async (job: Job<T>, token?: string) => {
        const id = job.id ?? '';
        if (this.#stopping) {
          // Taken as stop() came (BullMQ runs what it fetched): back to the queue, for another.
          await job.moveToWait(token);
          throw new WaitingError();
        }
        const running = handler({
          id,
          data: job.data,
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? 1,
        });
        this.#inHandler.set(id, { job, token, settled: running.catch(() => undefined) });
        try {
          await running;
        } catch (error) {
          if (!this.#handedBack.has(id)) throw error;
        } finally {
          this.#inHandler.delete(id);
        }
        // Handed back at the stop's grace: another worker has it now, and its outcome.
        if (this.#handedBack.has(id)) throw new WaitingError();
      },
      {
        connection: this.#connections[0],
        prefix: this.#prefix,
        concurrency,
        lockDuration: LOCK_MS,
        stalledInterval: STALLED_CHECK_MS,
      },
    );
    worker.on('error', (error) => this.#onError(error));
    this.#worker = worker;
    await worker.waitUntilReady();
  }

  stop(options: StopOptions = {}): Promise<void> {
    this.#stopping ??= (async () => {
      const worker = this.#worker;
      if (worker && options.graceMs !== undefined) {
        // No job is taken any more; those BullMQ took meanwhile go back (see work()).
        await worker.pause(true);
        const handlers = [...this.#inHandler.values()].map((h) => h.settled);
        if (!(await settledWithin(Promise.all(handlers), options.graceMs))) {
          // Their locks released, the jobs wait again at once, for another worker.
          await Promise.all(
            [...this.#inHandler].map(async ([id, { job, token }]) => {
              this.#handedBack.add(id);
              await job.moveToWait(token).catch((error: unknown) => this.#onError(error));
            }),
          );
          await worker.close(true);
        }
      }
      // Worker.close() waits for the running handlers and their outcomes; the queue stays
      // usable meanwhile.
      await worker?.close();
      await this.#queue.close();
      await Promise.all(this.#connections.map((c) => c.quit().catch(() => c.disconnect())));
      this.#stopped = true;
    })();
    return this.#stopping;
  }

  // Handlers still running during stop() may enqueue; only a stopped instance refuses.
  #assertOpen(): void {
    if (this.#stopped) throw new Error(`queue "${this.name}" is stopped`);
  }
}

/**
 * A worker holds each job under a lock it renews every half of it; a job whose lock lapsed is
 * marked by one stalled check and moved back to waiting by the next (a job that stalls twice
 * ends failed, BullMQ's `maxStalledCount` 1). BullMQ's defaults (30 s and 30 s) left the jobs
 * of a killed process waiting up to 90 s; these take them again within about 20 s, and a live
 * worker loses a job only if it cannot renew its lock for 5 s. A check is one Redis script
 * per worker, a renewal one per worker for all its jobs.
 */
const LOCK_MS = 10_000;
const STALLED_CHECK_MS = 5_000;

/**
 * When a waiting job fell due. BullMQ keeps the enqueue time and the last delay (a retry's
 * backoff replaces the first delay), not the end of the wait: a retried job counts from the
 * start of its failed attempt, so its wait reads longer by that attempt's duration.
 */
function dueTime(job: Job): number {
  const from = job.attemptsMade > 0 && job.processedOn ? job.processedOn : job.timestamp;
  return from + (job.delay ?? 0);
}

const NOT_STARTED = new Set<JobState | 'unknown'>(['waiting', 'prioritized', 'delayed']);

const STATES: Record<JobState | 'unknown', QueueJobState | null> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  delayed: 'delayed',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
  unknown: null,
};
