import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '@locadora/db';
import { groupCommit } from '../batching.js';
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

type ExecuteSql = Pick<DatabaseHandle, 'executeSql'>['executeSql'];

export interface DatabaseQueueOptions extends QueueSettings {
  /**
   * The product's database, its migrations applied (the queue's table and functions are
   * Sino's migration 0002). Only its raw executor is used, on PGlite and PostgreSQL alike.
   */
  database: Pick<DatabaseHandle, 'executeSql'>;
  /**
   * How long an idle consumer waits before looking for due jobs again; 500 ms when absent.
   * An enqueue in the same instance wakes its consumer at once, so this bounds the pickup
   * latency of jobs enqueued elsewhere, delays that fall due, and retries.
   */
  pollingIntervalMs?: number;
  /**
   * The lease on a job a consumer took; 10 s when absent. The consumer renews the leases of its
   * jobs every fifth of it. Once a lease lapses (its process was killed, or cut off from the
   * database that long), any consumer of the queue takes the job again, within a fifth of the
   * lease more. Handlers may run longer than the lease: it is renewed while they run.
   */
  leaseMs?: number;
}

/** A job the consumer took: active until completed or failed. */
interface TakenJob<T> {
  id: string;
  data: T;
  /** This attempt's number, from 1. */
  attempt: number;
  retryLimit: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The queue in the product's own database (PGlite in one process, or PostgreSQL shared by
 * many): the table `sino.queue_jobs` and its functions, created by Sino's migrations
 * (decision 016). Consumers take due jobs with `FOR UPDATE SKIP LOCKED` under a lease they
 * renew while the handler runs; a job whose lease lapsed is taken again by any consumer.
 *
 * On PGlite, never call the queue inside a Drizzle transaction callback: the transaction
 * holds the one connection the queue's statement then waits for, a deadlock.
 */
export async function openDatabaseQueue<T>(options: DatabaseQueueOptions): Promise<JobQueue<T>> {
  const name = checkQueueName(options.name);
  const retry = checkRetryPolicy(options.retry ?? DEFAULT_RETRY);
  const pollingIntervalMs = checkMs('pollingIntervalMs', options.pollingIntervalMs ?? 500);
  // Whole milliseconds: the functions take an int.
  const leaseMs = Math.ceil(checkMs('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS));
  const { database } = options;
  const executeSql: ExecuteSql = (text, values) => database.executeSql(text, values);
  const { rows } = await executeSql(`select to_regclass('sino.queue_jobs') is not null as ready`);
  if (!(rows[0] as { ready: boolean } | undefined)?.ready) {
    throw new Error(
      "the queue's table sino.queue_jobs does not exist: apply Sino's migrations (sinoMigrations) first",
    );
  }
  return new DatabaseJobQueue<T>(
    name,
    executeSql,
    retry,
    pollingIntervalMs,
    leaseMs,
    options.onError,
  );
}

class DatabaseJobQueue<T> implements JobQueue<T> {
  readonly #executeSql: ExecuteSql;
  readonly #retry: RetryPolicy;
  readonly #pollingIntervalMs: number;
  readonly #leaseMs: number;
  readonly #onError: (error: unknown) => void;
  /** Handlers with their completions: stop() waits for them. */
  readonly #running = new Set<Promise<void>>();
  /**
   * Jobs this instance holds active in the store, from their fetch until their outcome is
   * written, with how many runs of each (a job whose lease lapsed may be taken here again).
   */
  readonly #held = new Map<string, number>();
  /** Jobs whose handlers are running now (a finished one may still be writing its outcome). */
  readonly #inHandler = new Set<string>();
  /** Jobs handed back at the stop's grace while their handlers ran: no outcome is written. */
  readonly #handedBack = new Set<string>();
  /** Handlers running now: what `concurrency` bounds. */
  #handling = 0;
  /** Inserts that take jobs for this instance; stop() waits for their jobs too. */
  readonly #claiming = new Set<Promise<void>>();
  #handler: JobHandler<T> | undefined;
  /** Slots held for jobs being inserted active, and asked of the fetch in flight. */
  #reserved = 0;
  #fetching = 0;
  #consuming: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  #stopped = false;
  #woken = false;
  /** The last fetch found fewer jobs than it asked for: nothing else was due. */
  #drained = false;
  #wake: (() => void) | undefined;
  /** With a backlog, fetch again once this many handler slots are free, not after every job. */
  #refillAt = 1;
  #consumingWith = 1;
  #upkeepTimer: NodeJS.Timeout | undefined;
  #upkeep: Promise<void> | undefined;
  /** Completions of the jobs that finished meanwhile go in one statement (group commit). */
  readonly #complete = groupCommit(
    async (ids: readonly string[]) => {
      await this.#executeSql(COMPLETE_STATEMENT, [this.name, [...ids], RETENTION.completedSeconds]);
      return ids.map(() => undefined);
    },
    { lingerMs: COMPLETE_LINGER_MS },
  );

  constructor(
    readonly name: string,
    executeSql: ExecuteSql,
    retry: RetryPolicy,
    pollingIntervalMs: number,
    leaseMs: number,
    onError: (error: unknown) => void,
  ) {
    this.#executeSql = executeSql;
    this.#retry = retry;
    this.#pollingIntervalMs = pollingIntervalMs;
    this.#leaseMs = leaseMs;
    this.#onError = onError;
  }

  async enqueue(data: T, options: EnqueueOptions = {}): Promise<string> {
    const [id] = await this.enqueueMany([{ data, options }]);
    return id!;
  }

  /**
   * One insert for every job. While this instance's consumer is idle with free slots, due jobs
   * are inserted active (taken by this instance, as a fetch would) and run here at once: no
   * fetch statement, no wait for the consumer (decision 015). Otherwise they wait in the
   * queue, in its order, for any consumer.
   */
  async enqueueMany(jobs: { data: T; options?: EnqueueOptions }[]): Promise<string[]> {
    this.#assertOpen();
    if (jobs.length === 0) return [];
    let spare = this.#claimable();
    let due = false;
    const rows = jobs.map(({ data, options = {} }): InsertRow => {
      const job = resolveEnqueue(options, this.#retry);
      const claim = job.delayMs === 0 && spare > 0;
      if (claim) spare -= 1;
      else if (job.delayMs === 0) due = true;
      return {
        // A dedupe key's id is derived from the key, and an existing job of that id is kept;
        // other jobs get a new id here, since the ids are answered in order.
        id: job.jobId ?? randomUUID(),
        // Any JSON value (a bare string included) reaches the jsonb column as it is.
        data: data ?? null,
        delay_ms: job.delayMs,
        retry_limit: job.retryLimit,
        backoff_ms: Math.ceil(job.backoff.delayMs),
        backoff_exponential: job.backoff.type === 'exponential',
        claim,
      };
    });
    const claims = rows.filter((r) => r.claim).length;
    const inserting = this.#insert(rows, claims);
    if (claims > 0) {
      this.#claiming.add(inserting);
      void inserting.finally(() => this.#claiming.delete(inserting)).catch(() => {});
    }
    await inserting;
    if (due) {
      // Jobs wait in the queue now: the next ones enqueued here wait behind them.
      this.#drained = false;
      this.#poke();
    }
    return rows.map((r) => r.id);
  }

  /** Inserts the rows; runs here those inserted active (a dedupe key held inserts nothing). */
  async #insert(rows: InsertRow[], claims: number): Promise<void> {
    this.#reserved += claims;
    let claimed: Set<string>;
    try {
      const { rows: inserted } = await this.#executeSql(INSERT_STATEMENT, [
        this.name,
        JSON.stringify(rows),
        this.#leaseMs,
      ]);
      claimed = new Set(
        (inserted as { id: string; claimed: boolean }[]).filter((r) => r.claimed).map((r) => r.id),
      );
    } finally {
      this.#reserved -= claims;
    }
    // Taken for an instance that began to stop meanwhile: back to the queue, for another.
    if (this.#stopping && claimed.size > 0) {
      await this.#handBack([...claimed], false);
      return;
    }
    for (const row of rows) {
      if (!claimed.has(row.id)) continue;
      // The handler is given the data as the store answers it: parsed JSON.
      this.#run(this.#handler!, {
        id: row.id,
        data: JSON.parse(JSON.stringify(row.data)) as T,
        attempt: 1,
        retryLimit: row.retry_limit,
      });
    }
    // Slots reserved for jobs a dedupe key kept out are free again.
    if (claimed.size < claims) this.#poke();
  }

  /**
   * Slots free for jobs enqueued here: only once the consumer found the queue empty (jobs
   * waiting go first) and before stop(), and never more than `concurrency` at once with the
   * jobs running, those being fetched and those being inserted.
   */
  #claimable(): number {
    if (!this.#handler || this.#stopping || !this.#drained) return 0;
    return this.#consumingWith - this.#handling - this.#reserved - this.#fetching;
  }

  async cancel(jobId: string): Promise<boolean> {
    this.#assertOpen();
    if (!UUID.test(jobId)) return false;
    // Only a job that has not started is removed; a running one finishes.
    const { rows } = await this.#executeSql(CANCEL_STATEMENT, [this.name, jobId]);
    return rows.length > 0;
  }

  async getState(jobId: string): Promise<QueueJobState | null> {
    this.#assertOpen();
    if (!UUID.test(jobId)) return null;
    // "Due" by the database's clock, the one the fetch goes by.
    const { rows } = await this.#executeSql(
      `select state, start_after > now() as later from sino.queue_jobs where queue = $1 and id = $2`,
      [this.name, jobId],
    );
    const row = rows[0] as { state: Exclude<QueueJobState, 'delayed'>; later: boolean } | undefined;
    if (!row) return null;
    return row.state === 'waiting' && row.later ? 'delayed' : row.state;
  }

  ping(): Promise<boolean> {
    return this.#executeSql('select 1').then(
      () => true,
      () => false,
    );
  }

  async stats(): Promise<QueueStats> {
    const { rows } = await this.#executeSql(STATS_STATEMENT, [this.name]);
    const row = rows[0] as Record<keyof QueueStats, number | string | null>;
    // Counts come back as text on some drivers (bigint): numbers here.
    return {
      waiting: Number(row.waiting),
      delayed: Number(row.delayed),
      active: Number(row.active),
      oldestWaitingSeconds: Math.max(0, Number(row.oldestWaitingSeconds ?? 0)),
    };
  }

  async work(handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    if (this.#stopping) throw new Error(`queue "${this.name}" is stopped`);
    if (this.#consuming) throw new Error(`queue "${this.name}" is already being worked`);
    const concurrency = checkConcurrency(options);
    this.#consumingWith = concurrency;
    this.#handler = handler;
    this.#refillAt = Math.ceil(concurrency / 4);
    // At once, then every fifth of the lease: jobs a dead process left are found at start.
    this.#runUpkeep();
    this.#upkeepTimer = setInterval(() => this.#runUpkeep(), this.#leaseMs / UPKEEPS_PER_LEASE);
    this.#upkeepTimer.unref();
    this.#consuming = this.#consume(handler, concurrency);
  }

  stop(options: StopOptions = {}): Promise<void> {
    this.#stopping ??= (async () => {
      this.#poke();
      await this.#consuming;
      // Jobs inserted active for this instance meanwhile go back (see #insert).
      await Promise.allSettled(this.#claiming);
      const settled = Promise.all(this.#running);
      if (options.graceMs === undefined) await settled;
      else if (!(await settledWithin(settled, options.graceMs))) {
        const running = [...this.#inHandler];
        for (const id of running) this.#handedBack.add(id);
        await this.#handBack(running, true);
      }
      // Leases are renewed until the last outcome is written, and never after.
      clearInterval(this.#upkeepTimer);
      await this.#upkeep;
      this.#stopped = true;
    })();
    return this.#stopping;
  }

  async #consume(handler: JobHandler<T>, concurrency: number): Promise<void> {
    while (!this.#stopping) {
      // A poke from here on is seen by the sleep below, so none is lost while fetching.
      this.#woken = false;
      const free = concurrency - this.#handling - this.#reserved;
      let drained = false;
      if (free > 0) {
        // Held until the fetched jobs count as running, so no insert claims these slots.
        this.#fetching = free;
        // A database error is reported, and the consumer looks again after the interval.
        const jobs = await this.#fetch(free).catch(
          (error: unknown) => (this.#onError(error), [] as TakenJob<T>[]),
        );
        // Taken as stop() came: back to the queue, for another consumer.
        if (this.#stopping && jobs.length > 0)
          await this.#handBack(
            jobs.map((j) => j.id),
            false,
          );
        else for (const job of jobs) this.#run(handler, job);
        this.#fetching = 0;
        drained = jobs.length < free;
        this.#drained = drained;
      }
      // Full after a fetch: wait for a handler to finish. Drained (even if jobs claimed at
      // enqueue fill the slots): poll again later, or when poked.
      if (free === 0 || drained)
        await this.#sleep(this.#drained ? this.#pollingIntervalMs : Infinity);
    }
  }

  async #fetch(batchSize: number): Promise<TakenJob<T>[]> {
    const { rows } = await this.#executeSql(FETCH_STATEMENT, [this.name, batchSize, this.#leaseMs]);
    return (rows as { id: string; data: T; attempts: number; retry_limit: number }[]).map((r) => ({
      id: r.id,
      data: r.data,
      attempt: r.attempts,
      retryLimit: r.retry_limit,
    }));
  }

  #run(handler: JobHandler<T>, job: TakenJob<T>): void {
    this.#handling += 1;
    this.#held.set(job.id, (this.#held.get(job.id) ?? 0) + 1);
    const running = (async () => {
      let failure: { error: unknown } | undefined;
      this.#inHandler.add(job.id);
      try {
        await handler({
          id: job.id,
          data: job.data,
          attempt: job.attempt,
          maxAttempts: job.retryLimit + 1,
        });
      } catch (error) {
        failure = { error };
      } finally {
        this.#inHandler.delete(job.id);
        // The slot is free once the handler is done; its completion is written meanwhile.
        this.#handling -= 1;
        this.#slotFreed();
      }
      try {
        // Handed back at the stop's grace: another consumer has it now.
        if (this.#handedBack.has(job.id)) return;
        if (failure) await this.#fail(job.id, failure.error);
        else await this.#complete(job.id);
      } catch (error) {
        // The job stays active until its lease lapses, and is then taken again: at least once.
        this.#onError(error);
      } finally {
        const runs = this.#held.get(job.id)! - 1;
        if (runs > 0) this.#held.set(job.id, runs);
        else this.#held.delete(job.id);
      }
    })().finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /**
   * Active jobs of this instance back to the queue, due at once for any consumer: `ran` says
   * whether their handlers started (the attempt then counts, as for a lapsed lease). A failure
   * is reported; the jobs then come back when their leases lapse.
   */
  async #handBack(ids: string[], ran: boolean): Promise<void> {
    try {
      await this.#executeSql(HAND_BACK_STATEMENT, [this.name, ids, ran, RETENTION.failedSeconds]);
    } catch (error) {
      this.#onError(error);
    }
  }

  /** The attempt failed: the job waits its backoff for the next one, or ends failed. */
  async #fail(id: string, error: unknown): Promise<void> {
    await this.#executeSql(FAIL_STATEMENT, [
      this.name,
      id,
      errorText(error),
      RETENTION.failedSeconds,
    ]);
  }

  /**
   * One statement: renews the leases of the jobs held here, returns to the queue the jobs whose
   * lease lapsed (their process is gone), and deletes finished jobs past their retention. Any
   * consumer of the queue does it; `SKIP LOCKED` keeps them out of each other's way.
   */
  #runUpkeep(): void {
    if (this.#upkeep) return;
    this.#upkeep = (async () => {
      try {
        const { rows } = await this.#executeSql(UPKEEP_STATEMENT, [
          this.name,
          [...this.#held.keys()],
          this.#leaseMs,
          RETENTION.failedSeconds,
          PURGE_BATCH,
        ]);
        const [done] = rows as { reclaimed: number }[];
        if (done && done.reclaimed > 0) {
          this.#drained = false;
          this.#poke();
        }
      } catch (error) {
        this.#onError(error);
      } finally {
        this.#upkeep = undefined;
      }
    })();
  }

  /**
   * A free slot is worth a fetch only if jobs may be waiting: the last fetch filled every
   * slot. Otherwise the queue was empty then, and what came since woke the consumer itself
   * (an enqueue here) or is found at the next poll (one elsewhere); a fetch after every job
   * would double the fetches, each a statement of its own, whenever the worker keeps up. With
   * a backlog, one fetch fills a quarter of the slots rather than one at a time.
   */
  #slotFreed(): void {
    if (!this.#drained && this.#consumingWith - this.#handling >= this.#refillAt) this.#poke();
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken || this.#stopping) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      if (Number.isFinite(ms)) timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }

  /** Makes the consumer look again now (a job was enqueued here, or a slot came free). */
  #poke(): void {
    this.#woken = true;
    this.#wake?.();
  }

  // Handlers still running during stop() may enqueue (the engine queues a workflow's next
  // step from inside a handler); only a stopped instance refuses.
  #assertOpen(): void {
    if (this.#stopped) throw new Error(`queue "${this.name}" is stopped`);
  }
}

/**
 * 10 s: a killed process's jobs run again within about 12 s (the lease, then the next upkeep
 * of a live consumer), and a live one keeps its jobs unless it cannot reach the database for
 * 8 s (its renewals come every 2 s).
 */
const DEFAULT_LEASE_MS = 10_000;
const UPKEEPS_PER_LEASE = 5;
/** Finished jobs deleted per upkeep at most: 2,500 a second at one upkeep every 2 s. */
const PURGE_BATCH = 5000;

/**
 * Completions wait this long for others to go with them in one statement. A job completes
 * after its handler's work is done, so nobody waits on it; a crash in the window leaves the
 * job active, to run again when its lease lapses, as a crash during the handler would.
 */
const COMPLETE_LINGER_MS = 20;

/** A job as `INSERT_STATEMENT` reads it (`jsonb_to_recordset`). */
interface InsertRow {
  id: string;
  data: unknown;
  delay_ms: number;
  retry_limit: number;
  backoff_ms: number;
  backoff_exponential: boolean;
  /** Inserted active, taken by this instance. */
  claim: boolean;
}

/**
 * Stores jobs (a JSON array of `InsertRow`) in the queue `$1`. A job to claim is inserted
 * active, its first attempt started now under a lease of `$3` ms, as a fetch leaves it. A job
 * whose id exists is kept as it is (a dedupe key held). Answers the jobs inserted.
 */
const INSERT_STATEMENT = `
  insert into sino.queue_jobs (queue, id, data, state, start_after, attempts, retry_limit,
    backoff_ms, backoff_exponential, started_at, locked_until)
  select $1, j.id, j.data,
    case when j.claim then 'active' else 'waiting' end,
    now() + j.delay_ms * interval '1 millisecond',
    case when j.claim then 1 else 0 end,
    j.retry_limit, j.backoff_ms, j.backoff_exponential,
    case when j.claim then now() end,
    case when j.claim then now() + $3 * interval '1 millisecond' end
  from jsonb_to_recordset($2::jsonb) as j (id uuid, data jsonb, delay_ms double precision,
    retry_limit int, backoff_ms bigint, backoff_exponential bool, claim bool)
  on conflict do nothing
  returning id, state = 'active' as claimed`;

/** The next due jobs, taken under a lease (`sino.queue_fetch`, migration 0002). */
const FETCH_STATEMENT = 'select * from sino.queue_fetch($1, $2, $3)';
/** Active jobs completed, kept for their retention (`sino.queue_complete`). */
const COMPLETE_STATEMENT = 'select sino.queue_complete($1, $2::uuid[], $3)';
/** Lease renewal, lapsed leases, retention (`sino.queue_upkeep`). */
const UPKEEP_STATEMENT = 'select * from sino.queue_upkeep($1, $2::uuid[], $3, $4, $5)';

/**
 * The queue's unfinished jobs by state, and the seconds since the oldest waiting job fell due
 * (by the database clock, as the fetch goes). Each part reads a partial index (`queue_jobs_due`,
 * `queue_jobs_lease`): no finished job is read, however many are kept.
 */
const STATS_STATEMENT = `
  select
    (select count(*) from sino.queue_jobs
      where queue = $1 and state = 'waiting' and start_after <= now())::int as waiting,
    (select count(*) from sino.queue_jobs
      where queue = $1 and state = 'waiting' and start_after > now())::int as delayed,
    (select count(*) from sino.queue_jobs where queue = $1 and state = 'active')::int as active,
    extract(epoch from now() - (select min(start_after) from sino.queue_jobs
      where queue = $1 and state = 'waiting' and start_after <= now()))::float8
      as "oldestWaitingSeconds"`;

/**
 * A failed attempt of an active job: it waits its backoff for the next attempt (fixed, or
 * doubling from the second retry on), or, with no retry left, ends failed and is kept `$4`
 * seconds. One job by primary key, so a cached plan cannot go astray.
 *
 * A statement that names its jobs by id tests their state as `(state = …) is true`: the same for
 * a NOT NULL column, but it matches no partial index, so the planner takes the primary key
 * instead of reading every active (or waiting) job through `queue_jobs_lease` (`_due`),
 * which it otherwise prefers whatever its statistics say (decision 040, migration 0008).
 */
const FAIL_STATEMENT = `
  update sino.queue_jobs set
    state = case when attempts <= retry_limit then 'waiting' else 'failed' end,
    start_after = case when attempts <= retry_limit
      then now() + least(
        case when backoff_exponential then backoff_ms * power(2, attempts - 1) else backoff_ms end,
        ${365 * 24 * 60 * 60 * 1000}) * interval '1 millisecond'
      else start_after end,
    locked_until = null,
    last_error = $3,
    finished_at = case when attempts > retry_limit then now() end,
    keep_until = case when attempts > retry_limit then now() + $4 * interval '1 second' end
  where queue = $1 and id = $2 and (state = 'active') is true`;

/**
 * Active jobs `$2` of queue `$1` back to waiting, at their old due time (ahead of later jobs).
 * `$3` false: never started here, the attempt is taken back. `$3` true: their handlers ran and
 * the attempt counts, as a lapsed lease's does; with no retry left the job ends failed.
 */
const HAND_BACK_STATEMENT = `
  update sino.queue_jobs set
    state = case when not $3 or attempts <= retry_limit then 'waiting' else 'failed' end,
    attempts = case when $3 then attempts else attempts - 1 end,
    locked_until = null,
    started_at = case when $3 then started_at end,
    last_error = case when $3
      then 'handed back: the process running the job was stopping' else last_error end,
    finished_at = case when $3 and attempts > retry_limit then now() end,
    keep_until = case when $3 and attempts > retry_limit
      then now() + $4 * interval '1 second' end
  where queue = $1 and id = any($2::uuid[]) and (state = 'active') is true`;

/** A job not started yet, removed (a running one finishes). */
const CANCEL_STATEMENT = `
  delete from sino.queue_jobs where queue = $1 and id = $2 and (state = 'waiting') is true
  returning id`;

/** The statements that name their jobs by id, for the test that reads their plans. */
export const JOB_BY_ID_STATEMENTS = {
  fail: FAIL_STATEMENT,
  handBack: HAND_BACK_STATEMENT,
  cancel: CANCEL_STATEMENT,
} as const;

/** What is kept of a failed attempt's error: its message, for whoever looks at the job. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

function checkMs(name: string, ms: number): number {
  if (!Number.isFinite(ms) || ms < 1) throw new RangeError(`${name} must be >= 1, got ${ms}`);
  return ms;
}
