import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { createTestDatabase } from '@locadora/db/testing';
import { createInProcessSinoTestApp, type SinoTestApp } from './harness.js';

const redisUrl = process.env.TEST_SINO_REDIS_URL ?? 'redis://127.0.0.1:6379';

// Two nodes need one database both can open at once: PostgreSQL (the CI's second pass).
describe.skipIf(!process.env.TEST_DATABASE_URL)('two nodes: a socket node and a worker', () => {
  const apps: SinoTestApp[] = [];
  let socket: Socket | undefined;
  afterAll(async () => {
    socket?.disconnect();
    for (const app of apps.reverse()) await app.close();
  });

  it('delivers to a socket held by the other node, through Redis', async () => {
    const database = await createTestDatabase();
    const queuePrefix = `sino-test-${randomUUID()}`;
    const shared = { url: database.url, dataDir: 'memory://' };
    // The socket node runs no workers; the worker node holds no sockets (ROLE=worker): its
    // events go out through the publish-only emitter.
    const socketNode = await createInProcessSinoTestApp(
      { redisUrl, queuePrefix, runWorkers: false },
      shared,
    );
    apps.push(socketNode);
    const workerNode = await createInProcessSinoTestApp(
      { redisUrl, queuePrefix, serveSocket: false },
      { ...shared, credentials: socketNode.credentials },
    );
    apps.push(workerNode);
    afterAll(() => database.drop());

    const created = await workerNode.api('POST', '/v1/workflows', {
      body: {
        name: 'Scale out',
        identifier: 'scale-out',
        active: true,
        steps: [{ template: { type: 'in_app', content: 'from the worker' } }],
      },
    });
    expect(created.statusCode).toBe(201);

    const token = await socketNode.session('far-away');
    await socketNode.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = socketNode.app.server.address() as { port: number };
    socket = io(`http://127.0.0.1:${port}`, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token },
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', resolve);
      socket!.once('connect_error', reject);
    });
    const received = new Promise<{ message: { content: string } }>((resolve) =>
      socket!.once('notification_received', resolve),
    );

    const r = await workerNode.api('POST', '/v1/events/trigger', {
      body: { name: 'scale-out', to: 'far-away' },
    });
    expect(r.statusCode).toBe(201);
    const event = await Promise.race([
      received,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no event within 10 s')), 10_000),
      ),
    ]);
    expect(event.message.content).toBe('from the worker');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two nodes: an erasure and a socket', () => {
  const apps: SinoTestApp[] = [];
  let socket: Socket | undefined;
  afterAll(async () => {
    socket?.disconnect();
    for (const app of apps.reverse()) await app.close();
  });

  it('an erasure asked of one node closes the socket the other holds, through Redis', async () => {
    const database = await createTestDatabase();
    afterAll(() => database.drop());
    const queuePrefix = `sino-test-${randomUUID()}`;
    const shared = { url: database.url, dataDir: 'memory://' };
    const socketNode = await createInProcessSinoTestApp(
      { redisUrl, queuePrefix, runWorkers: false },
      shared,
    );
    apps.push(socketNode);
    // No socket on the API node (ROLE=api): the erasure closes the socket through the emitter.
    const apiNode = await createInProcessSinoTestApp(
      { redisUrl, queuePrefix, runWorkers: false, serveSocket: false },
      { ...shared, credentials: socketNode.credentials },
    );
    apps.push(apiNode);

    const token = await socketNode.session('erased-far-away');
    await socketNode.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = socketNode.app.server.address() as { port: number };
    socket = io(`http://127.0.0.1:${port}`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token },
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', resolve);
      socket!.once('connect_error', reject);
    });
    const closed = new Promise<string>((resolve) => socket!.once('disconnect', resolve));

    const r = await apiNode.api('POST', '/v1/subscribers/erased-far-away/erase');
    expect(r.statusCode).toBe(200);
    const reason = await Promise.race([
      closed,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('still open after 10 s')), 10_000),
      ),
    ]);
    expect(reason).toBe('io server disconnect');
  });
});
