import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { holdFolder } from './folder-lock.js';
import { PreparingClient } from './preparing-client.js';
import { reportQueryFailuresWithoutData, toQueryError } from './errors.js';
import { releaseConnectionsOfFailedTransactions } from './transactions.js';

/** The Drizzle database both drivers expose; repositories depend on this, never on a driver. */
export type Database = PgDatabase<PgQueryResultHKT, Record<string, never>>;

/** One half's migrations: its folder of SQL files and the Postgres schema that records them. */
export interface Migrations {
  folder: string;
  schema: string;
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string. When absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  /** Largest number of pooled connections to PostgreSQL. */
  poolMax?: number;
  /**
   * How long to wait for a PostgreSQL connection (opening one, or a free one of the pool)
   * before failing; without it a server that accepts but never answers hangs the caller.
   */
  connectTimeoutMs?: number;
  /**
   * How long a statement may run, or wait for its answer, before it fails: PostgreSQL cancels
   * it (`statement_timeout`), and a connection whose answer does not come in that time (a
   * stalled server or network) is closed. Migrations are not limited. 0 turns it off.
   */
  statementTimeoutMs?: number;
}

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Applies the given migrations in order; safe when several processes start at once. */
  migrate(migrations: Migrations[]): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Runs raw SQL outside Drizzle: statements of several commands, or text built at run time (the queue).
   * With `values` the text is one statement with `$1...` parameters; without, it may hold
   * several statements (an explicit `BEGIN ... COMMIT` included) and the last one's rows are
   * answered. A failed multi-statement text never leaves its connection inside a transaction.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Calls `onNotify` on each `NOTIFY` of `channel` (a plain identifier) with its payload: a
   * transaction's notifications arrive when it commits, never when it rolls back. Delivery is a
   * hint, not a guarantee (a PostgreSQL listener that lost its connection misses what was sent
   * until it is back, and is then called once without a payload: anything may have been
   * missed), so a listener still polls now and then. Resolves to a function that stops it.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>>;
  /**
   * Runs `task` while holding the lock named `key`, waiting for it as long as another holder
   * runs: on PostgreSQL a session advisory lock on a connection of its own, so processes
   * sharing the database take turns (a first start's bootstrap); on PGlite, whose one
   * connection belongs to this process (an advisory lock there is re-entrant, so it would let
   * every caller in), a queue in this process. A holder that dies releases it with its session.
   */
  exclusive<T>(key: number, task: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notification channel "${channel}"`);
}

// Any constant works; it only has to be the same for every process of the product.
const MIGRATION_LOCK_KEY = 727_001;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  // Every failed statement answers a QueryError: no SQL text, parameters or values (errors.ts).
  reportQueryFailuresWithoutData();
  releaseConnectionsOfFailedTransactions();
  const handle = await (options.url
    ? openPostgres(options.url, {
        poolMax: options.poolMax ?? 10,
        connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
        statementTimeoutMs: options.statementTimeoutMs ?? 5_000,
      })
    : openPglite(options.dataDir ?? 'memory://'));
  const { executeSql } = handle;
  handle.executeSql = (text, values) =>
    executeSql(text, values).catch((error: unknown) => {
      throw toQueryError(error);
    });
  return handle;
}

/** A lock of this process: callers of one key run one after the other, in order. */
function processLocks(): DatabaseHandle['exclusive'] {
  const tails = new Map<number, Promise<unknown>>();
  return async (key, task) => {
    const before = tails.get(key) ?? Promise.resolve();
    const run = before.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  let release = async () => {};
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    // One process at a time: a second would corrupt the folder (folder-lock.ts).
    release = await holdFolder(dataDir);
  }
  const client = await PGlite.create(dataDir).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const db = drizzlePglite(client);
  const exclusive = processLocks();
  return {
    exclusive,
    db: db as unknown as Database,
    driver: 'pglite',
    // PGlite is one connection of this process: servers of this process sharing it (tests
    // that start several at once) take turns.
    migrate: (migrations) =>
      exclusive(MIGRATION_LOCK_KEY, async () => {
        for (const m of migrations) {
          await migratePglite(db, { migrationsFolder: m.folder, migrationsSchema: m.schema });
        }
      }),
    ping: () => pingWith(() => client.query('select 1')),
    async executeSql(text, values) {
      if (values?.length) {
        // node-postgres sends undefined parameters as NULL; PGlite is given the same.
        const result = await client.query(
          text,
          values.map((v) => (v === undefined ? null : v)),
        );
        return { rows: result.rows };
      }
      try {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      } catch (error) {
        // The one connection is shared by the whole process: an error inside the text's own
        // BEGIN would leave every later query failing with "current transaction is aborted".
        if (client.isInTransaction()) await client.exec('rollback');
        throw error;
      }
    },
    async listen(channel, onNotify) {
      checkChannel(channel);
      const stop = await client.listen(channel, (payload) => onNotify(payload));
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async close() {
      await client.close();
      await release();
    },
  };
}

/**
 * LISTEN on a connection of its own (not the pool's: it stays open for as long as the
 * listener), opened again after a lost connection, with a pause that doubles up to 30 s.
 */
async function listenOnPostgres(
  url: string,
  connectTimeoutMs: number,
  channel: string,
  onNotify: (payload?: string) => void,
): Promise<() => Promise<void>> {
  checkChannel(channel);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pause = 1000;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectTimeoutMs,
    });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    next.on('error', () => reconnect(next));
    next.on('end', () => reconnect(next));
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    pause = 1000;
  };
  const reconnect = (lost: pg.Client) => {
    if (stopped || lost !== client || retry) return;
    client = undefined;
    lost.end().catch(() => {});
    const again = () => {
      retry = setTimeout(() => {
        retry = undefined;
        if (stopped) return;
        connect().catch(() => {
          pause = Math.min(pause * 2, 30_000);
          again();
        });
      }, pause);
      retry.unref();
    };
    // Whatever was notified meanwhile is missed: one call makes the listener look now.
    onNotify();
    again();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
    client = undefined;
  };
}

async function openPostgres(
  url: string,
  {
    poolMax,
    connectTimeoutMs,
    statementTimeoutMs,
  }: { poolMax: number; connectTimeoutMs: number; statementTimeoutMs: number },
): Promise<DatabaseHandle> {
  // Idle connections are kept (at most `poolMax`): closing them after pg's default 10 s meant
  // every burst of traffic paid for new backends (fork, catalogue caches, statements prepared
  // again) while holding locks, which showed as periodic 50 ms stalls in bench/locacoes.ts.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    idleTimeoutMillis: 0,
    // Both the wait for a new connection and the wait for a free one of the pool.
    connectionTimeoutMillis: connectTimeoutMs,
    // The server cancels a statement that runs too long; the client gives up on an answer
    // that does not come (PreparingClient then closes that connection).
    ...(statementTimeoutMs > 0 && {
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs,
    }),
    // A kept connection whose server vanished (host down, network cut) is found out by the
    // system's keep-alive probes instead of at its next statement.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    Client: PreparingClient,
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = drizzlePg(pool);
  return {
    db: db as unknown as Database,
    driver: 'postgres',
    exclusive: (key, task) => withAdvisoryLock(url, connectTimeoutMs, key, () => task()),
    async migrate(migrations) {
      // Concurrent starts are serialised; the migrations run on the lock's own connection.
      await withAdvisoryLock(url, connectTimeoutMs, MIGRATION_LOCK_KEY, async (lockClient) => {
        const migrating = drizzlePg(lockClient);
        for (const m of migrations) {
          await migratePg(migrating, { migrationsFolder: m.folder, migrationsSchema: m.schema });
        }
      });
    },
    ping: () => pingWith(() => db.execute(sql`select 1`)),
    async executeSql(text, values) {
      if (values?.length) {
        const result = await pool.query(text, values);
        return { rows: result.rows };
      }
      // Several statements answer one result each; the connection is held so that a failure
      // inside the text's own BEGIN is rolled back before it returns to the pool.
      const connection = await pool.connect();
      let broken = false;
      try {
        const result: pg.QueryResult | pg.QueryResult[] = await connection.query(text);
        return { rows: (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [] };
      } catch (error) {
        await connection.query('rollback').catch(() => (broken = true));
        throw error;
      } finally {
        // A connection that cannot even roll back is discarded rather than pooled.
        connection.release(broken);
      }
    },
    listen: (channel, onNotify) => listenOnPostgres(url, connectTimeoutMs, channel, onNotify),
    close: () => pool.end(),
  };
}

/**
 * Runs `task` holding a session-level advisory lock on a dedicated connection. That connection
 * has no statement timeout: a holder may take a while (a migration rewriting a large table, a
 * start writing workflows through Sino's API), and the waiters wait that long.
 */
async function withAdvisoryLock<T>(
  url: string,
  connectTimeoutMs: number,
  key: number,
  task: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const lockClient = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  lockClient.on('error', () => {});
  await lockClient.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [key]);
    return await task(lockClient);
  } finally {
    // Closing the session releases the lock, whether the unlock ran or not.
    await lockClient.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
    await lockClient.end().catch(() => {});
  }
}

async function pingWith(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
