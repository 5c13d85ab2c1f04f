import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { Novu } from '@novu/node';
import { jobs, workflowSteps } from '../src/db/schema.js';
import { startListeningSino, type ListeningSino } from './listening.js';
import { eventually } from './fixtures.js';

/**
 * The published `@novu/node@0.24.2`, unchanged, against a listening Sino: its events calls
 * (trigger, bulkTrigger, broadcast, cancel) and the subscriber calls a trigger relies on, with
 * what each call did checked on the server (messages, jobs, execution log). With
 * TEST_SINO_TOPOLOGY, against the server as many processes behind a balancer (listening.ts).
 */
let t: ListeningSino;
let novu: Novu;
let backendUrl: string;
beforeAll(async () => {
  t = await startListeningSino();
  backendUrl = t.url;
  novu = new Novu(t.credentials.apiKey, { backendUrl });
}, 300_000);
afterAll(() => t.close(), 60_000);

let sequence = 0;

/** Creates a workflow (active unless told) through the server API; answers its identifier. */
async function workflow(steps: Record<string, unknown>[], active = true): Promise<string> {
  const identifier = `node-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active, steps },
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return identifier;
}

const inApp = (content: string) => ({ template: { type: 'in_app', content } });

/** The transaction's job statuses in step order (all its subscribers). */
async function jobStatuses(transactionId: string): Promise<string[]> {
  const rows = await t.db
    .select({ status: jobs.status })
    .from(jobs)
    .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
    .where(eq(jobs.transactionId, transactionId))
    .orderBy(asc(jobs.subscriberId), asc(workflowSteps.position));
  return rows.map((r) => r.status);
}

const FINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const settled = async (transactionId: string, count: number) =>
  eventually(async () => {
    const statuses = await jobStatuses(transactionId);
    return statuses.length === count && statuses.every((s) => FINAL.includes(s)) && statuses;
  });

/** The subscriber's in-app messages of one transaction (server API feed). */
async function inbox(subscriberId: string, transactionId: string) {
  const r = await t.api('GET', `/v1/subscribers/${subscriberId}/notifications/feed?limit=100`);
  if (r.statusCode !== 200) return [];
  return (r.json().data as { transactionId: string; content: string }[]).filter(
    (m) => m.transactionId === transactionId,
  );
}

/** An axios rejection's status and Novu error body. */
async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => {
      throw new Error('expected the call to be refused');
    },
    (e: unknown) => e,
  )) as { response?: { status: number; data: { statusCode: number; message: unknown } } };
  return { status: error.response?.status, body: error.response?.data };
}

describe('@novu/node 0.24.2 events against Sino', () => {
  it('trigger to an identified subscriber: processed, the message rendered with its profile', async () => {
    const name = await workflow([inApp('Olá {{subscriber.firstName}}, reserva {{code}}')]);
    const identified = await novu.subscribers.identify('node-ana', {
      firstName: 'Ana',
      email: 'ana@example.com',
    });
    expect(identified.status).toBe(201);
    expect(identified.data.data).toMatchObject({ subscriberId: 'node-ana', firstName: 'Ana' });

    const r = await novu.trigger(name, {
      to: 'node-ana',
      payload: { code: 'R-1' },
      transactionId: 'node-tx-1',
    });
    expect(r.status).toBe(201);
    expect(r.data).toEqual({
      data: { acknowledged: true, status: 'processed', transactionId: 'node-tx-1' },
    });
    await settled('node-tx-1', 1);
    expect(await inbox('node-ana', 'node-tx-1')).toEqual([
      expect.objectContaining({ content: 'Olá Ana, reserva R-1' }),
    ]);

    // The execution log, read with the client's own call.
    const activity = await t.api('GET', '/v1/notifications?transactionId=node-tx-1');
    const notificationId = activity.json().data[0]._id as string;
    const log = await novu.executionDetails.get({ notificationId, subscriberId: 'node-ana' });
    expect(log.status).toBe(200);
    expect((log.data.data as { code: number }[]).map((d) => d.code)).toEqual([1000, 1007]);
  });

  it('update changes what the next trigger renders; a trigger without transactionId gets one', async () => {
    const name = await workflow([inApp('Oi {{subscriber.firstName}} {{subscriber.lastName}}')]);
    const updated = await novu.subscribers.update('node-ana', {
      firstName: 'Anna',
      lastName: 'Lima',
    });
    expect(updated.data.data).toMatchObject({ firstName: 'Anna', lastName: 'Lima' });
    expect((await novu.subscribers.get('node-ana')).data.data).toMatchObject({
      subscriberId: 'node-ana',
      firstName: 'Anna',
      lastName: 'Lima',
      email: 'ana@example.com',
    });

    const r = await novu.trigger(name, { to: 'node-ana', payload: {} });
    const transactionId = r.data.data.transactionId as string;
    expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
    await settled(transactionId, 1);
    expect((await inbox('node-ana', transactionId))[0]?.content).toBe('Oi Anna Lima');
  });

  it('trigger to inline subscribers creates them, with an actor and a tenant', async () => {
    const name = await workflow([inApp('{{subscriber.firstName}} <- {{who}}')]);
    expect(
      (
        await t.api('POST', '/v1/tenants', {
          body: { identifier: 'node-tenant', name: 'Node tenant' },
        })
      ).statusCode,
    ).toBe(201);
    const r = await novu.trigger(name, {
      to: [
        { subscriberId: 'node-bia', firstName: 'Bia', email: 'bia@example.com' },
        { subscriberId: 'node-caio', firstName: 'Caio' },
      ],
      payload: { who: 'system' },
      actor: { subscriberId: 'node-ana' },
      tenant: 'node-tenant',
      transactionId: 'node-tx-inline',
    });
    expect(r.data.data.status).toBe('processed');
    await settled('node-tx-inline', 2);
    expect((await novu.subscribers.get('node-bia')).data.data).toMatchObject({
      firstName: 'Bia',
      email: 'bia@example.com',
    });
    expect((await inbox('node-bia', 'node-tx-inline'))[0]?.content).toBe('Bia <- system');
    expect((await inbox('node-caio', 'node-tx-inline'))[0]?.content).toBe('Caio <- system');
    const activity = (await t.api('GET', '/v1/notifications?transactionId=node-tx-inline')).json();
    expect(activity.data).toHaveLength(2);
    expect(activity.data[0].tenant).toMatchObject({ identifier: 'node-tenant' });
  });

  it("answers the statuses of workflows that cannot run, and Novu's errors", async () => {
    const off = await workflow([inApp('x')], false);
    expect((await novu.trigger(off, { to: 'node-ana', payload: {} })).data.data).toMatchObject({
      acknowledged: true,
      status: 'trigger_not_active',
    });

    const unknown = await refusal(
      novu.trigger('no-such-workflow', { to: 'node-ana', payload: {} }),
    );
    expect(unknown).toMatchObject({ status: 422, body: { statusCode: 422 } });

    const name = await workflow([inApp('x')]);
    await novu.trigger(name, { to: 'node-ana', payload: {}, transactionId: 'node-dup' });
    const again = await refusal(
      novu.trigger(name, { to: 'node-ana', payload: {}, transactionId: 'node-dup' }),
    );
    expect(again.status).toBe(409);
    await settled('node-dup', 1);
    expect(await inbox('node-ana', 'node-dup')).toHaveLength(1);

    const stranger = new Novu('not-a-key', { backendUrl });
    expect(await refusal(stranger.trigger(name, { to: 'node-ana', payload: {} }))).toMatchObject({
      status: 401,
      body: { message: 'API Key not found' },
    });
  });

  it('works with the retrying client, which adds an Idempotency-Key to each POST', async () => {
    const retrying = new Novu(t.credentials.apiKey, {
      backendUrl,
      retryConfig: { retryMax: 2, waitMin: 0.01, waitMax: 0.05 },
    });
    const name = await workflow([inApp('once')]);
    const r = await retrying.trigger(name, {
      to: 'node-ana',
      payload: {},
      transactionId: 'node-idem',
    });
    expect(r.data.data.status).toBe('processed');
    expect(r.config.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    await settled('node-idem', 1);
    expect(await inbox('node-ana', 'node-idem')).toHaveLength(1);
  });

  it('bulkTrigger answers each event on its own', async () => {
    const name = await workflow([inApp('bulk {{n}}')]);
    const r = await novu.bulkTrigger([
      { name, to: 'node-ana', payload: { n: 1 }, transactionId: 'node-bulk-1' },
      { name, to: ['node-bia', 'node-caio'], payload: { n: 2 }, transactionId: 'node-bulk-2' },
      { name: 'no-such-workflow', to: 'node-ana', payload: {}, transactionId: 'node-bulk-3' },
    ]);
    expect(r.status).toBe(201);
    expect(r.data.data).toEqual([
      { acknowledged: true, status: 'processed', transactionId: 'node-bulk-1' },
      { acknowledged: true, status: 'processed', transactionId: 'node-bulk-2' },
      {
        acknowledged: false,
        status: 'error',
        transactionId: 'node-bulk-3',
        error: ['Workflow with identifier "no-such-workflow" was not found'],
        // Sino's addition, which Novu's client hands over as it is.
        code: 'workflow_not_found',
      },
    ]);
    await settled('node-bulk-1', 1);
    await settled('node-bulk-2', 2);
    expect((await inbox('node-ana', 'node-bulk-1'))[0]?.content).toBe('bulk 1');
    expect((await inbox('node-bia', 'node-bulk-2'))[0]?.content).toBe('bulk 2');
    expect((await inbox('node-caio', 'node-bulk-2'))[0]?.content).toBe('bulk 2');
    expect(await jobStatuses('node-bulk-3')).toEqual([]);
  });

  it('broadcast reaches every subscriber of the environment once', async () => {
    const name = await workflow([inApp('to all: {{news}}')]);
    const listed = await novu.subscribers.list(0, 100);
    const everyone = (listed.data.data as { subscriberId: string }[]).map((s) => s.subscriberId);
    expect(everyone).toEqual(expect.arrayContaining(['node-ana', 'node-bia', 'node-caio']));

    const r = await novu.broadcast(name, {
      payload: { news: 'open on Sunday' },
      transactionId: 'node-broadcast',
    });
    expect(r.status).toBe(201);
    expect(r.data.data).toEqual({
      acknowledged: true,
      status: 'processed',
      transactionId: 'node-broadcast',
    });
    await settled('node-broadcast', everyone.length);
    for (const subscriberId of everyone)
      expect(await inbox(subscriberId, 'node-broadcast')).toEqual([
        expect.objectContaining({ content: 'to all: open on Sunday' }),
      ]);
  });

  it('cancel stops a delayed transaction: true, nothing delivered; then false', async () => {
    const name = await workflow([
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 2, unit: 'seconds' } },
      inApp('never'),
    ]);
    await novu.trigger(name, { to: 'node-ana', payload: {}, transactionId: 'node-cancel' });
    await eventually(async () => (await jobStatuses('node-cancel'))[0] === 'delayed');

    const r = await novu.events.cancel('node-cancel');
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ data: true });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await jobStatuses('node-cancel')).toEqual(['canceled', 'canceled']);
    expect(await inbox('node-ana', 'node-cancel')).toEqual([]);

    expect((await novu.events.cancel('node-cancel')).data).toEqual({ data: false });
    expect((await novu.events.cancel('never-triggered')).data).toEqual({ data: false });
  });

  it('delete removes the subscriber: gone for the API, its activity kept without profile', async () => {
    const deleted = await novu.subscribers.delete('node-caio');
    expect(deleted.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    expect(await refusal(novu.subscribers.get('node-caio'))).toMatchObject({ status: 404 });
    expect(await inbox('node-caio', 'node-bulk-2')).toEqual([]);
    const activity = (await t.api('GET', '/v1/notifications?transactionId=node-bulk-2')).json();
    expect(activity.data).toHaveLength(2);
    expect(
      activity.data.map((n: { subscriber?: { subscriberId: string } }) => n.subscriber),
    ).toEqual(
      expect.arrayContaining([undefined, expect.objectContaining({ subscriberId: 'node-bia' })]),
    );
  });
});

describe('integrations (@novu/node)', () => {
  const key = 'SG.node-integration-key-7890';
  const credentials = { apiKey: key, from: 'node@locadora.example', senderName: 'Locadora' };
  let id: string;

  it('create: an active SendGrid becomes the email primary; credentials come back masked', async () => {
    const r = await novu.integrations.create('sendgrid', {
      channel: 'email' as never,
      name: 'SendGrid via node',
      identifier: 'node-sendgrid',
      credentials,
      active: true,
      check: false,
    });
    expect(r.status).toBe(201);
    const created = r.data.data;
    id = created._id;
    expect(created).toMatchObject({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'node-sendgrid',
      active: true,
      primary: true,
      credentials: { apiKey: '••••••••7890', from: 'node@locadora.example' },
    });
  });

  it('create refuses missing credentials with a 400 naming them', async () => {
    const error = await refusal(
      novu.integrations.create('mailjet', { channel: 'email' as never, credentials: {} }),
    );
    expect(error).toMatchObject({ status: 400 });
    expect(error.body!.message).toBe(
      'Invalid credentials for Mailjet: apiKey is required; secretKey is required; from is required; senderName is required',
    );
  });

  it('getAll and getActive list it, with the sandbox it stepped in front of', async () => {
    const all = (await novu.integrations.getAll()).data.data as Record<string, unknown>[];
    expect(all.map((i) => i['identifier'])).toEqual(expect.arrayContaining(['node-sendgrid']));
    const active = (await novu.integrations.getActive()).data.data as Record<string, unknown>[];
    const email = active.filter((i) => i['channel'] === 'email');
    expect(email.map((i) => [i['providerId'], i['selected']])).toEqual([
      ['sendgrid', true],
      ['novu-email', false],
    ]);
    expect((await novu.integrations.getInAppStatus()).data).toEqual({ data: true });
  });

  it('update renames it and deactivates it; setIntegrationAsPrimary brings it back first', async () => {
    const updated = await novu.integrations.update(id, { name: 'SendGrid (old)', active: false });
    expect(updated.data.data).toMatchObject({
      name: 'SendGrid (old)',
      active: false,
      primary: false,
    });
    const primary = await novu.integrations.setIntegrationAsPrimary(id);
    expect(primary.data.data).toMatchObject({ active: true, primary: true });
  });

  it('delete removes it and answers the integrations left', async () => {
    const r = await novu.integrations.delete(id);
    expect(r.status).toBe(200);
    expect((r.data.data as { _id: string }[]).map((i) => i._id)).not.toContain(id);
    expect(await refusal(novu.integrations.delete(id))).toMatchObject({ status: 404 });
  });

  it('never logged the key', () => {
    expect(t.logs.join('\n')).not.toContain(key);
  });
});
