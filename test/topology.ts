import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { startCluster, type Cluster } from '../scripts/cluster.mjs';

/**
 * Where the integration suites run their server (decisions 039 and 041): `one` (the default)
 * builds the app in the test's process and calls it through `inject`; `cluster` starts it as
 * 2 api + 2 ws + 2 worker processes on one PostgreSQL and one Redis behind the local balancer
 * of scripts/cluster.mjs; `halves` as Sino alone and Locadora with SINO_URL, two processes.
 * TEST_TOPOLOGY names it for Sino's and Locadora's suites alike; TEST_SINO_TOPOLOGY, its
 * first name (the Novu suites), is still read.
 */
export type Topology = 'one' | 'cluster' | 'halves';

function topologyOf(value: string | undefined): Topology {
  const given = value ?? 'one';
  if (given === 'one' || given === 'cluster' || given === 'halves') return given;
  throw new Error(`TEST_TOPOLOGY must be one, cluster or halves, not ${given}`);
}

export const topology: Topology = topologyOf(
  process.env.TEST_TOPOLOGY || process.env.TEST_SINO_TOPOLOGY || undefined,
);
/** The server runs as processes of its own: only what crosses HTTP and the database is shared. */
export const apart = topology !== 'one';
/** Processes that run the queue's workers (scripts/cluster.mjs starts two on a cluster). */
export const workerProcesses = topology === 'cluster' ? 2 : 1;

/** A cookie of an answer, as light-my-request lists them. */
export interface AnswerCookie {
  name: string;
  value: string;
  [attribute: string]: unknown;
}

/** An HTTP answer read as the test app's `inject` answers (light-my-request's fields). */
export interface Answer {
  statusCode: number;
  body: string;
  rawPayload: Buffer;
  headers: Record<string, string | string[]>;
  cookies: AnswerCookie[];
  json<T = unknown>(): T;
}

function cookieOf(line: string): AnswerCookie {
  const [pair = '', ...attributes] = line.split(';');
  const at = pair.indexOf('=');
  const cookie: AnswerCookie = { name: pair.slice(0, at).trim(), value: pair.slice(at + 1) };
  for (const attribute of attributes) {
    const [key = '', value] = attribute.split('=');
    const name = key.trim().toLowerCase();
    if (name === 'max-age') cookie.maxAge = Number(value);
    else if (name === 'httponly') cookie.httpOnly = true;
    else if (name) cookie[name] = value?.trim() ?? true;
  }
  return cookie;
}

/** How `fetch` answered, read as `inject` answers. */
export async function answerOf(response: Response): Promise<Answer> {
  const raw = Buffer.from(await response.arrayBuffer());
  const body = raw.toString('utf8');
  const headers: Answer['headers'] = Object.fromEntries(response.headers);
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 1) headers['set-cookie'] = setCookies;
  return {
    statusCode: response.status,
    body,
    rawPayload: raw,
    headers,
    cookies: setCookies.map(cookieOf),
    json: <T>() => JSON.parse(body) as T,
  };
}

/** The part of light-my-request's options the suites use. */
export interface InjectOptions {
  method?: string;
  url: string;
  headers?: Record<string, string | undefined>;
  query?: Record<string, string | string[]>;
  payload?: unknown;
  /** The client's address: sent as X-Forwarded-For, which the nodes trust (TRUST_PROXY). */
  remoteAddress?: string;
}

/**
 * `inject` over HTTP to `base`: an object payload is sent as JSON, as light-my-request does;
 * a string or a Buffer as it is.
 */
export async function injectOver(base: string, options: InjectOptions | string): Promise<Answer> {
  const {
    method = 'GET',
    url,
    headers = {},
    query,
    payload,
    remoteAddress,
  } = typeof options === 'string' ? { url: options } : options;
  const target = new URL(url, base);
  for (const [key, value] of Object.entries(query ?? {}))
    for (const one of Array.isArray(value) ? value : [value]) target.searchParams.append(key, one);
  const sent: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) sent[key] = value;
  if (remoteAddress) sent['x-forwarded-for'] = remoteAddress;
  // fetch cannot set Host: a Host given goes as X-Forwarded-Host, which the balancer keeps and
  // the nodes trust (a signed callback's URL is read from it).
  for (const key of Object.keys(sent))
    if (key.toLowerCase() === 'host') {
      sent['x-forwarded-host'] = sent[key]!;
      delete sent[key];
    }
  let body: string | Buffer | undefined;
  // fetch sends no body with GET or HEAD (light-my-request does; the routes read none).
  if (method === 'GET' || method === 'HEAD') body = undefined;
  else if (typeof payload === 'string' || Buffer.isBuffer(payload)) body = payload;
  else if (payload !== undefined) {
    body = JSON.stringify(payload);
    if (!Object.keys(sent).some((k) => k.toLowerCase() === 'content-type'))
      sent['content-type'] = 'application/json';
  }
  return answerOf(
    await fetch(target, {
      method,
      headers: sent,
      redirect: 'manual',
      ...(body !== undefined && { body: new Uint8Array(Buffer.from(body)) }),
    }),
  );
}

export interface TestCluster {
  /** The balancer. */
  url: string;
  cluster: Cluster;
  /** The database every node uses (Locadora's, in `halves`: Sino's is the same one). */
  databaseUrl: string;
  /** A handle of the test's own on that database. */
  database: DatabaseHandle;
  /** Every line every node printed so far. */
  logs: string[];
  /** The run's log, scanned for secrets at the end (testRunLog). */
  runLog: ReturnType<typeof testRunLog>;
  inject(options: InjectOptions | string): Promise<Answer>;
  /** Stops every node and drops the database (unless it was given). */
  close(): Promise<void>;
}

/**
 * The whole server as processes of `topology` (cluster or halves) on a fresh database of
 * TEST_DATABASE_URL (`cluster` on TEST_SINO_REDIS_URL's Redis too), behind the balancer; nodes
 * see `env` beside what the launcher sets, and no demo accounts unless `env` asks for them.
 */
export async function startTestCluster(
  options: {
    env?: Record<string, string>;
    /** The URL the nodes are given for the test database (through a proxy, say). */
    databaseVia?: (url: string) => string;
    /** The queue's and rate limits' Redis prefix (the caller removes its keys). */
    redisPrefix?: string;
    /**
     * A fake clock: every node's `Date` answers what it says, read before each request
     * (test/support/shared-clock.mjs); the real clock until the first request.
     */
    clock?: () => Date;
  } = {},
): Promise<TestCluster> {
  if (topology === 'one') throw new Error('startTestCluster needs TEST_TOPOLOGY=cluster|halves');
  const testDatabase = await createTestDatabase();
  if (!testDatabase.url) throw new Error(`TEST_TOPOLOGY=${topology} needs TEST_DATABASE_URL`);
  const databaseUrl = testDatabase.url;
  const runLog = testRunLog();
  const logs: string[] = [];
  const clock = options.clock && sharedClock(options.clock);
  const cluster = await startCluster({
    topology,
    databaseUrl: options.databaseVia ? options.databaseVia(databaseUrl) : databaseUrl,
    // A REDIS_URL the test gives (a proxy it controls, say) is the cluster's Redis.
    redisUrl:
      topology === 'cluster'
        ? (options.env?.REDIS_URL ??
          process.env.TEST_SINO_REDIS_URL ??
          process.env.TEST_REDIS_URL ??
          'redis://127.0.0.1:6379')
        : undefined,
    ...(options.redisPrefix && { redisPrefix: options.redisPrefix }),
    ...(clock && { clockFile: clock.file }),
    inheritEnv: false,
    env: { LOG_LEVEL: 'info', SEED_DEMO_ACCOUNTS: 'false', ...options.env },
    onLine(_node, line) {
      logs.push(line);
      runLog.write(`${line}\n`);
    },
  }).catch(async (error: unknown) => {
    runLog.close();
    clock?.remove();
    await testDatabase.drop();
    throw error;
  });
  runLog.knownSecrets('secret', Object.values(cluster.secrets));
  const database = await openDatabase({ url: databaseUrl });
  return {
    url: cluster.url,
    cluster,
    databaseUrl,
    database,
    logs,
    runLog,
    inject(injected) {
      clock?.write();
      return injectOver(cluster.url, injected);
    },
    async close() {
      await database.close();
      await cluster.close();
      runLog.close();
      clock?.remove();
      await testDatabase.drop();
    },
  };
}

/**
 * The file a fake clock is shared through: `write` puts the clock's instant in it when it
 * changed, whole (a rename, so a node never reads half of it).
 */
function sharedClock(clock: () => Date) {
  const folder = mkdtempSync(join(tmpdir(), 'shared-clock-'));
  const file = join(folder, 'now');
  let written: number | undefined;
  return {
    file,
    write() {
      const instant = clock().getTime();
      if (instant === written) return;
      writeFileSync(`${file}.next`, String(instant));
      renameSync(`${file}.next`, file);
      written = instant;
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * What stands for the Fastify app of a cluster: `inject` over HTTP to the balancer, nothing
 * else (the processes' internals are out of reach); any other member throws, naming the test
 * to mark as one-process only.
 */
export function appOverHttp<T extends object>(
  inject: (options: InjectOptions | string) => Promise<Answer>,
): T {
  return new Proxy({ inject } as object, {
    get(target, key) {
      if (key === 'inject') return inject;
      if (key === 'then' || typeof key === 'symbol') return undefined;
      throw new Error(
        `app.${String(key)} is not available with TEST_TOPOLOGY=${topology}: the server runs in other processes; mark the test as one-process only, with its reason`,
      );
    },
  }) as T;
}
