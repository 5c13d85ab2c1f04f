import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { localPeerNetworks } from '@sino/providers/testing';
import { jobs, workflowSteps } from '../src/db/schema.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

// The engine's wiring of each filter source: the evaluator itself is unit-tested in
// filters.test.ts; here the real engine reads subscribers, tenants, webhooks and messages.
let t: SinoTestApp;
let webhook: Server;
let webhookUrl: string;
const calls: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  // The webhook filter's server listens on loopback: allowed, as an operator allows a network.
  t = await createSinoTestApp({ delivery: { allowedNetworks: localPeerNetworks } });
  webhook = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { payload: { plan?: string } };
      calls.push({ headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ approved: body.payload.plan === 'gold' }));
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as { port: number }).port}/decide`;
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => webhook.close(r));
});

let n = 0;
async function workflow(steps: unknown[]): Promise<string> {
  const identifier = `filters-${++n}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active: true, steps },
  });
  if (r.statusCode !== 201) throw new Error(r.body);
  return identifier;
}

const guarded = (children: unknown[], content = 'passed') => ({
  template: { type: 'in_app', content },
  filters: [{ value: 'AND', children }],
});

async function statuses(transactionId: string) {
  const rows = await t.db
    .select({ status: jobs.status })
    .from(jobs)
    .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
    .where(eq(jobs.transactionId, transactionId))
    .orderBy(asc(workflowSteps.position));
  return rows.map((r) => r.status);
}

async function settle(transactionId: string): Promise<string[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const s = await statuses(transactionId);
    if (s.length > 0 && s.every((x) => !['pending', 'queued', 'running', 'delayed'].includes(x)))
      return s;
    if (Date.now() > until) throw new Error(`not settled: ${s.join(',')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const trigger = (body: Record<string, unknown>) =>
  t.api('POST', '/v1/events/trigger', { body }).then((r) => {
    if (r.statusCode !== 201) throw new Error(r.body);
  });

describe('step filters on each source, in the engine', () => {
  it('subscriber fields', async () => {
    const name = await workflow([
      guarded([{ on: 'subscriber', field: 'data.tier', operator: 'EQUAL', value: 'vip' }]),
    ]);
    await trigger({
      name,
      to: { subscriberId: 'f-vip', data: { tier: 'vip' } },
      transactionId: 'f-sub-1',
    });
    await trigger({
      name,
      to: { subscriberId: 'f-std', data: { tier: 'std' } },
      transactionId: 'f-sub-2',
    });
    expect(await settle('f-sub-1')).toEqual(['completed']);
    expect(await settle('f-sub-2')).toEqual(['skipped']);
  });

  it('tenant fields', async () => {
    expect(
      (
        await t.api('POST', '/v1/tenants', {
          body: { identifier: 'loja-centro', name: 'Centro', data: { region: 'bh' } },
        })
      ).statusCode,
    ).toBe(201);
    await t.api('POST', '/v1/tenants', {
      body: { identifier: 'loja-sul', name: 'Sul', data: { region: 'poa' } },
    });
    const name = await workflow([
      guarded([{ on: 'tenant', field: 'data.region', operator: 'EQUAL', value: 'bh' }]),
    ]);
    await trigger({ name, to: 'f-tenant', tenant: 'loja-centro', transactionId: 'f-ten-1' });
    await trigger({ name, to: 'f-tenant', tenant: 'loja-sul', transactionId: 'f-ten-2' });
    expect(await settle('f-ten-1')).toEqual(['completed']);
    expect(await settle('f-ten-2')).toEqual(['skipped']);
  });

  it('webhook: POSTs the payload and subscriber, signed as Novu, and matches its answer', async () => {
    const name = await workflow([
      guarded([{ on: 'webhook', webhookUrl, field: 'approved', operator: 'EQUAL', value: 'true' }]),
    ]);
    await trigger({ name, to: 'f-hook', payload: { plan: 'gold' }, transactionId: 'f-hook-1' });
    await trigger({ name, to: 'f-hook', payload: { plan: 'free' }, transactionId: 'f-hook-2' });
    expect(await settle('f-hook-1')).toEqual(['completed']);
    expect(await settle('f-hook-2')).toEqual(['skipped']);
    const call = calls.find((c) => (c.body.payload as { plan: string }).plan === 'gold')!;
    expect(call.body.subscriber).toMatchObject({ subscriberId: 'f-hook' });
    expect(call.headers['nv-hmac-256']).toBe(
      createHmac('sha256', t.credentials.apiKey).update(t.credentials.environmentId).digest('hex'),
    );
  });

  it('isOnline and isOnlineInLast', async () => {
    const name = await workflow([guarded([{ on: 'isOnline', value: true }])]);
    const recent = await workflow([
      guarded([{ on: 'isOnlineInLast', value: 5, timeOperator: 'minutes' }]),
    ]);
    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'f-online' } });
    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'f-never' } });
    const online = await t.api('PATCH', '/v1/subscribers/f-online/online-status', {
      body: { isOnline: true },
    });
    expect(online.statusCode).toBe(200);
    await trigger({ name, to: 'f-online', transactionId: 'f-on-1' });
    await trigger({ name, to: 'f-never', transactionId: 'f-on-2' });
    expect(await settle('f-on-1')).toEqual(['completed']);
    expect(await settle('f-on-2')).toEqual(['skipped']);
    // Offline a moment ago: still "online in the last 5 minutes".
    await t.api('PATCH', '/v1/subscribers/f-online/online-status', { body: { isOnline: false } });
    await trigger({ name: recent, to: 'f-online', transactionId: 'f-recent-1' });
    await trigger({ name: recent, to: 'f-never', transactionId: 'f-recent-2' });
    expect(await settle('f-recent-1')).toEqual(['completed']);
    expect(await settle('f-recent-2')).toEqual(['skipped']);
  });

  it('previousStep: a reminder only when the first message is still unread', async () => {
    const name = await workflow([
      { uuid: 'first', template: { type: 'in_app', content: 'first' } },
      // Time to read the first message, once it shows, before the reminder's step looks.
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'seconds' } },
      {
        ...guarded([{ on: 'previousStep', step: 'first', stepType: 'unread' }], 'reminder'),
        uuid: 'reminder',
      },
    ]);
    const token = await t.session('f-reader');
    await trigger({ name, to: 'f-reader', transactionId: 'f-prev-read' });
    await trigger({ name, to: 'f-reader', transactionId: 'f-prev-unread' });
    // Read the first message of one transaction while the delay runs (a cold, busy machine may
    // take seconds to run the first step; the delay starts once its message shows).
    let messageId: string | undefined;
    const until = Date.now() + 15000;
    while (!messageId && Date.now() < until) {
      const feed = await t.widget('GET', '/notifications/feed', { token });
      messageId = (feed.json().data as { _id: string; transactionId: string }[]).find(
        (m) => m.transactionId === 'f-prev-read',
      )?._id;
      // A pause between reads: back to back, they kept the embedded database (one connection)
      // from the steps that write the message.
      if (!messageId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const marked = await t.widget('POST', '/messages/markAs', {
      token,
      body: { messageId, mark: { read: true } },
    });
    expect(marked.statusCode).toBe(201);
    expect(await settle('f-prev-read')).toEqual(['completed', 'completed', 'skipped']);
    expect(await settle('f-prev-unread')).toEqual(['completed', 'completed', 'completed']);
  });
});
