// @module-tag one-process: starts its own two nodes and the proxy between them: it is a test of nodes apart already (TEST_TOPOLOGY, decision 041)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { io, type Socket } from 'socket.io-client';
import { createTestDatabase, startTcpProxy, type TcpProxy } from '@locadora/db/testing';
import {
  createSinoTestApp,
  removeRedisKeys,
  type SinoTestApp,
} from '../../sino-core/test/harness.js';
import { redisUrl, startInstallation } from '../../sino-core/test/nodes.js';
import { SinoInbox, type InboxState } from '../src/inbox.js';

/**
 * A socket node goes away under its widgets (acceptance 2 of issue 18): closed for a deploy, or
 * killed. Two nodes of one installation share a database and a Redis; the widgets reach the
 * socket through a TCP proxy, the load balancer, which sends new connections to node A and,
 * once A is gone, to node B. Node B serves the HTTP API and runs the workers: every event is
 * produced on B and reaches A's sockets through Redis. While the widgets are away a
 * notification arrives; once they are connected to B they must show it: ours (the @sino/js
 * store, which reads its counts and page again after a reconnect) and Novu 0.24's
 * (socket.io-client with the options of `@novu/notification-center` 0.24.2's
 * useInitializeSocket, which reads nothing again: Sino sends it the counts when it connects).
 * Driving Novu's real widget in a browser is left to the e2e showcase; its socket is this.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

async function listen(node: SinoTestApp): Promise<{ url: string; port: number }> {
  await node.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = node.app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, port };
}

/** The workflow every event of these tests runs: one in-app step. */
async function addWorkflow(node: SinoTestApp): Promise<void> {
  const r = await node.api('POST', '/v1/workflows', {
    body: {
      name: 'Away',
      identifier: 'away',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Hello {{name}}' } }],
    },
  });
  expect(r.statusCode).toBe(201);
}

/** Triggers on `node` and waits until the subscriber's message is stored. */
async function notify(node: SinoTestApp, subscriberId: string, name: string): Promise<void> {
  const r = await node.api('POST', '/v1/events/trigger', {
    body: { name: 'away', to: subscriberId, payload: { name } },
  });
  expect(r.json().data.status).toBe('processed');
  await eventually(`the message "${name}"`, async () => {
    const feed = await node.api('GET', `/v1/subscribers/${subscriberId}/notifications/feed`);
    return (feed.json().data as { content: string }[]).some((m) => m.content === `Hello ${name}`);
  });
}

interface Widgets {
  ours: SinoInbox;
  novu: Socket;
  /** Why Novu's socket was disconnected, each time. */
  novuDisconnects: string[];
  /** The unseen counts Novu's socket was sent, in order. */
  novuUnseen: number[];
}

/** Our inbox and Novu's socket for `subscriberId`, both connected through `proxy`. */
async function connectWidgets(
  api: SinoTestApp,
  apiUrl: string,
  proxy: TcpProxy,
  subscriberId: string,
): Promise<Widgets> {
  const socketUrl = `http://127.0.0.1:${proxy.port}`;
  const ours = new SinoInbox({
    backendUrl: apiUrl,
    socketUrl,
    applicationIdentifier: api.credentials.applicationIdentifier,
    subscriberId,
    subscriberHash: api.subscriberHash(subscriberId),
    storage: null,
    eventTarget: null,
    logger: { error: () => {} },
    initialFetchingStrategy: { fetchNotifications: true },
    WebSocket,
  });
  cleanups.push(async () => ours.dispose());
  await ours.initialize();

  // As @novu/notification-center 0.24.2 opens it (hooks/useInitializeSocket.js).
  const novu = io(socketUrl, {
    reconnectionDelayMax: 10000,
    transports: ['websocket'],
    auth: { token: await api.session(subscriberId) },
  });
  cleanups.push(async () => void novu.disconnect());
  const widgets: Widgets = { ours, novu, novuDisconnects: [], novuUnseen: [] };
  novu.on('disconnect', (reason) => widgets.novuDisconnects.push(reason));
  novu.on('unseen_count_changed', (data: { unseenCount: number }) =>
    widgets.novuUnseen.push(data.unseenCount),
  );
  await eventually(
    'both widgets connected',
    () => ours.getSnapshot().socket === 'connected' && novu.connected,
  );
  return widgets;
}

const unseen = (state: InboxState) => state.unseenCount;
const contents = (state: InboxState) =>
  state.stores['default_store']!.notifications.map((n) => n.content);

/**
 * The events while the widgets were away, then once they are on B: each widget shows the
 * count and, for ours, the page; and both hear B's next event live.
 */
async function expectCaughtUp(
  w: Widgets,
  b: SinoTestApp,
  subscriberId: string,
  expected: { unseen: number; content: string },
): Promise<void> {
  await eventually(
    'our inbox on B with the count',
    () => unseen(w.ours.getSnapshot()) === expected.unseen,
  );
  expect(w.ours.getSnapshot().socket).toBe('connected');
  await eventually('our page with the message', () =>
    contents(w.ours.getSnapshot()).includes(expected.content),
  );
  await eventually('Novu on B with the count', () => w.novuUnseen.at(-1) === expected.unseen);
  expect(w.novu.connected).toBe(true);

  // Live again: the next event reaches both through B.
  await notify(b, subscriberId, 'live again');
  await eventually('our live count', () => unseen(w.ours.getSnapshot()) === expected.unseen + 1);
  await eventually('Novu live count', () => w.novuUnseen.at(-1) === expected.unseen + 1);
}

describe('widgets on a socket node that goes away', () => {
  it('closed gracefully: widgets see the transport close, reconnect to the other node, and catch up', async () => {
    // A holds the sockets only; B serves the API and runs the workers.
    const installation = await startInstallation(2, (index) => ({
      redisUrl,
      ...(index === 0 && { runWorkers: false }),
    }));
    cleanups.push(() => installation.close());
    const [a, b] = installation.nodes as [SinoTestApp, SinoTestApp];
    const [atA, atB] = [await listen(a), await listen(b)];
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: atA.port });
    cleanups.push(() => proxy.close());
    await addWorkflow(b);
    const subscriberId = `roamer-${randomUUID()}`;
    const w = await connectWidgets(b, atB.url, proxy, subscriberId);

    await notify(b, subscriberId, 'first');
    await eventually('our count through A', () => unseen(w.ours.getSnapshot()) === 1);
    await eventually('Novu count through A', () => w.novuUnseen.at(-1) === 1);

    // A closes as a deploy closes it; its widgets try again at once, and are refused while it
    // closes, then find nothing (the balancer still sends them to A).
    await a.app.close();
    await eventually(
      'both widgets away',
      () => w.ours.getSnapshot().socket === 'disconnected' && !w.novu.connected,
    );
    expect(w.novuDisconnects).toEqual(['transport close']);
    await notify(b, subscriberId, 'while away');
    await sleep(300);
    expect(unseen(w.ours.getSnapshot())).toBe(1);

    // The balancer sends new connections to B.
    proxy.retarget({ host: '127.0.0.1', port: atB.port });
    await expectCaughtUp(w, b, subscriberId, { unseen: 2, content: 'Hello while away' });
    expect(w.novuDisconnects).toEqual(['transport close']);
  }, 120_000);

  // Two processes share the database: PostgreSQL only (PGlite is opened by one process).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'killed (SIGKILL): widgets reconnect to the other node and catch up',
    async () => {
      const database = await createTestDatabase();
      const prefix = `sino-test-${randomUUID()}`;
      cleanups.push(async () => {
        await removeRedisKeys(redisUrl, prefix);
        await database.drop();
      });
      // A in a process of its own, holding sockets only; B in this one.
      const a = await startNodeProcess({
        CRASH_DATABASE_URL: database.url!,
        CRASH_REDIS_URL: redisUrl,
        CRASH_QUEUE_PREFIX: prefix,
        CRASH_REDIS_PREFIX: prefix,
        CRASH_RUN_WORKERS: 'false',
      });
      const b = await createSinoTestApp(
        { redisUrl, redisPrefix: prefix, queuePrefix: prefix },
        { url: database.url, dataDir: 'memory://', credentials: a.credentials!, keepQueue: true },
      );
      cleanups.push(() => b.close());
      const atB = await listen(b);
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: a.port });
      cleanups.push(() => proxy.close());
      await addWorkflow(b);
      const subscriberId = `roamer-${randomUUID()}`;
      const w = await connectWidgets(b, atB.url, proxy, subscriberId);

      await notify(b, subscriberId, 'first');
      await eventually('our count through A', () => unseen(w.ours.getSnapshot()) === 1);
      await eventually('Novu count through A', () => w.novuUnseen.at(-1) === 1);

      a.child.kill('SIGKILL');
      await a.exited;
      await eventually(
        'both widgets away',
        () => w.ours.getSnapshot().socket === 'disconnected' && !w.novu.connected,
      );
      expect(w.novuDisconnects).toEqual(['transport close']);
      await notify(b, subscriberId, 'while away');

      proxy.retarget({ host: '127.0.0.1', port: atB.port });
      await expectCaughtUp(w, b, subscriberId, { unseen: 2, content: 'Hello while away' });
    },
    120_000,
  );
});

interface NodeProcess {
  port: number;
  credentials: SinoTestApp['credentials'] | null;
  child: ChildProcess;
  exited: Promise<void>;
}

/** sino-core's crash-node.ts in a process of its own (stopped after the test). */
async function startNodeProcess(env: Record<string, string>): Promise<NodeProcess> {
  const script = fileURLToPath(new URL('../../sino-core/test/crash-node.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: fileURLToPath(new URL('../../sino-core', import.meta.url)),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => log.push(String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  const ready = await new Promise<Omit<NodeProcess, 'child' | 'exited'>>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const end = out.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(out.slice(0, end)) as never);
    });
    void exited.then(() => reject(new Error(`the node exited at start:\n${log.join('')}`)));
  });
  return { ...ready, child, exited };
}
