import { createServer, type ServerResponse, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import { localPeerNetworks } from '@sino/providers/testing';
import { createSinoTestApp, type SinoTestApp, workerProcesses } from './harness.js';

// `workerConcurrency` (SINO_WORKER_CONCURRENCY in the server) is how many workflow steps one
// worker runs at once. Each step here waits on a webhook filter that holds every request until
// released, so the webhook sees exactly how many steps run together.
let t: SinoTestApp;
let webhook: Server;
let webhookUrl: string;
const held: ServerResponse[] = [];
let released = false;
let most = 0;

const answer = (res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ approved: true }));
};

beforeAll(async () => {
  // The webhook is a local peer: allowed, as an operator allows a network (decision 024).
  t = await createSinoTestApp({
    workerConcurrency: 2,
    delivery: { allowedNetworks: localPeerNetworks },
  });
  webhook = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (released) return answer(res);
      held.push(res);
      most = Math.max(most, held.length);
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as { port: number }).port}/hold`;
});
afterAll(async () => {
  released = true;
  held.splice(0).forEach(answer);
  await t.close();
  await new Promise((r) => webhook.close(r));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('worker concurrency', () => {
  it('runs no more steps at once than the worker was given', async () => {
    const r = await t.api('POST', '/v1/workflows', {
      body: {
        name: 'held',
        identifier: 'held',
        active: true,
        steps: [
          {
            template: { type: 'in_app', content: 'after the webhook' },
            filters: [
              {
                value: 'AND',
                children: [
                  {
                    on: 'webhook',
                    webhookUrl,
                    field: 'approved',
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
    expect(r.statusCode).toBe(201);
    for (let i = 0; i < 5; i++) {
      const trigger = await t.api('POST', '/v1/events/trigger', {
        body: { name: 'held', to: `held-${i}`, transactionId: `held-${i}` },
      });
      expect(trigger.statusCode).toBe(201);
    }

    // Two steps per worker process reach the webhook (two processes on a cluster); the others
    // wait for a free slot, however long.
    const atOnce = 2 * workerProcesses;
    await expect.poll(() => held.length).toBe(atOnce);
    await sleep(500);
    expect(most).toBe(atOnce);

    released = true;
    held.splice(0).forEach(answer);
    await expect
      .poll(
        async () =>
          (await t.db.select({ status: jobs.status }).from(jobs)).filter(
            (j) => j.status === 'completed',
          ).length,
        { timeout: 10_000 },
      )
      .toBe(5);
    expect(most).toBe(atOnce);
  });
});
