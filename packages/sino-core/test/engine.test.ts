import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { executionDetails, jobs, messages, subscribers, workflowSteps } from '../src/db/schema.js';
import { claimKey, createEngineRepository } from '../src/engine/repository.js';
import { eventually, turnOffSandboxDelivery } from './fixtures.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
beforeAll(async () => {
  t = await createSinoTestApp();
  // The email and SMS steps here show the log of a channel with no integration.
  await turnOffSandboxDelivery(t);
});
afterAll(() => t.close());

let sequence = 0;

/** Creates an active workflow through the server API and answers its identifier. */
async function workflow(
  steps: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const identifier = `wf-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active: true, steps, ...extra },
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return identifier;
}

const inApp = (content: string, extra: Record<string, unknown> = {}) => ({
  template: { type: 'in_app', content },
  ...extra,
});

async function trigger(body: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/events/trigger', { body });
  return { status: r.statusCode, body: r.json() };
}

/** The transaction's jobs in step order (one subscriber). */
async function jobsOf(transactionId: string) {
  const rows = await t.db
    .select({ job: jobs })
    .from(jobs)
    .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
    .where(eq(jobs.transactionId, transactionId))
    .orderBy(asc(workflowSteps.position));
  return rows.map((r) => r.job);
}

async function detailsOf(transactionId: string) {
  return t.db
    .select()
    .from(executionDetails)
    .where(eq(executionDetails.transactionId, transactionId))
    .orderBy(asc(executionDetails.createdAt));
}

const settled = (rows: { status: string }[]) =>
  rows.length > 0 &&
  rows.every((j) => !['pending', 'queued', 'running', 'delayed'].includes(j.status));

async function messagesOf(subscriberId: string, transactionId: string) {
  const token = await t.session(subscriberId);
  const r = await t.widget('GET', '/notifications/feed', { token, query: { limit: '100' } });
  return (r.json().data as { transactionId: string; content: string }[]).filter(
    (m) => m.transactionId === transactionId,
  );
}

describe('trigger intake', () => {
  it('answers processed with a generated transactionId, and delivers the in-app message', async () => {
    const name = await workflow([inApp('Olá {{subscriber.firstName}}, reserva {{code}}')]);
    await t.session('ana', { firstName: 'Ana' });
    const r = await trigger({ name, to: 'ana', payload: { code: 'R-1' } });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({
      acknowledged: true,
      status: 'processed',
      transactionId: expect.any(String),
    });
    const tx = r.body.data.transactionId as string;
    const found = await eventually(async () => {
      const m = await messagesOf('ana', tx);
      return m.length > 0 && m;
    });
    expect(found[0]!.content).toBe('Olá Ana, reserva R-1');
    const details = await eventually(async () => {
      const d = await detailsOf(tx);
      return d.some((x) => x.code === 1007) && d;
    });
    expect(details.map((d) => d.code)).toEqual(expect.arrayContaining([1000, 1007]));
    expect((await jobsOf(tx)).map((j) => j.status)).toEqual(['completed']);
  });

  it('reaches subscribers named inline (created or updated) and through a topic, each once', async () => {
    const name = await workflow([inApp('Hello {{subscriber.lastName}}')]);
    expect(
      (await t.api('POST', '/v1/topics', { body: { key: 'fleet', name: 'Fleet' } })).statusCode,
    ).toBe(201);
    await t.session('topic-a');
    await t.session('topic-b');
    await t.api('POST', '/v1/topics/fleet/subscribers', {
      body: { subscribers: ['topic-a', 'topic-b'] },
    });
    const r = await trigger({
      name,
      to: [
        { subscriberId: 'topic-a', lastName: 'Alves' },
        { type: 'Topic', topicKey: 'fleet' },
      ],
      transactionId: 'tx-topic',
    });
    expect(r.body.data.status).toBe('processed');
    await eventually(async () => settled(await jobsOf('tx-topic')));
    expect(await messagesOf('topic-a', 'tx-topic')).toEqual([
      expect.objectContaining({ content: 'Hello Alves' }),
    ]);
    expect(await messagesOf('topic-b', 'tx-topic')).toHaveLength(1);
  });

  it('writes a subscriber named inline only when its profile changes', async () => {
    const name = await workflow([inApp('Hello {{subscriber.firstName}}')]);
    const profile = { subscriberId: 'same-profile', firstName: 'Bia', data: { plano: 'ouro' } };
    const subscriber = async () =>
      (await t.api('GET', '/v1/subscribers/same-profile')).json().data as {
        firstName: string;
        updatedAt: string;
      };
    const sent = async (to: Record<string, unknown>, transactionId: string) => {
      expect((await trigger({ name, to: [to], transactionId })).body.data.status).toBe('processed');
      await eventually(async () => settled(await jobsOf(transactionId)));
    };
    await sent(profile, 'tx-profile-1');
    const first = await subscriber();
    expect(first.firstName).toBe('Bia');

    await sent({ ...profile, data: { plano: 'ouro' } }, 'tx-profile-2');
    expect((await subscriber()).updatedAt).toBe(first.updatedAt);

    await sent({ ...profile, firstName: 'Beatriz' }, 'tx-profile-3');
    const changed = await subscriber();
    expect(changed.firstName).toBe('Beatriz');
    expect(changed.updatedAt).not.toBe(first.updatedAt);
    expect(await messagesOf('same-profile', 'tx-profile-3')).toEqual([
      expect.objectContaining({ content: 'Hello Beatriz' }),
    ]);
  });

  it('answers 422 for an unknown workflow and writes nothing', async () => {
    const r = await trigger({ name: 'no-such-workflow', to: 'ana', transactionId: 'tx-422' });
    expect(r.status).toBe(422);
    expect(await jobsOf('tx-422')).toEqual([]);
  });

  it('answers the statuses of workflows that cannot run', async () => {
    const inactive = await workflow([inApp('x')], { active: false });
    await t.api('PUT', `/v1/workflows/${inactive}/status`, { body: { active: false } });
    expect((await trigger({ name: inactive, to: 'ana' })).body.data.status).toBe(
      'trigger_not_active',
    );
    expect((await trigger({ name: await workflow([]), to: 'ana' })).body.data.status).toBe(
      'no_workflow_steps_defined',
    );
    const offSteps = await workflow([inApp('x', { active: false })]);
    expect((await trigger({ name: offSteps, to: 'ana' })).body.data.status).toBe(
      'no_workflow_active_steps_defined',
    );
    const name = await workflow([inApp('x')]);
    expect((await trigger({ name, to: 'ana', tenant: 'no-tenant' })).body.data.status).toBe(
      'no_tenant_found',
    );
    expect((await trigger({ name, to: [{ email: 'a@b.dev' }] })).body.data.status).toBe(
      'subscriber_id_missing',
    );
  });

  it('refuses a transactionId used before in the environment (409), and 400 on bad input', async () => {
    const name = await workflow([inApp('x')]);
    expect((await trigger({ name, to: 'ana', transactionId: 'dup-1' })).status).toBe(201);
    const again = await trigger({ name, to: 'ana', transactionId: 'dup-1' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/transactionId/);
    const bad = await trigger({ name: '', to: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(expect.arrayContaining([expect.stringMatching(/^name /)]));
  });

  it('claims each transactionId once, in one statement for many: twice in a list, or used before', async () => {
    const repo = createEngineRepository(t.db);
    const env = t.credentials.environmentId;
    const other = '0'.repeat(24);
    const claim = (pairs: [string, string][]) =>
      repo.claimTransactions(
        pairs.map(([e, id]) => ({
          environmentId: e,
          transactionId: id,
          workflowId: other,
        })),
      );
    expect(
      await claim([
        [env, 'claim-a'],
        [env, 'claim-a'],
        [env, 'claim-b'],
        [other, 'claim-a'],
      ]),
    ).toEqual(
      new Set([claimKey(env, 'claim-a'), claimKey(env, 'claim-b'), claimKey(other, 'claim-a')]),
    );
    expect(
      await claim([
        [env, 'claim-b'],
        [env, 'claim-c'],
      ]),
    ).toEqual(new Set([claimKey(env, 'claim-c')]));
    expect(await claim([])).toEqual(new Set());
  });

  it('answers 401 without an API key', async () => {
    const r = await t.api('POST', '/v1/events/trigger', {
      body: { name: 'x', to: 'ana' },
      authorization: null,
    });
    expect(r.statusCode).toBe(401);
  });
});

describe('channel steps', () => {
  it('records the missing-integration code of each external channel and carries on', async () => {
    const name = await workflow([
      { template: { type: 'email', subject: 'Hi', content: 'Hello' } },
      { template: { type: 'sms', content: 'Hello' } },
      { template: { type: 'chat', content: 'Hello' } },
      { template: { type: 'push', title: 'Hi', content: 'Hello' } },
      inApp('after the others'),
    ]);
    await trigger({ name, to: 'ana', transactionId: 'tx-missing' });
    await eventually(async () => settled(await jobsOf('tx-missing')));
    const codes = (await detailsOf('tx-missing')).map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining([3005, 3007, 3008, 3009, 1007]));
    expect((await jobsOf('tx-missing')).map((j) => j.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'completed',
    ]);
  });

  it('skips a step whose filter does not match, with the conditions recorded', async () => {
    const name = await workflow([
      inApp('only big ones', {
        filters: [
          {
            value: 'AND',
            children: [{ on: 'payload', field: 'total', operator: 'LARGER', value: '100' }],
          },
        ],
      }),
    ]);
    await trigger({ name, to: 'ana', payload: { total: 50 }, transactionId: 'tx-filter-no' });
    await trigger({ name, to: 'ana', payload: { total: 500 }, transactionId: 'tx-filter-yes' });
    await eventually(async () => settled(await jobsOf('tx-filter-no')));
    await eventually(async () => settled(await jobsOf('tx-filter-yes')));
    expect((await jobsOf('tx-filter-no'))[0]!.status).toBe('skipped');
    expect(await messagesOf('ana', 'tx-filter-no')).toEqual([]);
    expect(await messagesOf('ana', 'tx-filter-yes')).toHaveLength(1);
    const skipped = (await detailsOf('tx-filter-no')).find((d) => /filter/.test(d.detail));
    expect(skipped?.raw).toMatchObject({
      conditions: [expect.objectContaining({ passed: false })],
    });
  });

  it('skips a channel the subscriber turned off, except in a critical workflow', async () => {
    const normal = await workflow([inApp('normal')]);
    const critical = await workflow([inApp('critical')], { critical: true });
    const token = await t.session('quiet');
    for (const name of [normal, critical]) {
      const id = (await t.api('GET', `/v1/workflows/${name}`)).json().data._id as string;
      await t.widget('PATCH', `/preferences/${id}`, {
        token,
        body: { channel: { type: 'in_app', enabled: false } },
      });
    }
    await trigger({ name: normal, to: 'quiet', transactionId: 'tx-pref-off' });
    await trigger({ name: critical, to: 'quiet', transactionId: 'tx-pref-critical' });
    await eventually(async () => settled(await jobsOf('tx-pref-off')));
    await eventually(async () => settled(await jobsOf('tx-pref-critical')));
    expect((await jobsOf('tx-pref-off'))[0]!.status).toBe('skipped');
    expect((await detailsOf('tx-pref-off')).some((d) => /in_app is off/.test(d.detail))).toBe(true);
    expect(await messagesOf('quiet', 'tx-pref-critical')).toHaveLength(1);
  });
});

describe('preferences read with the notification', () => {
  it("answers the subscriber's workflow and global rows with the new notification", async () => {
    const name = await workflow([inApp('one')]);
    const token = await t.session('reads-once');
    const id = (await t.api('GET', `/v1/workflows/${name}`)).json().data._id as string;
    await t.widget('PATCH', `/preferences/${id}`, {
      token,
      body: { channel: { type: 'in_app', enabled: false } },
    });
    await t.widget('PATCH', '/preferences', {
      token,
      body: { preferences: [{ type: 'sms', enabled: false }] },
    });
    const repo = createEngineRepository(t.db);
    const found = (await repo.workflowWithSteps(id))!;
    const [subscriber] = await t.db
      .select()
      .from(subscribers)
      .where(eq(subscribers.subscriberId, 'reads-once'));
    const created = await repo.createNotification(
      {
        environmentId: found.workflow.environmentId,
        organizationId: found.workflow.organizationId,
        workflowId: id,
        subscriberId: subscriber!.id,
        transactionId: 'tx-prefs-read-once',
        payload: {},
      },
      found.steps,
      {},
      {},
      { channel: 'trigger', detail: 'Trigger received', status: 'Success' },
      'running',
    );
    // What the first step needs, without a statement of its own.
    expect(created?.preferences).toEqual({
      workflow: { global: false, enabled: true, channels: { in_app: false } },
      global: { global: true, enabled: true, channels: { sms: false } },
    });
  });

  it('skips an inline first step when the global switch is off', async () => {
    const name = await workflow([inApp('muted')]);
    const token = await t.session('muted-all');
    await t.widget('PATCH', '/preferences', { token, body: { enabled: false } });
    await trigger({ name, to: 'muted-all', transactionId: 'tx-global-off' });
    await eventually(async () => settled(await jobsOf('tx-global-off')));
    expect((await jobsOf('tx-global-off'))[0]!.status).toBe('skipped');
    expect(
      (await detailsOf('tx-global-off')).some((d) => /in_app is off \(global/.test(d.detail)),
    ).toBe(true);
    expect(await messagesOf('muted-all', 'tx-global-off')).toEqual([]);
  });
});

describe('delay and digest', () => {
  it('waits a delay step, then runs the next step', async () => {
    const name = await workflow([
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
      inApp('after a second'),
    ]);
    const started = Date.now();
    await trigger({ name, to: 'ana', transactionId: 'tx-delay' });
    await eventually(async () => (await jobsOf('tx-delay'))[0]?.status === 'delayed');
    expect(await messagesOf('ana', 'tx-delay')).toEqual([]);
    await eventually(async () => settled(await jobsOf('tx-delay')));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await messagesOf('ana', 'tx-delay')).toHaveLength(1);
  });

  it('cancel removes a pending delayed job: nothing is delivered', async () => {
    const name = await workflow([
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 2, unit: 'seconds' } },
      inApp('never'),
    ]);
    await trigger({ name, to: 'ana', transactionId: 'tx-cancel' });
    await eventually(async () => (await jobsOf('tx-cancel'))[0]?.status === 'delayed');
    const r = await t.api('DELETE', '/v1/events/trigger/tx-cancel');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ data: true });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await jobsOf('tx-cancel')).map((j) => j.status)).toEqual(['canceled', 'canceled']);
    expect(await messagesOf('ana', 'tx-cancel')).toEqual([]);
    // Nothing left to cancel.
    expect((await t.api('DELETE', '/v1/events/trigger/tx-cancel')).json()).toEqual({
      data: false,
    });
  });

  it('merges the events of a digest window into one message', async () => {
    const name = await workflow([
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 2, unit: 'seconds' } },
      inApp('{{step.total_count}} events: {{#each step.events}}{{code}} {{/each}}'),
    ]);
    await t.session('digested');
    for (const code of ['a', 'b', 'c'])
      await trigger({
        name,
        to: 'digested',
        payload: { code },
        transactionId: `tx-digest-${code}`,
      });
    const transactions = ['a', 'b', 'c'].map((code) => `tx-digest-${code}`);
    for (const tx of transactions) await eventually(async () => settled(await jobsOf(tx)), 10_000);
    const all = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.templateIdentifier, name)));
    expect(all).toHaveLength(1);
    // The queue does not order the events: whichever runs first opens the digest, the
    // others merge into it in the order they ran.
    expect(all[0]!.content).toMatch(/^3 events: [abc] [abc] [abc] $/);
    expect(new Set(all[0]!.content.slice('3 events: '.length).trim().split(' '))).toEqual(
      new Set(['a', 'b', 'c']),
    );
    const digestSteps = await Promise.all(
      transactions.map(async (tx) => (await jobsOf(tx)).map((j) => j.status).join()),
    );
    expect(digestSteps.sort()).toEqual(['completed,completed', 'merged,skipped', 'merged,skipped']);
  });

  it('opens one digest when events arrive at the same moment', async () => {
    const name = await workflow([
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
      inApp('{{step.total_count}} together'),
    ]);
    await t.session('together');
    const codes = ['p', 'q', 'r', 's', 't'];
    await Promise.all(
      codes.map((code) =>
        trigger({ name, to: 'together', payload: { code }, transactionId: `tx-same-${code}` }),
      ),
    );
    for (const code of codes)
      await eventually(async () => settled(await jobsOf(`tx-same-${code}`)), 10_000);
    const all = await t.db.select().from(messages).where(eq(messages.templateIdentifier, name));
    expect(all.map((m) => m.content)).toEqual(['5 together']);
  });
});
