import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { localPeerNetworks } from '@sino/providers/testing';
import type { SinoTestApp } from './harness.js';
import { redisUrl, startInstallation } from './nodes.js';

/**
 * A worker node closes (a deploy) while one of its queue tasks waits on a step's webhook
 * filter: the task finishes within the close's grace, and its event still reaches the widget
 * held by the socket node, through Redis. The fan-out of a closing node stays up until its
 * requests and tasks are done; only its own sockets go first.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A webhook filter's peer that holds every answer until released. */
async function heldWebhook() {
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => held.push(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/approve`,
    held,
    release: () =>
      held
        .splice(0)
        .forEach((r) =>
          r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        ),
  };
}

describe('a worker node closing', () => {
  it("its last task's event reaches a widget on another node", async () => {
    const webhook = await heldWebhook();
    const installation = await startInstallation(2, (index) => ({
      redisUrl,
      // Node 0 holds sockets; node 1 runs the workers, and may call the local webhook.
      ...(index === 0
        ? { runWorkers: false }
        : { delivery: { allowedNetworks: localPeerNetworks }, shutdownGraceMs: 8000 }),
    }));
    cleanups.push(() => installation.close());
    const [sockets, worker] = installation.nodes as [SinoTestApp, SinoTestApp];

    const created = await worker.api('POST', '/v1/workflows', {
      body: {
        name: 'Held',
        identifier: 'held',
        active: true,
        steps: [
          {
            template: { type: 'in_app', content: 'after the close began' },
            filters: [
              {
                value: 'AND',
                children: [
                  {
                    on: 'webhook',
                    webhookUrl: webhook.url,
                    field: 'ok',
                    operator: 'EQUAL',
                    value: 'true',
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);

    const token = await sockets.session('watcher');
    await sockets.app.listen({ port: 0, host: '127.0.0.1' });
    const socket: Socket = io(
      `http://127.0.0.1:${(sockets.app.server.address() as { port: number }).port}`,
      {
        transports: ['websocket'],
        auth: { token, countsOnConnect: false },
      },
    );
    cleanups.push(async () => void socket.disconnect());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const received = new Promise<{ message: { content: string } }>((resolve) =>
      socket.once('notification_received', resolve),
    );

    const r = await worker.api('POST', '/v1/events/trigger', {
      body: { name: 'held', to: 'watcher' },
    });
    expect(r.statusCode).toBe(201);
    await expect.poll(() => webhook.held.length, { timeout: 10_000 }).toBe(1);

    // The worker node closes with the step in flight; the webhook answers meanwhile.
    const closing = worker.app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    webhook.release();
    await closing;

    const event = await Promise.race([
      received,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no event within 5 s')), 5000),
      ),
    ]);
    expect(event.message.content).toBe('after the close began');
  }, 120_000);
});
