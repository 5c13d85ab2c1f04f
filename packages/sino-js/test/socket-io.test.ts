import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { WebSocket, WebSocketServer } from 'ws';
import { SocketIoClient, backoff, engineUrl, type SocketIoOptions } from '../src/socket-io.js';

/**
 * Our Socket.IO client against the real `socket.io` server (the one Sino runs), and against a
 * bare WebSocket server where a misbehaving peer is needed (no heartbeat, no handshake).
 */
const closers: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listening(server: HttpServer): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A socket.io server like Sino's gateway: a token in `auth`, checked by a middleware. */
async function socketIoServer(options: { pingInterval?: number; pingTimeout?: number } = {}) {
  const http = createServer();
  const io = new Server(http, { path: '/socket.io', ...options });
  io.use((socket, next) =>
    socket.handshake.auth.token === 'good' ? next() : next(new Error('Unauthorized')),
  );
  const url = await listening(http);
  closers.push(() => io.close());
  return { io, url };
}

interface Recorder {
  log: string[];
  events: [string, unknown][];
}

function client(url: string, overrides: Partial<SocketIoOptions> = {}) {
  const r: Recorder = { log: [], events: [] };
  const c = new SocketIoClient(
    {
      url,
      path: '/socket.io',
      auth: { token: 'good' },
      reconnectionDelayMs: 50,
      reconnectionDelayMaxMs: 100,
      randomizationFactor: 0.5,
      timeoutMs: 2000,
      reconnectionAttempts: Infinity,
      WebSocket,
      ...overrides,
    },
    {
      connect: () => r.log.push('connect'),
      disconnect: (reason) => r.log.push(`disconnect: ${reason}`),
      connectError: (error) => r.log.push(`error: ${error.message}`),
      event: (name, data) => r.events.push([name, data]),
    },
  );
  closers.push(() => c.close());
  return { c, r };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Socket.IO client', () => {
  it('connects with its auth, receives events with their data, and leaves when closed', async () => {
    const { io, url } = await socketIoServer();
    const seen: unknown[] = [];
    io.on('connection', (socket) => {
      seen.push(socket.handshake.auth);
      socket.emit('unseen_count_changed', { unseenCount: 3, hasMore: false });
      socket.emit('notification_received', { message: { _id: 'm1', content: 'Olá "você"' } });
      socket.on('disconnect', (reason) => seen.push(reason));
    });
    const { c, r } = client(url);
    c.open();
    await until(() => r.events.length === 2);
    expect(r.log).toEqual(['connect']);
    expect(c.connected).toBe(true);
    expect(seen).toEqual([{ token: 'good' }]);
    expect(r.events).toEqual([
      ['unseen_count_changed', { unseenCount: 3, hasMore: false }],
      ['notification_received', { message: { _id: 'm1', content: 'Olá "você"' } }],
    ]);
    c.close();
    await until(() => seen.length === 2);
    expect(seen[1]).toBe('client namespace disconnect');
    expect(c.connected).toBe(false);
  });

  it('answers the server heartbeat, so the connection outlives several ping intervals', async () => {
    const { io, url } = await socketIoServer({ pingInterval: 100, pingTimeout: 100 });
    let reason = '';
    io.on('connection', (socket) => socket.on('disconnect', (why) => (reason = why)));
    const { c, r } = client(url);
    c.open();
    await until(() => r.log.includes('connect'));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(reason).toBe('');
    expect(r.log).toEqual(['connect']);
  });

  it('reports a connection refused as Unauthorized once and does not retry it', async () => {
    const { io, url } = await socketIoServer();
    let attempts = 0;
    io.engine.on('connection', () => attempts++);
    const { c, r } = client(url, { auth: { token: 'bad' } });
    c.open();
    await until(() => r.log.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(r.log).toEqual(['error: Unauthorized']);
    expect(attempts).toBe(1);
  });

  it('retries a connection refused for another reason (a store the server could not reach)', async () => {
    const http = createServer();
    const io = new Server(http, { path: '/socket.io' });
    let attempts = 0;
    io.use((_socket, next) => (++attempts < 3 ? next(new Error('Service Unavailable')) : next()));
    const url = await listening(http);
    closers.push(() => io.close());
    const { c, r } = client(url);
    c.open();
    await until(() => r.log.includes('connect'));
    expect(r.log).toEqual(['error: Service Unavailable', 'error: Service Unavailable', 'connect']);
    expect(c.connected).toBe(true);
  });

  it('reconnects after the server disconnects it, until the server refuses the session', async () => {
    const http = createServer();
    const io = new Server(http, { path: '/socket.io' });
    let connections = 0;
    // The session is good twice, then revoked (an erased subscriber).
    io.use((_socket, next) => (connections < 2 ? next() : next(new Error('Unauthorized'))));
    io.on('connection', (socket) => {
      connections++;
      setTimeout(() => socket.disconnect(true), 50);
    });
    const url = await listening(http);
    closers.push(() => io.close());
    const { c, r } = client(url);
    c.open();
    await until(() => r.log.includes('error: Unauthorized'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(r.log).toEqual([
      'connect',
      'disconnect: io server disconnect',
      'connect',
      'disconnect: io server disconnect',
      'error: Unauthorized',
    ]);
    expect(connections).toBe(2);
    expect(c.connected).toBe(false);
  });

  it('reconnects after the transport is lost, and is connected again', async () => {
    const { io, url } = await socketIoServer();
    let connections = 0;
    io.on('connection', (socket) => {
      connections++;
      // The first connection's transport breaks (a network drop, a restarted node).
      if (connections === 1) setTimeout(() => socket.conn.close(), 50);
      else socket.emit('unread_count_changed', { unreadCount: 1, hasMore: false });
    });
    const { c, r } = client(url);
    c.open();
    await until(() => r.events.length === 1);
    expect(r.log).toEqual(['connect', 'disconnect: transport close', 'connect']);
    expect(connections).toBe(2);
    expect(c.connected).toBe(true);
  });

  it('counts a peer that stops sending pings as lost, and tries again', async () => {
    // An Engine.IO open packet promising pings every 100 ms, then nothing.
    const http = createServer();
    const url = await listening(http);
    const wss = new WebSocketServer({ server: http });
    closers.push(() => new Promise((r) => wss.close(r)));
    const paths: string[] = [];
    wss.on('connection', (ws, request) => {
      paths.push(request.url ?? '');
      ws.send('0{"sid":"x","upgrades":[],"pingInterval":100,"pingTimeout":100,"maxPayload":1e6}');
      ws.on('message', (data) => {
        if (String(data).startsWith('40')) ws.send('40{"sid":"y"}');
      });
    });
    const { c, r } = client(url);
    c.open();
    await until(() => paths.length >= 2);
    expect(paths[0]).toBe('/socket.io/?EIO=4&transport=websocket');
    expect(r.log.slice(0, 2)).toEqual(['connect', 'disconnect: ping timeout']);
  });

  it('gives up an attempt that is not connected within its timeout, and tries again', async () => {
    const http = createServer();
    const url = await listening(http);
    const wss = new WebSocketServer({ server: http });
    closers.push(() => new Promise((r) => wss.close(r)));
    let attempts = 0;
    wss.on('connection', () => attempts++);
    const { c, r } = client(url, { timeoutMs: 150 });
    c.open();
    await until(() => attempts >= 2);
    expect(r.log[0]).toBe('error: timeout');
  });

  it('retries an unreachable server until it is there', async () => {
    // A port where nothing listens yet.
    const http = createServer();
    const url = await listening(http);
    await new Promise((r) => http.close(r));
    const { c, r } = client(url);
    c.open();
    await until(() => r.log.length >= 2);
    expect(r.log.every((line) => line === 'error: websocket error')).toBe(true);
    const io = new Server({ path: '/socket.io' });
    io.use((_socket, next) => next());
    const again = createServer();
    io.attach(again);
    await new Promise<void>((resolve) =>
      again.listen(Number(new URL(url).port), '127.0.0.1', resolve),
    );
    closers.push(() => io.close());
    await until(() => r.log.includes('connect'));
    expect(c.connected).toBe(true);
  });
});

describe('helpers', () => {
  it('turns the origin and path into the Engine.IO websocket address', () => {
    expect(engineUrl('http://localhost:3000', '/socket.io')).toBe(
      'ws://localhost:3000/socket.io/?EIO=4&transport=websocket',
    );
    expect(engineUrl('https://sino.example.com/', '/socket.io/')).toBe(
      'wss://sino.example.com/socket.io/?EIO=4&transport=websocket',
    );
  });

  it('backs off from the first delay, doubling, spread by the factor, capped', () => {
    const o = {
      reconnectionDelayMs: 1000,
      reconnectionDelayMaxMs: 10_000,
      randomizationFactor: 0.5,
    };
    expect(backoff(0, o, () => 0.5)).toBe(1000);
    expect(backoff(1, o, () => 0.5)).toBe(2000);
    expect(backoff(0, o, () => 0)).toBe(500);
    expect(backoff(0, o, () => 1)).toBe(1500);
    expect(backoff(3, o, () => 0.5)).toBe(8000);
    expect(backoff(4, o, () => 1)).toBe(10_000);
    expect(backoff(60, o, () => 0.5)).toBe(10_000);
  });
});
