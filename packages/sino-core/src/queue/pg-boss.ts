import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '@locadora/db';
import { groupCommit } from '../batching.js';
import {
  checkConcurrency,
  checkQueueName,
  checkRetryPolicy,
  resolveEnqueue,
  type QueueSettings,
} from './options.js';
import {
  DEFAULT_RETRY,
  RETENTION,
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  type QueueJobState,
  type RetryPolicy,
  type WorkOptions,
} from './port.js';

/** The Postgres schema pg-boss creates and migrates for itself (Sino's tables are in `sino`). */
export const PG_BOSS_SCHEMA = 'sino_queue';

export interface PgBossQueueOptions extends QueueSettings {
  /** The product's database; only its raw executor is used, on PGlite and PostgreSQL alike. */
  database: Pick<DatabaseHandle, 'executeSql'>;
  /**
   * How long an idle consumer waits before looking for due jobs again; 500 ms when absent.
   * An enqueue in the same instance wakes its consumer at once, so this bounds the pickup
   * latency of jobs enqueued elsewhere, delays that fall due, and retries.
   */
  pollingIntervalMs?: number;
  /**
   * A job active for longer is taken for abandoned by a dead process and failed (into a retry)
   * by the maintenance run; 15 minutes when absent. Handlers must finish well within it.
   */
  expireInSeconds?: number;
}

/** A job the consumer took: active until completed or failed. */
interface FetchedJob<T> {
  id: string;
  data: T;
  retryCount: number;
  retryLimit: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The queue on pg-boss, in the product's own database: PGlite in one process, or PostgreSQL
 * shared by many. pg-boss owns the schema `sino_queue` (created and migrated at open), its
 * job table, failures with their retries, and maintenance (expiry, archiving). The consumer
 * loop is ours: pg-boss's `work()` polls at most every 500 ms and sleeps the whole interval
 * even after it found a job, which caps a worker at two jobs a second. So are the insert,
 * the fetch and the completion, each one statement on pg-boss's table (decisions 014, 015).
 *
 * On PGlite, never call the queue inside a Drizzle transaction callback: the transaction
 * holds the one connection the queue's statement then waits for, a deadlock.
 */
export async function openPgBossQueue<T>(options: PgBossQueueOptions): Promise<JobQueue<T>> {
  const name = checkQueueName(options.name);
  const retry = checkRetryPolicy(options.retry ?? DEFAULT_RETRY);
  const pollingIntervalMs = options.pollingIntervalMs ?? 500;
  if (!Number.isFinite(pollingIntervalMs) || pollingIntervalMs < 1) {
    throw new RangeError(`pollingIntervalMs must be >= 1, got ${pollingIntervalMs}`);
  }
  const expireInSeconds = options.expireInSeconds ?? 15 * 60;
  const { database } = options;
  const executeSql: PgBossQueueOptions['database']['executeSql'] = (text, values) =>
    database.executeSql(text, values);
  const boss = new PgBoss({
    db: { executeSql },
    schema: PG_BOSS_SCHEMA,
    // Cron schedules are not used; without them pg-boss starts no worker of its own.
    schedule: false,
    expireInSeconds,
    archiveCompletedAfterSeconds: RETENTION.completedSeconds,
    archiveFailedAfterSeconds: RETENTION.failedSeconds,
  });
  // pg-boss emits maintenance failures; an EventEmitter without an 'error' listener throws.
  boss.on('error', (error) => options.onError(error));
  await boss.start();
  if (!(await boss.getQueue(name))) await createQueue(executeSql, name);
  await installQueueStatements(executeSql);
  return new PgBossJobQueue<T>(
    name,
    boss,
    executeSql,
    retry,
    pollingIntervalMs,
    options.onError,
    expireInSeconds,
  );
}

class PgBossJobQueue<T> implements JobQueue<T> {
  readonly #boss: PgBoss;
  readonly #executeSql: PgBossQueueOptions['database']['executeSql'];
  readonly #retry: RetryPolicy;
  readonly #pollingIntervalMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #expireInSeconds: number;
  /** Handlers with their completions: stop() waits for them. */
  readonly #running = new Set<Promise<void>>();
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
  /** Completions of the jobs that finished meanwhile go in one statement (group commit). */
  readonly #complete = groupCommit(
    async (ids: readonly string[]) => {
      await this.#executeSql(`select ${COMPLETE_FUNCTION}($1, $2::uuid[])`, [this.name, [...ids]]);
      return ids.map(() => undefined);
    },
    { lingerMs: COMPLETE_LINGER_MS },
  );

  constructor(
    readonly name: string,
    boss: PgBoss,
    executeSql: PgBossQueueOptions['database']['executeSql'],
    retry: RetryPolicy,
    pollingIntervalMs: number,
    onError: (error: unknown) => void,
    expireInSeconds: number,
  ) {
    this.#expireInSeconds = expireInSeconds;
    this.#boss = boss;
    this.#executeSql = executeSql;
    this.#retry = retry;
    this.#pollingIntervalMs = pollingIntervalMs;
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
    const rows = jobs.map(({ data, options = {} }) => {
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
        delay_seconds: job.delayMs / 1000,
        retry_limit: job.retryLimit,
        // pg-boss works in whole seconds, and raises an exponential delay of 0 to 1 s; no
        // delay means no backoff at all.
        retry_delay: Math.ceil(job.backoff.delayMs / 1000),
        retry_backoff: job.backoff.type === 'exponential' && job.backoff.delayMs > 0,
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
        this.#expireInSeconds,
      ]);
      claimed = new Set(
        (inserted as { id: string; claimed: boolean }[]).filter((r) => r.claimed).map((r) => r.id),
      );
    } finally {
      this.#reserved -= claims;
    }
    for (const row of rows) {
      if (!claimed.has(row.id)) continue;
      // The handler is given the data as the store answers it: parsed JSON.
      this.#run(this.#handler!, {
        id: row.id,
        data: JSON.parse(JSON.stringify(row.data)) as T,
        retryCount: 0,
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
    // pg-boss's own cancel() also "cancels" running jobs, which would then run to completion
    // anyway; only jobs that have not started are deleted. States are ordered: created < retry
    // < active, as pg-boss's own queries rely on.
    const { rows } = await this.#executeSql(
      `delete from ${PG_BOSS_SCHEMA}.job where name = $1 and id = $2 and state < 'active' returning id`,
      [this.name, jobId],
    );
    return rows.length > 0;
  }

  async getState(jobId: string): Promise<QueueJobState | null> {
    this.#assertOpen();
    if (!UUID.test(jobId)) return null;
    const { rows } = await this.#executeSql(
      `select state::text as state, start_after > now() as later
         from ${PG_BOSS_SCHEMA}.job where name = $1 and id = $2`,
      [this.name, jobId],
    );
    const row = rows[0] as { state: string; later: boolean } | undefined;
    switch (row?.state) {
      case 'created':
      case 'retry':
        return row.later ? 'delayed' : 'waiting';
      case 'active':
      case 'completed':
      case 'failed':
        return row.state;
      default:
        return null;
    }
  }

  async work(handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    if (this.#stopping) throw new Error(`queue "${this.name}" is stopped`);
    if (this.#consuming) throw new Error(`queue "${this.name}" is already being worked`);
    const concurrency = checkConcurrency(options);
    this.#consumingWith = concurrency;
    this.#handler = handler;
    this.#refillAt = Math.ceil(concurrency / 4);
    this.#consuming = this.#consume(handler, concurrency);
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#poke();
      await this.#consuming;
      // Jobs inserted active for this instance run like fetched ones, even after stop().
      await Promise.allSettled(this.#claiming);
      await Promise.all(this.#running);
      // Nothing of pg-boss's is in flight any more; the database handle is the caller's.
      await this.#boss.stop({ graceful: false, close: false });
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
          (error: unknown) => (this.#onError(error), [] as FetchedJob<T>[]),
        );
        // Fetched jobs are active already: they run even when stop() came meanwhile.
        for (const job of jobs) this.#run(handler, job);
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

  async #fetch(batchSize: number): Promise<FetchedJob<T>[]> {
    const { rows } = await this.#executeSql(`select * from ${FETCH_FUNCTION}($1, $2)`, [
      this.name,
      batchSize,
    ]);
    return (rows as { id: string; data: T; retry_count: number; retry_limit: number }[]).map(
      (r) => ({ id: r.id, data: r.data, retryCount: r.retry_count, retryLimit: r.retry_limit }),
    );
  }

  #run(handler: JobHandler<T>, job: FetchedJob<T>): void {
    this.#handling += 1;
    const running = (async () => {
      let failure: { error: unknown } | undefined;
      try {
        await handler({
          id: job.id,
          data: job.data,
          attempt: job.retryCount + 1,
          maxAttempts: job.retryLimit + 1,
        });
      } catch (error) {
        failure = { error };
      } finally {
        // The slot is free once the handler is done; its completion is written meanwhile.
        this.#handling -= 1;
        this.#slotFreed();
      }
      try {
        if (failure) await this.#boss.fail(this.name, job.id, errorOutput(failure.error));
        else await this.#complete(job.id);
      } catch (error) {
        // The job stays active until it expires, and is then retried: at least once.
        this.#onError(error);
      }
    })().finally(() => this.#running.delete(running));
    this.#running.add(running);
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
 * pg-boss 10's `create_queue()` inserts into its queue table and then adds foreign keys to it
 * in the same transaction, so two processes creating queues at once deadlock (seen here with
 * three; also supabase/storage#703). One creation at a time, under an advisory lock. The name
 * is inlined because a text of several statements takes no parameters; `checkQueueName`
 * allows no quote. The options are those `createQueue(name)` sends.
 */
async function createQueue(
  executeSql: PgBossQueueOptions['database']['executeSql'],
  name: string,
): Promise<void> {
  await executeSql(`
    begin;
    select pg_advisory_xact_lock(hashtext('${PG_BOSS_SCHEMA}.create_queue'));
    select ${PG_BOSS_SCHEMA}.create_queue('${name}', '{"policy": "standard"}');
    commit;
  `);
}

/**
 * pg-boss 10 fetches the next jobs `ORDER BY priority desc, created_on, id` among those due,
 * but its index on waiting jobs is `(name, start_after)`: every fetch reads and sorts every
 * waiting job of the queue. With a backlog of 10,000 jobs, each fetch then costs milliseconds
 * and the worker slows down the longer it falls behind. This index is in the fetch's order,
 * so a fetch reads the few rows it takes.
 *
 * The fetch itself is ours too (`FETCH_FUNCTION`), for one reason: every job fetched leaves
 * behind, in both partial indexes on waiting jobs, an entry for its old row version until
 * vacuum removes it; PostgreSQL reads a few waiting jobs through a bitmap scan, which visits
 * every such dead row at every fetch and never marks it (bench/README.md: 14,400 dead rows
 * after a minute at 200 jobs a second, 4.7 ms a fetch). A plain index scan marks the dead
 * entries it meets, so the next fetch skips them (0.2 ms); the function pins its one statement to
 * a plain index scan (no bitmap scan, and no sequential scan of every job kept), whatever the
 * statistics of the moment would suggest. Otherwise it is pg-boss's fetch for the standard policy, the only
 * one this product creates (no singleton or stately batching).
 *
 * The completion (`COMPLETE_FUNCTION`) is pg-boss's, pinned the same way. Both are also planned
 * at every call (`force_custom_plan`): a plan cached from the first calls, on a queue then
 * empty, read every job of the queue to find the few to complete (3 ms a completion once
 * jobs done piled up), where a plan for the values at hand looks them up by id.
 *
 * Created once, under the lock of queue creation (decision 014).
 */
async function installQueueStatements(executeSql: PgBossQueueOptions['database']['executeSql']) {
  await executeSql(`
    begin;
    select pg_advisory_xact_lock(hashtext('${PG_BOSS_SCHEMA}.create_queue'));
    create index if not exists job_sino_fetch on ${PG_BOSS_SCHEMA}.job
      (name, priority desc, created_on, id) where state < 'active';
    create or replace function ${FETCH_FUNCTION}(queue_name text, batch_size int)
      returns table (id uuid, data jsonb, retry_count int, retry_limit int)
      language plpgsql
      set plan_cache_mode = force_custom_plan
      set enable_indexscan = on
      set enable_bitmapscan = off
      set enable_seqscan = off
    as $fetch$
      #variable_conflict use_column
      begin
        return query
        with next as (
          select j.id from ${PG_BOSS_SCHEMA}.job j
          where j.name = queue_name and j.state < 'active' and j.start_after < now()
          order by j.priority desc, j.created_on, j.id
          limit batch_size
          for update skip locked
        )
        update ${PG_BOSS_SCHEMA}.job j set
          state = 'active',
          started_on = now(),
          retry_count = case when j.started_on is not null then j.retry_count + 1
            else j.retry_count end
        from next
        where j.name = queue_name and j.id = next.id
        returning j.id, j.data, j.retry_count, j.retry_limit;
      end
    $fetch$;
    create or replace function ${COMPLETE_FUNCTION}(queue_name text, ids uuid[])
      returns int
      language plpgsql
      set plan_cache_mode = force_custom_plan
      set enable_indexscan = on
      set enable_bitmapscan = off
      set enable_seqscan = off
    as $complete$
      declare
        completed int;
      begin
        update ${PG_BOSS_SCHEMA}.job j
        set completed_on = now(), state = 'completed', output = null
        where j.name = queue_name and j.id = any(ids) and j.state = 'active';
        get diagnostics completed = row_count;
        return completed;
      end
    $complete$;
    commit;
  `);
}

/** A job as `INSERT_STATEMENT` reads it (`jsonb_to_recordset`). */
interface InsertRow {
  id: string;
  data: unknown;
  delay_seconds: number;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  /** Inserted active, taken by this instance. */
  claim: boolean;
}

/**
 * Stores jobs (a JSON array of `InsertRow`) in the queue `$1`, with the queue's settings as
 * pg-boss's own insert applies them for the standard policy: the expiry of an active job
 * (`$3` seconds unless the queue sets one), how long a job not yet run is kept, its dead
 * letter queue. A job to claim is inserted active, started now, as a fetch leaves it. A job
 * whose id exists is kept as it is (a dedupe key held). Answers the jobs inserted.
 */
const INSERT_STATEMENT = `
  insert into ${PG_BOSS_SCHEMA}.job (id, name, data, state, started_on, start_after,
    expire_in, keep_until, retry_limit, retry_delay, retry_backoff, dead_letter, policy)
  select j.id, q.name, j.data,
    case when j.claim then 'active' else 'created' end::${PG_BOSS_SCHEMA}.job_state,
    case when j.claim then now() end,
    now() + j.delay_seconds * interval '1 second',
    coalesce(q.expire_seconds, $3::int) * interval '1 second',
    now() + j.delay_seconds * interval '1 second'
      + coalesce(q.retention_minutes * interval '1 minute', interval '14 days'),
    j.retry_limit, j.retry_delay, j.retry_backoff, q.dead_letter, q.policy
  from ${PG_BOSS_SCHEMA}.queue q,
    jsonb_to_recordset($2::jsonb) as j (id uuid, data jsonb, delay_seconds numeric,
      retry_limit int, retry_delay int, retry_backoff bool, claim bool)
  where q.name = $1
  on conflict do nothing
  returning id, state = 'active' as claimed`;

/**
 * Completions wait this long for others to go with them in one statement. A job completes
 * after its handler's work is done, so nobody waits on it; a crash in the window leaves the
 * job active, to run again when it expires, as a crash during the handler would.
 */
const COMPLETE_LINGER_MS = 20;

/** Takes the next due jobs of a queue, as pg-boss's fetch does (see `installQueueStatements`). */
const FETCH_FUNCTION = `${PG_BOSS_SCHEMA}.sino_fetch`;
/** Completes active jobs of a queue, as pg-boss's complete does (see `installQueueStatements`). */
const COMPLETE_FUNCTION = `${PG_BOSS_SCHEMA}.sino_complete`;

/** pg-boss stores the failure as the job's output: an object, as it requires. */
function errorOutput(error: unknown): object {
  return error instanceof Error ? error : { value: String(error) };
}
