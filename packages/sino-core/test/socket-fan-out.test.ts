// @module-tag one-process: builds socket gateways of its own from the app's services (TEST_TOPOLOGY, decision 041)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { createSocketGateway } from '../src/realtime/gateway.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * The socket fan-out through a real Redis: socket gateways (the nodes of a deployment) on
 * databases 1 and 2 of one Redis, and under two prefixes on database 1. Nodes of one
 * installation (same database, same prefix) pass each other's events on; other installations
 * hear none of them. Every gateway serves the same subscriber, so the same room name, as two
 * installations' subscribers could share one: what is checked is whether an installation's
 * events reach the other's nodes at all.
 */
const redis = process.env.TEST_SINO_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onDatabase = (index: number) => {
  const url = new URL(redis);
  url.pathname = `/${index}`;
  return url.toString();
};

let t: SinoTestApp;
let token: string;
let room: string;
const nodes: { close(): Promise<void> }[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createSinoTestApp();
  token = await t.session('fan-out');
  room = (await t.app.sino.tokens.verify(token))!._id;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  for (const node of nodes.reverse()) await node.close();
  await t?.close();
});

/** A node: an HTTP server with its socket gateway on the given Redis. */
async function node(redisUrl: string, redisPrefix?: string) {
  const server = createServer();
  const gateway = createSocketGateway({
    server,
    tokens: t.app.sino.tokens,
    subscribers: t.app.sino.subscribers,
    log: t.app.log,
    redisUrl,
    redisPrefix,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed = false;
  const handle = {
    gateway,
    port: (server.address() as AddressInfo).port,
    async close() {
      if (closed) return;
      closed = true;
      await gateway.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  nodes.push(handle);
  return handle;
}

/** A widget's socket on the node, with every unseen count it was sent. */
async function widgetOn(port: number) {
  const socket = io(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
  });
  sockets.push(socket);
  const counts: number[] = [];
  socket.on('unseen_count_changed', (data: { unseenCount: number }) =>
    counts.push(data.unseenCount),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, counts };
}

/**
 * Emits `count` from one node until the widget (on another node) has it: the fan-out is up
 * once the receiving node's subscription to Redis is.
 */
async function fannedOut(
  from: Awaited<ReturnType<typeof node>>,
  to: { counts: number[] },
  count: number,
) {
  for (let i = 0; i < 100 && !to.counts.includes(count); i++) {
    from.gateway.emit(room, 'unseen_count_changed', { unseenCount: count, hasMore: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(to.counts).toContain(count);
}

describe('socket fan-out over Redis', () => {
  it("reaches the installation's other nodes, and no other installation's", async () => {
    // Two nodes each: installation A on database 1, B on database 2, C on database 1 under
    // another prefix. The widget of each is on the node that does not emit.
    const a = [await node(onDatabase(1)), await node(onDatabase(1))] as const;
    const b = [await node(onDatabase(2)), await node(onDatabase(2))] as const;
    const c = [await node(onDatabase(1), 'other'), await node(onDatabase(1), 'other')] as const;
    const widgetA = await widgetOn(a[1].port);
    const widgetB = await widgetOn(b[1].port);
    const widgetC = await widgetOn(c[1].port);
    // Each installation's fan-out works, so every receiving node listens to Redis.
    await fannedOut(b[0], widgetB, 200);
    await fannedOut(c[0], widgetC, 300);
    await fannedOut(a[0], widgetA, 1);

    // By the time A's widget has it, Redis has handed A's event to every subscriber of its
    // channel; a node that got it would have passed it on well within this wait.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(widgetB.counts).not.toContain(1);
    expect(widgetC.counts).not.toContain(1);
    expect(widgetA.counts).not.toContain(200);
    expect(widgetA.counts).not.toContain(300);
  });

  it("closing a node disconnects its own sockets only, not the other nodes'", async () => {
    const [first, second] = [await node(onDatabase(1)), await node(onDatabase(1))];
    const mine = await widgetOn(first.port);
    const theirs = await widgetOn(second.port);
    await fannedOut(first, theirs, 7);
    await fannedOut(second, mine, 8);
    const gone = new Promise((resolve) => mine.socket.once('disconnect', resolve));
    await first.close();
    await gone;
    // A disconnection sent through Redis would have reached the other node by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(theirs.socket.connected).toBe(true);
  });
});
