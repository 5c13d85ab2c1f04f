/**
 * The durable job queue the workflow engine runs on. One instance serves one named queue
 * (e.g. `sino-jobs`); any number of instances, in any number of processes, may share it.
 *
 * Delivery is at least once. A job is removed from the queue only after its handler has
 * returned; a process that dies mid-job leaves it to be run again by another consumer, or by
 * itself once restarted (the database queue: once its lease lapses, within about 12 s; BullMQ:
 * once its lock lapses and two stalled checks saw it, within about 20 s). A handler can
 * therefore see the same job twice, even after it did its work, and must be idempotent.
 * Jobs are not ordered: with concurrency, retries and delays, any job may overtake another.
 *
 * Job data travels as JSON: it must be JSON-serializable and comes back as parsed JSON.
 */
export interface JobQueue<T> {
  readonly name: string;
  /**
   * Stores a job and answers its id. With `dedupeKey`, a key still held by a job answers
   * that job's id and stores nothing (the new data is dropped).
   */
  enqueue(data: T, options?: EnqueueOptions): Promise<string>;
  /**
   * Stores several jobs in one round trip (a busy API node's triggers of one moment) and
   * answers their ids in order; each job behaves as if enqueued on its own. All are stored
   * or, on an error, none is known to be.
   */
  enqueueMany(jobs: { data: T; options?: EnqueueOptions }[]): Promise<string[]>;
  /**
   * Removes a job that has not started: waiting, delayed, or waiting for a retry. True when
   * it was removed; false for an unknown, running or finished job. A removed job's id is
   * unknown from then on and its dedupe key is free.
   */
  cancel(jobId: string): Promise<boolean>;
  /** Where the job is now, or null when it is unknown (canceled, or no longer retained). */
  getState(jobId: string): Promise<QueueJobState | null>;
  /** True when the queue's store (Redis, or the database) answers now (readiness). */
  ping(): Promise<boolean>;
  /**
   * What the queue holds now, for metrics (read at each scrape): jobs by state, and how long
   * the oldest due job has waited. A few index reads (database) or one script (Redis).
   */
  stats(): Promise<QueueStats>;
  /**
   * Starts consuming: at most `concurrency` handlers run at once in this instance. A handler
   * that resolves completes the job; one that throws fails the attempt, and the job is tried
   * again after its backoff until its retry limit, then ends `failed`. Called once per
   * instance.
   */
  work(handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /**
   * Stops taking jobs, waits for the running handlers to settle, and releases the
   * connections the instance opened (never the database handle it was given). A job taken for
   * this instance that had not started when the stop began goes back to the queue at once, its
   * attempt not counted. With `graceMs`, handlers still running after it are no longer waited
   * for: their jobs go back to the queue at once, for any consumer, instead of when their lease
   * lapses (the process is about to end), and what the handlers do afterwards is not written as
   * the job's outcome. Such a job may run twice, as after a crash (at least once).
   */
  stop(options?: StopOptions): Promise<void>;
}

export interface StopOptions {
  /** Longest wait for the running handlers; unbounded when absent. */
  graceMs?: number;
}

export interface EnqueueOptions {
  /**
   * Not run before now + `delayMs`. The due time is stored with the job, so it holds across
   * restarts. The database queue counts from the database clock, BullMQ from this process's
   * clock.
   */
  delayMs?: number;
  /**
   * Deduplication: the key is held from enqueue until the job is no longer retained
   * (canceled, or `RETENTION` after it finished), so an at-least-once producer that enqueues
   * twice still runs the job once.
   */
  dedupeKey?: string;
  /** Retries after the first attempt; the instance's default when absent. */
  retryLimit?: number;
  /** Wait before each retry; the instance's default when absent. */
  backoff?: Backoff;
}

/**
 * `fixed` waits `delayMs` before every retry; `exponential` waits `delayMs * 2^(n-1)` before
 * retry n (the database queue caps a wait at a year).
 */
export interface Backoff {
  type: 'fixed' | 'exponential';
  delayMs: number;
}

export interface RetryPolicy {
  retryLimit: number;
  backoff: Backoff;
}

/** What a handler is given. `attempt` counts from 1; the last one is `maxAttempts`. */
export interface QueueJob<T> {
  id: string;
  data: T;
  attempt: number;
  maxAttempts: number;
}

export type JobHandler<T> = (job: QueueJob<T>) => Promise<void>;

export interface WorkOptions {
  /** Handlers running at once in this instance; 1 when absent. */
  concurrency?: number;
}

/**
 * `waiting`: due and not started. `delayed`: not due yet (a delay or a retry's backoff).
 * `active`: a handler has it. `completed` and `failed` are final.
 */
export type QueueJobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

/** The queue's jobs not finished, every instance's together. */
export interface QueueStats {
  /** Due and not started (a retry whose backoff ended included). */
  waiting: number;
  /** Not due yet: a delay, or a retry's backoff. */
  delayed: number;
  /** Held by a handler, in this process or another. */
  active: number;
  /**
   * Seconds the oldest waiting job has been due (since its enqueue, the end of its delay or of
   * its backoff); 0 when nothing waits. The backlog's lag: it grows while workers fall behind.
   */
  oldestWaitingSeconds: number;
}

/** Used when neither the instance nor the job says otherwise: retries after 1 s, 2 s, 4 s. */
export const DEFAULT_RETRY: RetryPolicy = {
  retryLimit: 3,
  backoff: { type: 'exponential', delayMs: 1000 },
};

/** How long finished jobs are kept (state readable, dedupe key held), at least. */
export const RETENTION = {
  completedSeconds: 12 * 60 * 60,
  failedSeconds: 7 * 24 * 60 * 60,
} as const;
