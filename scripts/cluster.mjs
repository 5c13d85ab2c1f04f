// Locadora + Sino as many processes behind a small local load balancer, for tests and for
// people (decision 039): N api, N ws and N worker processes of the server on one PostgreSQL and
// one Redis (`cluster`), or Locadora and Sino as two processes, Locadora reaching Sino through
// SINO_URL (`halves`). The balancer sends /socket.io/ to the socket nodes and everything else
// to the API nodes, round robin, WebSocket upgrades included; in `halves` /v1/ and /socket.io/
// go to Sino and the rest to Locadora, as a reverse proxy in front of the two would.
//
//   node scripts/cluster.mjs            (npm run cluster)             # the sources, through tsx
//   node scripts/cluster.mjs --built                                  # apps/server/dist
//   options: --api N --ws N --worker N (2 each) | --halves; --port P (8080; nodes on P+1...);
//            --fresh (a new database on DATABASE_URL's server, dropped at the end); --verbose
//
// DATABASE_URL and REDIS_URL come from the environment (`cluster` needs both; `halves` runs on
// PGlite when DATABASE_URL is unset). Ctrl-C stops every process and the balancer.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createProxyServer } from 'http-proxy-3';
import { repositoryRoot } from './build-stamp.mjs';

/**
 * Where the balancer sends a request: `socket` (/socket.io/), `sino` (/v1/) or `app` (the
 * rest: Locadora's API, the web app, /docs, /health).
 * @typedef {'socket' | 'sino' | 'app'} Pool
 */

/**
 * One process of the cluster.
 * @typedef {object} ClusterNode
 * @property {string} name `api-1`, `ws-2`, `worker-1`, `sino`, `locadora`
 * @property {'api' | 'ws' | 'worker' | 'all'} role its ROLE
 * @property {Pool[]} pools the balancer's pools it is in (none for a worker)
 * @property {number} port
 * @property {string} url `http://127.0.0.1:<port>`
 * @property {'starting' | 'up' | 'stopping' | 'down'} state
 * @property {number | undefined} pid
 */

/**
 * @typedef {object} ClusterOptions
 * @property {'cluster' | 'halves'} [topology] `cluster` (the default) or `halves`
 * @property {{ api?: number, ws?: number, worker?: number, all?: number }} [counts] `cluster`
 *   only: 2 each of api, ws and worker, no `all` node (an `all` node is in every pool)
 * @property {number} [port] the balancer's port (0, the default: a free one)
 * @property {number} [firstNodePort] nodes listen from here on (default: free ports)
 * @property {string} [databaseUrl] the PostgreSQL database every node uses (`cluster`: required)
 * @property {string} [sinoDatabaseUrl] `halves`: Sino's database (default: `databaseUrl`)
 * @property {string} [redisUrl] `cluster`: required (socket fan-out, queue, rate limits), unless
 *   the cluster is one `all` node
 * @property {string} [redisPrefix] names this installation on Redis (default: a fresh one)
 * @property {Record<string, string>} [env] more settings for every node (LOG_LEVEL, WEB_DIST_DIR...)
 * @property {Partial<Record<ClusterNode['role'], Record<string, string>>>} [roleEnv] settings for
 *   the nodes of one role, over `env` (a pool size per role)
 * @property {boolean} [inheritEnv] nodes start with this process's environment (default true;
 *   tests give false: a node then sees PATH and the settings above only)
 * @property {boolean} [built] run `apps/server/dist/main.js` instead of the sources (tsx)
 * @property {(node: ClusterNode, line: string) => void} [onLine] each line a node prints
 * @property {number} [readyTimeoutMs] how long a node may take to answer /ready (180 s)
 * @property {string} [clockFile] tests only: every node loads test/support/shared-clock.mjs,
 *   whose `Date` answers the instant the test writes to this file (decision 041)
 */

/**
 * @typedef {object} Cluster
 * @property {string} url the balancer: `http://127.0.0.1:<port>`
 * @property {ClusterNode[]} nodes
 * @property {Record<string, string>} secrets the secrets every node shares (SINO_API_KEY among them)
 * @property {string} redisPrefix
 * @property {(name: string) => ClusterNode} node
 * @property {(name: string, signal?: NodeJS.Signals) => Promise<void>} kill sends the signal
 *   (SIGKILL by default) and waits for the process to end
 * @property {(name: string) => Promise<void>} stop a graceful stop (SIGTERM), waited for
 * @property {(name: string) => Promise<void>} start starts a stopped node again, until ready
 * @property {() => Map<string, number>} openSockets WebSocket connections open through the
 *   balancer, per node name
 * @property {() => Promise<void>} close stops every node (SIGTERM, then SIGKILL) and the balancer
 */

const SECRET_NAMES = [
  'JWT_SECRET',
  'SINO_WIDGET_JWT_SECRET',
  'SINO_ENCRYPTION_KEY',
  'SINO_API_KEY',
];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Deletes the keys under `prefix` (the queue's and the rate limits').
 * @param {string} url
 * @param {string} prefix
 */
async function removeRedisKeys(url, prefix) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A port nobody listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * The processes of a topology, with their settings of their own.
 * @param {'cluster' | 'halves'} topology
 * @param {{ api?: number, ws?: number, worker?: number, all?: number }} counts
 * @returns {{ name: string, role: ClusterNode['role'], pools: Pool[], env: Record<string, string> }[]}
 */
export function planNodes(topology, counts = {}) {
  if (topology === 'halves')
    return [
      { name: 'sino', role: 'all', pools: ['sino', 'socket'], env: { HALVES: 'sino' } },
      // SINO_URL (the Sino node's own address) is filled in once ports are known.
      { name: 'locadora', role: 'all', pools: ['app'], env: {} },
    ];
  /** @type {[ClusterNode['role'], Pool[]][]} */
  const roles = [
    ['api', ['app', 'sino']],
    ['ws', ['socket']],
    ['worker', []],
    ['all', ['app', 'sino', 'socket']],
  ];
  return roles.flatMap(([role, pools]) =>
    Array.from({ length: counts[role] ?? (role === 'all' ? 0 : 2) }, (_, i) => ({
      name: `${role}-${i + 1}`,
      role,
      pools,
      env: {},
    })),
  );
}

/**
 * The pool a request goes to, by its path.
 * @param {string} url
 * @returns {Pool}
 */
export function poolOf(url) {
  if (url.startsWith('/socket.io/') || url === '/socket.io') return 'socket';
  if (url.startsWith('/v1/') || url === '/v1') return 'sino';
  return 'app';
}

/** Engine.IO's session id in a request's query (long-polling requests and their upgrade). */
const sessionOf = (url) => new URL(url, 'http://balancer').searchParams.get('sid');

/**
 * The balancer: round robin over the nodes of each pool that are up and answer /ready,
 * WebSocket upgrades proxied to the socket nodes. Socket.IO's long-polling sessions stay on
 * the node that opened them (by the `sid` it answered in the handshake), as a sticky proxy
 * keeps them; a WebSocket connection needs nothing more, being one TCP connection.
 * @param {ClusterNode[]} nodes
 * @param {number} port
 */
export async function startBalancer(nodes, port) {
  const proxy = createProxyServer({ xfwd: true, proxyTimeout: 0 });
  // Errors of a request are handled where it is proxied (below); what comes after (a client or
  // a node gone mid-write: EPIPE, ECONNRESET) ends that connection only. Without a listener of
  // its own the library throws them, and the balancer would go down with one socket.
  proxy.on('error', (_error, _req, socket) => {
    if (socket && 'destroy' in socket) socket.destroy();
  });
  /** @type {Map<Pool, number>} */
  const turns = new Map();
  /** Nodes whose /ready failed, or whose port refused a connection, since their last good /ready. */
  const unhealthy = new Set();
  /** Long-polling session id to the node that opened it. */
  const sessions = new Map();
  /** Open WebSocket connections, each with its node's name. */
  const upgrades = new Map();
  /** @type {WeakMap<import('node:http').IncomingMessage, ClusterNode>} */
  const chosen = new WeakMap();

  const usable = (node) => node.state === 'up' && !unhealthy.has(node);
  /** @returns {ClusterNode | undefined} */
  const pick = (url) => {
    const sid = sessionOf(url);
    const sticky = sid ? sessions.get(sid) : undefined;
    if (sticky && usable(sticky)) return sticky;
    const pool = poolOf(url);
    const running = nodes.filter((n) => n.pools.includes(pool) && n.state === 'up');
    const healthy = running.filter(usable);
    // None answered its last /ready in time (a busy machine): trying one beats refusing.
    const candidates = healthy.length > 0 ? healthy : running;
    if (candidates.length === 0) return undefined;
    const turn = turns.get(pool) ?? 0;
    turns.set(pool, turn + 1);
    return candidates[turn % candidates.length];
  };
  const refused = (node, error) => {
    // The node's port is closed (a killed or stopped process): out of the pool until /ready.
    if (node && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(error?.code)) unhealthy.add(node);
  };

  proxy.on('proxyRes', (proxyRes, req) => {
    const node = chosen.get(req);
    if (!node || poolOf(req.url ?? '') !== 'socket' || sessionOf(req.url ?? '')) return;
    // A long-polling handshake: `0{"sid":"...",...}`. Read beside the pipe to the client, so
    // the session is known before the client can send its next request.
    let head = '';
    const read = (chunk) => {
      head += chunk.toString('latin1');
      const sid = /"sid":"([^"]+)"/.exec(head)?.[1];
      if (sid || head.length > 512) proxyRes.off('data', read);
      if (sid) sessions.set(sid, node);
    };
    proxyRes.on('data', read);
  });

  const server = createServer((req, res) => {
    const node = pick(req.url ?? '/');
    if (!node) {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
      res.end('No node of this pool is up.\n');
      return;
    }
    chosen.set(req, node);
    proxy.web(req, res, { target: node.url }, (error) => {
      refused(node, error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`The node did not answer (${error?.code ?? 'error'}).\n`);
    });
  });
  server.on('upgrade', (req, socket, head) => {
    const node = pick(req.url ?? '/');
    if (!node) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.on('error', () => {});
    upgrades.set(socket, node.name);
    socket.once('close', () => upgrades.delete(socket));
    proxy.ws(req, socket, head, { target: node.url }, (error) => {
      refused(node, error);
      socket.destroy();
    });
  });

  // Each node of a pool asked for /ready every half second: in again once it answers, out
  // when it does not (a node that closes answers 503 before its port closes).
  let checking = true;
  const checks = (async () => {
    while (checking) {
      await Promise.all(
        nodes
          .filter((n) => n.pools.length > 0 && n.state === 'up')
          .map(async (node) => {
            const ok = await fetch(`${node.url}/ready`, { signal: AbortSignal.timeout(5000) })
              .then((r) => r.ok)
              .catch(() => false);
            if (ok) unhealthy.delete(node);
            else unhealthy.add(node);
          }),
      );
      await sleep(500);
    }
  })();

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  const { port: listening } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port: listening,
    /** Marks a node out at once (it is being stopped or killed). */
    drop: (node) => unhealthy.add(node),
    openSockets() {
      const counts = new Map();
      for (const name of upgrades.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
      return counts;
    },
    async close() {
      checking = false;
      for (const socket of upgrades.keys()) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      proxy.close();
      await checks;
    },
  };
}

/**
 * Starts the nodes and the balancer; answers once every node is ready.
 * @param {ClusterOptions} options
 * @returns {Promise<Cluster>}
 */
export async function startCluster(options) {
  const topology = options.topology ?? 'cluster';
  const plan = planNodes(topology, options.counts);
  const alone = plan.length === 1 && plan[0]?.role === 'all';
  if (topology === 'cluster' && (!options.databaseUrl || (!options.redisUrl && !alone)))
    throw new Error('A cluster needs databaseUrl (PostgreSQL) and redisUrl (Redis).');
  const redisPrefix = options.redisPrefix ?? `cluster-${randomBytes(6).toString('hex')}`;
  const given = { ...(options.inheritEnv === false ? {} : process.env), ...options.env };
  /** @type {Record<string, string>} */
  const secrets = Object.fromEntries(
    SECRET_NAMES.map((name) => [name, given[name] || randomBytes(32).toString('base64url')]),
  );
  const folder = mkdtempSync(join(tmpdir(), 'locadora-cluster-'));
  const ports = [];
  for (let i = 0; i < plan.length; i++)
    ports.push(options.firstNodePort ? options.firstNodePort + i : await freePort());

  /** @type {ClusterNode[]} */
  const nodes = plan.map((p, i) => ({
    name: p.name,
    role: p.role,
    pools: p.pools,
    port: /** @type {number} */ (ports[i]),
    url: `http://127.0.0.1:${ports[i]}`,
    state: 'down',
    pid: undefined,
  }));
  const sinoNode = nodes.find((n) => n.name === 'sino');
  /** @type {Map<ClusterNode, { child: import('node:child_process').ChildProcess, exited: Promise<void> }>} */
  const processes = new Map();
  // A test's shared clock is loaded before anything else of the node reads the time.
  const clock = options.clockFile ? ['--import', './test/support/shared-clock.mjs'] : [];
  const command = options.built
    ? [...clock, 'apps/server/dist/main.js']
    : ['--conditions=source', ...clock, '--import', 'tsx', 'apps/server/src/main.ts'];

  /** @param {ClusterNode} node */
  const envOf = (node) => {
    const own = plan.find((p) => p.name === node.name)?.env ?? {};
    const database =
      node.name === 'sino' ? (options.sinoDatabaseUrl ?? options.databaseUrl) : options.databaseUrl;
    return {
      ...(options.inheritEnv === false ? { PATH: process.env.PATH ?? '' } : process.env),
      LOG_LEVEL: 'info',
      ...options.env,
      ...options.roleEnv?.[node.role],
      ...secrets,
      ...own,
      ROLE: node.role,
      HOST: '127.0.0.1',
      PORT: String(node.port),
      DATA_DIR: join(folder, node.name),
      // The balancer sets X-Forwarded-For; nobody else reaches the nodes.
      TRUST_PROXY: 'true',
      ...(database && { DATABASE_URL: database }),
      ...(options.redisUrl && { REDIS_URL: options.redisUrl, SINO_REDIS_PREFIX: redisPrefix }),
      ...(node.name === 'locadora' && sinoNode && { SINO_URL: sinoNode.url }),
      ...(options.clockFile && { TEST_CLOCK_FILE: options.clockFile }),
    };
  };

  /** @param {ClusterNode} node */
  const launch = async (node) => {
    node.state = 'starting';
    const child = spawn(process.execPath, command, {
      cwd: repositoryRoot,
      env: envOf(node),
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own: a Ctrl-C (or a test runner's signal to this group) reaches the
      // launcher alone, which stops each node once, gracefully.
      detached: true,
    });
    node.pid = child.pid;
    const exited = new Promise((resolve) =>
      child.once('exit', () => {
        node.state = 'down';
        resolve(undefined);
      }),
    );
    processes.set(node, { child, exited });
    /** The last lines it printed, for the error when it does not start. */
    const last = [];
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        rest += chunk.toString();
        const lines = rest.split('\n');
        rest = /** @type {string} */ (lines.pop());
        for (const line of lines) {
          if (!line) continue;
          last.push(line);
          if (last.length > 15) last.shift();
          options.onLine?.(node, line);
        }
      });
    }
    const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
    while (node.state === 'starting') {
      const ok = await fetch(`${node.url}/ready`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) node.state = 'up';
      else if (Date.now() > deadline) throw new Error(`${node.name} was not ready in time`);
      else await sleep(100);
    }
    if (node.state !== 'up')
      throw new Error(`${node.name} exited before it was ready; it said:\n${last.join('\n')}`);
  };

  // Nodes are in groups of their own: they must not outlive this process however it ends.
  const orphans = () => {
    for (const [n, { child }] of processes) if (n.state !== 'down') child.kill('SIGKILL');
  };
  process.once('exit', orphans);
  const balancer = await startBalancer(nodes, options.port ?? 0);
  /** @param {string} name */
  const node = (name) => {
    const found = nodes.find((n) => n.name === name);
    if (!found) throw new Error(`no node named ${name}`);
    return found;
  };
  /** @type {Cluster['kill']} */
  const kill = async (name, signal = 'SIGKILL') => {
    const target = node(name);
    const running = processes.get(target);
    if (!running || target.state === 'down') return;
    target.state = 'stopping';
    balancer.drop(target);
    running.child.kill(signal);
    await running.exited;
  };
  const close = async () => {
    await Promise.all(
      nodes.map(async (n) => {
        const running = processes.get(n);
        if (!running || n.state === 'down') return;
        n.state = 'stopping';
        running.child.kill('SIGTERM');
        const timer = setTimeout(() => running.child.kill('SIGKILL'), 20_000);
        await running.exited;
        clearTimeout(timer);
      }),
    );
    process.off('exit', orphans);
    await balancer.close();
    rmSync(folder, { recursive: true, force: true });
    // A prefix of its own is this run's alone: its queue and rate-limit keys go with it.
    if (options.redisUrl && !options.redisPrefix)
      await removeRedisKeys(options.redisUrl, redisPrefix);
  };

  try {
    // Sino first when apart: Locadora asks it for its environment as it starts.
    if (sinoNode) await launch(sinoNode);
    await Promise.all(nodes.filter((n) => n !== sinoNode).map(launch));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${balancer.port}`,
    nodes,
    secrets,
    redisPrefix,
    node,
    kill,
    stop: (name) => kill(name, 'SIGTERM'),
    start: (name) => launch(node(name)),
    openSockets: () => balancer.openSockets(),
    close,
  };
}

/** The command line: a cluster for people, until Ctrl-C. */
async function main() {
  const { values } = parseArgs({
    options: {
      api: { type: 'string', default: '2' },
      ws: { type: 'string', default: '2' },
      worker: { type: 'string', default: '2' },
      halves: { type: 'boolean', default: false },
      port: { type: 'string', default: '8080' },
      fresh: { type: 'boolean', default: false },
      built: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  let databaseUrl = process.env.DATABASE_URL;
  /** @type {(() => Promise<void>) | undefined} */
  let dropDatabase;
  if (values.fresh && databaseUrl) {
    const { default: pg } = await import('pg');
    const name = `cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const server = databaseUrl;
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    };
  }
  const cluster = await startCluster({
    topology: values.halves ? 'halves' : 'cluster',
    counts: { api: Number(values.api), ws: Number(values.ws), worker: Number(values.worker) },
    port,
    firstNodePort: port + 1,
    databaseUrl,
    redisUrl: process.env.REDIS_URL,
    built: values.built,
    onLine(node, line) {
      // Warnings and errors (pino's level 40 and up), or everything with --verbose.
      if (values.verbose || !/"level":(?:[1-3]\d)\b/.test(line))
        process.stdout.write(`[${node.name}] ${line}\n`);
    },
  });
  console.log(`Balancer at ${cluster.url}`);
  for (const n of cluster.nodes) console.log(`  ${n.name.padEnd(9)} ${n.url} (pid ${n.pid})`);
  // Secrets are not printed: set SINO_API_KEY (and the others) beforehand to call /v1 yourself.
  console.log('Demo accounts as in the README. Ctrl-C stops every process.');
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await cluster.close();
    await dropDatabase?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
