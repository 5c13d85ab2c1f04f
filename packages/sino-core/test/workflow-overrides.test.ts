import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { Novu } from '@novu/node';
import { localPeerNetworks, startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import {
  executionDetails,
  jobs,
  messages,
  notifications,
  workflowOverrides,
} from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { resolveChannel } from '../src/modules/preferences/resolve.js';
import { eventually } from './fixtures.js';
import { addEnvironment, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';

/**
 * Tenants' overrides of workflows (`/v1/workflow-overrides`, decision 047): the seven routes
 * with Novu 0.24's shapes, and what a trigger naming a tenant does with them (the workflow
 * stopped or run for that tenant only, its channel defaults replaced), with `{{tenant.*}}` in
 * every channel's templates.
 */
let t: SinoTestApp;
/** Another environment of the organization, with its own key, workflows and tenants. */
let other: { environmentId: string; apiKey: string };
const asOther = () => `ApiKey ${other.apiKey}`;
/** Where the chat (Slack webhook) and push (Push Webhook) steps are delivered. */
let chat: HttpPeer;
let push: HttpPeer;

beforeAll(async () => {
  [chat, push] = await Promise.all([startHttpPeer(), startHttpPeer()]);
  t = await createSinoTestApp({
    delivery: { allowedNetworks: localPeerNetworks, retryDelaysMs: [], timeoutMs: 2000 },
  });
  other = await addEnvironment(t);
  for (const body of [
    {
      providerId: 'slack',
      channel: 'chat',
      identifier: 'slack',
      credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'slack-wo-0001' },
    },
    {
      providerId: 'push-webhook',
      channel: 'push',
      identifier: 'push-webhook',
      credentials: { webhookUrl: `${push.url}/push`, secretKey: 'push-wo-0002' },
    },
  ]) {
    const r = await t.api('POST', '/v1/integrations', { body: { active: true, ...body } });
    if (r.statusCode !== 201) throw new Error(`integration: ${r.statusCode} ${r.body}`);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([chat, push].map((p) => p?.close()));
});

let sequence = 0;

/** A workflow made through the server API (active unless told); answers its ids. */
async function workflow(
  steps: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
  authorization?: string,
): Promise<{ _id: string; identifier: string }> {
  const identifier = `wo-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active: true, steps, ...extra },
    ...(authorization && { authorization }),
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return { _id: r.json().data._id, identifier };
}

/** A tenant made through the server API; answers its `_id`. */
async function tenant(
  identifier: string,
  name: string,
  data?: Record<string, unknown>,
  authorization?: string,
): Promise<string> {
  const r = await t.api('POST', '/v1/tenants', {
    body: { identifier, name, ...(data && { data }) },
    ...(authorization && { authorization }),
  });
  if (r.statusCode !== 201) throw new Error(`tenant: ${r.statusCode} ${r.body}`);
  return r.json().data._id;
}

async function createOverride(body: Record<string, unknown>, authorization?: string) {
  const r = await t.api('POST', '/v1/workflow-overrides', {
    body,
    ...(authorization && { authorization }),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { _id: string; active: boolean; preferenceSettings: object };
}

/** Every stored override (all environments), oldest first: what a refused call must not change. */
const overrideRows = () =>
  t.db.select().from(workflowOverrides).orderBy(asc(workflowOverrides.createdAt));

const inApp = (content: string) => ({ template: { type: 'in_app', content } });
const email = (subject: string, content: string) => ({
  template: { type: 'email', subject, content },
});

async function subscriber(subscriberId: string, profile: Record<string, unknown> = {}) {
  const r = await t.api('POST', '/v1/subscribers', {
    body: { subscriberId, firstName: 'Ana', ...profile },
  });
  if (r.statusCode !== 201) throw new Error(`subscriber: ${r.statusCode} ${r.body}`);
}

async function trigger(body: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/events/trigger', { body });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as {
    acknowledged: boolean;
    status: string;
    transactionId: string;
    error?: string[];
  };
}

const FINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/** The transaction's jobs once every one of them ended (`count` of them). */
const settled = (transactionId: string, count: number) =>
  eventually(async () => {
    const rows = await t.db.select().from(jobs).where(eq(jobs.transactionId, transactionId));
    return rows.length === count && rows.every((j) => FINAL.includes(j.status)) && rows;
  });

/** The subscriber's in-app messages of one transaction, as the server API's feed lists them. */
async function feed(subscriberId: string, transactionId: string) {
  const r = await t.api('GET', `/v1/subscribers/${subscriberId}/notifications/feed?limit=100`);
  expect(r.statusCode).toBe(200);
  return (r.json().data as { transactionId: string; content: string }[]).filter(
    (m) => m.transactionId === transactionId,
  );
}

/** The channels the transaction's messages went to. */
async function channelsOf(transactionId: string) {
  const rows = await t.db
    .select({ channel: messages.channel })
    .from(messages)
    .where(eq(messages.transactionId, transactionId));
  return rows.map((r) => r.channel).sort();
}

describe('resolveChannel with a tenant override', () => {
  const workflow = { critical: false, preferenceSettings: { email: false, sms: true } };

  it("stands for the workflow's defaults, as Novu's workflowOverride source", () => {
    expect(
      resolveChannel({ workflow, tenantOverride: { email: true, sms: false }, channel: 'email' }),
    ).toEqual({ enabled: true, source: 'workflowOverride' });
    expect(
      resolveChannel({ workflow, tenantOverride: { email: true, sms: false }, channel: 'sms' }),
    ).toEqual({ enabled: false, source: 'workflowOverride' });
    expect(resolveChannel({ workflow, tenantOverride: null, channel: 'email' })).toEqual({
      enabled: false,
      source: 'template',
    });
  });

  it("yields to the subscriber's own switches, the global ones and a critical workflow", () => {
    const tenantOverride = { email: false, in_app: false };
    expect(
      resolveChannel({
        workflow,
        tenantOverride,
        workflowPreference: { enabled: true, channels: { email: true } },
        channel: 'email',
      }),
    ).toEqual({ enabled: true, source: 'subscriber' });
    expect(
      resolveChannel({
        workflow,
        tenantOverride: { sms: true },
        globalPreference: { enabled: true, channels: { sms: false } },
        channel: 'sms',
      }),
    ).toEqual({ enabled: false, source: 'global' });
    expect(
      resolveChannel({
        workflow: { ...workflow, critical: true },
        tenantOverride,
        channel: 'email',
      }),
    ).toEqual({ enabled: true, source: 'critical' });
  });
});

describe('server API authentication', () => {
  const id = newId();
  it.each([
    ['POST', '/v1/workflow-overrides'],
    ['GET', '/v1/workflow-overrides'],
    ['GET', `/v1/workflow-overrides/${id}`],
    ['PUT', `/v1/workflow-overrides/${id}`],
    ['DELETE', `/v1/workflow-overrides/${id}`],
    ['GET', `/v1/workflow-overrides/workflows/${id}/tenants/${id}`],
    ['PUT', `/v1/workflow-overrides/workflows/${id}/tenants/${id}`],
  ] as const)('%s %s answers 401 without a valid API key', async (method, url) => {
    const before = await overrideRows();
    for (const authorization of [null, 'ApiKey wrong', 'Bearer x']) {
      const r = await t.api(method, url, {
        authorization,
        body: { workflowId: id, tenantId: id, active: true },
      });
      expect(r.statusCode).toBe(401);
    }
    expect(await overrideRows()).toEqual(before);
  });
});

describe('/v1/workflow-overrides', () => {
  it("creates an override with Novu's defaults and shape, reads it back every way, updates and deletes it", async () => {
    const w = await workflow([inApp('Olá')]);
    const acme = await tenant('crud-acme', 'Acme');
    const r = await t.api('POST', '/v1/workflow-overrides', {
      body: { workflowId: w._id, tenantId: acme },
    });
    expect(r.statusCode, r.body).toBe(201);
    const created = r.json().data;
    // Not given, `active` is false and every channel on: what Novu stores.
    expect(created).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _organizationId: t.credentials.organizationId,
      _environmentId: t.credentials.environmentId,
      _workflowId: w._id,
      _tenantId: acme,
      active: false,
      preferenceSettings: { in_app: true, email: true, sms: true, chat: true, push: true },
      deleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const byId = await t.api('GET', `/v1/workflow-overrides/${created._id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().data).toEqual(created);
    // Ids are compared whatever their case, as Novu's ObjectIds are.
    const byPair = await t.api(
      'GET',
      `/v1/workflow-overrides/workflows/${w._id.toUpperCase()}/tenants/${acme}`,
    );
    expect(byPair.statusCode).toBe(200);
    expect(byPair.json().data).toEqual(created);

    // The channels given are merged over the stored ones; `active` only when given.
    const updated = await t.api('PUT', `/v1/workflow-overrides/${created._id}`, {
      body: { preferenceSettings: { email: false, sms: false } },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({
      _id: created._id,
      active: false,
      preferenceSettings: { in_app: true, email: false, sms: false, chat: true, push: true },
    });
    const again = await t.api('PUT', `/v1/workflow-overrides/workflows/${w._id}/tenants/${acme}`, {
      body: { active: true, preferenceSettings: { sms: true } },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({
      active: true,
      preferenceSettings: { in_app: true, email: false, sms: true, chat: true, push: true },
    });
    // `null` is "not given", as Novu's optional fields read it.
    const unchanged = await t.api('PUT', `/v1/workflow-overrides/${created._id}`, {
      body: { active: null, preferenceSettings: null },
    });
    expect(unchanged.json().data).toMatchObject({ active: true });
    const [row] = await t.db
      .select()
      .from(workflowOverrides)
      .where(eq(workflowOverrides.id, created._id));
    expect(row).toMatchObject({
      active: true,
      preferenceSettings: { in_app: true, email: false, sms: true, chat: true, push: true },
    });
    const listed = await t.api('GET', '/v1/workflow-overrides?limit=100');
    expect(listed.json().data).toContainEqual(unchanged.json().data);

    const deleted = await t.api('DELETE', `/v1/workflow-overrides/${created._id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ data: true });
    expect((await overrideRows()).map((o) => o.id)).not.toContain(created._id);
    const gone = await t.api('GET', `/v1/workflow-overrides/${created._id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(`Workflow override with id ${created._id} was not found`);
    expect((await t.api('DELETE', `/v1/workflow-overrides/${created._id}`)).statusCode).toBe(404);
    const noPair = await t.api('GET', `/v1/workflow-overrides/workflows/${w._id}/tenants/${acme}`);
    expect(noPair.statusCode).toBe(404);
  });

  it('takes the given fields at creation', async () => {
    const w = await workflow([inApp('Olá')]);
    const acme = await tenant('given-acme', 'Acme');
    const created = await createOverride({
      workflowId: w._id,
      tenantId: acme,
      active: true,
      preferenceSettings: { email: false },
    });
    expect(created).toMatchObject({
      active: true,
      preferenceSettings: { in_app: true, email: false, sms: true, chat: true, push: true },
    });
  });

  it('refuses a second override of the same workflow and tenant (409), changing nothing', async () => {
    const w = await workflow([inApp('Olá')]);
    const acme = await tenant('twice-acme', 'Acme');
    const first = await createOverride({ workflowId: w._id, tenantId: acme, active: true });
    const before = await overrideRows();
    const r = await t.api('POST', '/v1/workflow-overrides', {
      body: { workflowId: w._id, tenantId: acme, active: false },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      `Workflow ${w._id} already has an override for tenant ${acme}: change it with PUT /v1/workflow-overrides/workflows/${w._id}/tenants/${acme}`,
    );
    expect(await overrideRows()).toEqual(before);
    expect(before.find((o) => o.id === first._id)?.active).toBe(true);
  });

  it('pages the environment’s overrides, newest first', async () => {
    const w = await workflow([inApp('Olá')]);
    const made: string[] = [];
    for (const name of ['page-a', 'page-b', 'page-c']) {
      made.push(
        (await createOverride({ workflowId: w._id, tenantId: await tenant(name, name) }))._id,
      );
    }
    const total = (await overrideRows()).filter(
      (o) => o.environmentId === t.credentials.environmentId,
    ).length;
    const first = await t.api('GET', '/v1/workflow-overrides?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ page: 0, pageSize: 2, hasMore: true });
    expect(first.json().data.map((o: { _id: string }) => o._id)).toEqual([made[2], made[1]]);
    const last = await t.api('GET', `/v1/workflow-overrides?page=${Math.floor(total / 2)}&limit=2`);
    expect(last.json()).toMatchObject({ hasMore: false });
    expect(last.json().data).toHaveLength(total % 2);
    const defaults = await t.api('GET', '/v1/workflow-overrides');
    expect(defaults.json()).toMatchObject({ page: 0, pageSize: 10 });
  });

  it.each([
    [
      'no workflowId',
      (w: string, a: string) => ({ tenantId: a }),
      'workflowId should not be empty',
    ],
    [
      "a tenant's identifier for its _id",
      (w: string) => ({ workflowId: w, tenantId: 'bad-acme' }),
      "tenantId must be a tenant's _id (24 hexadecimal characters), not its identifier",
    ],
    [
      "a workflow's identifier for its _id",
      (_: string, a: string) => ({ workflowId: 'wo-1', tenantId: a }),
      "workflowId must be a workflow's _id (24 hexadecimal characters)",
    ],
    [
      'an active that is not a boolean',
      (w: string, a: string) => ({ workflowId: w, tenantId: a, active: 'no' }),
      'active must be a boolean',
    ],
    [
      'a channel switch that is not a boolean',
      (w: string, a: string) => ({ workflowId: w, tenantId: a, preferenceSettings: { email: 1 } }),
      'preferenceSettings.email must be a boolean',
    ],
  ])('POST answers 400 to %s, writing nothing', async (_, body, message) => {
    const w = await workflow([inApp('Olá')]);
    const acme = await tenant(`bad-${++sequence}`, 'Acme');
    const before = await overrideRows();
    const r = await t.api('POST', '/v1/workflow-overrides', { body: body(w._id, acme) });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain(message);
    expect(await overrideRows()).toEqual(before);
  });

  it('PUT, GET and DELETE answer 400 to malformed ids or fields, changing nothing', async () => {
    const w = await workflow([inApp('Olá')]);
    const acme = await tenant('malformed-acme', 'Acme');
    const o = await createOverride({ workflowId: w._id, tenantId: acme, active: true });
    const before = await overrideRows();
    const refused = [
      ['GET', '/v1/workflow-overrides/not-an-id', undefined, 'overrideId must be'],
      ['DELETE', '/v1/workflow-overrides/not-an-id', undefined, 'overrideId must be'],
      ['PUT', '/v1/workflow-overrides/not-an-id', { active: false }, 'overrideId must be'],
      ['PUT', `/v1/workflow-overrides/${o._id}`, { active: 'off' }, 'active must be a boolean'],
      [
        'PUT',
        `/v1/workflow-overrides/${o._id}`,
        { preferenceSettings: { in_app: 'no' } },
        'preferenceSettings.in_app must be a boolean',
      ],
      [
        'GET',
        `/v1/workflow-overrides/workflows/${w._id}/tenants/malformed-acme`,
        undefined,
        "tenantId must be a tenant's _id",
      ],
      [
        'PUT',
        `/v1/workflow-overrides/workflows/${w.identifier}/tenants/${acme}`,
        { active: false },
        "workflowId must be a workflow's _id",
      ],
      ['GET', '/v1/workflow-overrides?limit=0', undefined, 'limit must not be less than 1'],
      ['GET', '/v1/workflow-overrides?limit=101', undefined, 'limit must not be greater than 100'],
    ] as const;
    for (const [method, url, body, message] of refused) {
      const r = await t.api(method, url, { body });
      expect(r.statusCode, `${method} ${url}`).toBe(400);
      expect(JSON.stringify(r.json().message)).toContain(message);
    }
    expect(await overrideRows()).toEqual(before);
  });

  it("answers 404 to another environment's override, workflow or tenant, and to unknown ids, changing nothing", async () => {
    const mine = await workflow([inApp('Olá')]);
    const myTenant = await tenant('mine-acme', 'Acme');
    const theirs = await workflow([inApp('Olá')], {}, asOther());
    const theirTenant = await tenant('their-acme', 'Acme', undefined, asOther());
    const theirOverride = await createOverride(
      { workflowId: theirs._id, tenantId: theirTenant, active: true },
      asOther(),
    );
    const before = await overrideRows();

    const refused: [string, 'GET' | 'PUT' | 'DELETE' | 'POST', string, unknown?][] = [
      ['their override', 'GET', `/v1/workflow-overrides/${theirOverride._id}`],
      ['their override', 'PUT', `/v1/workflow-overrides/${theirOverride._id}`, { active: false }],
      ['their override', 'DELETE', `/v1/workflow-overrides/${theirOverride._id}`],
      [
        'their pair',
        'GET',
        `/v1/workflow-overrides/workflows/${theirs._id}/tenants/${theirTenant}`,
      ],
      [
        'their pair',
        'PUT',
        `/v1/workflow-overrides/workflows/${theirs._id}/tenants/${theirTenant}`,
        { active: false },
      ],
      ['an unknown override', 'GET', `/v1/workflow-overrides/${newId()}`],
      ['an unknown override', 'PUT', `/v1/workflow-overrides/${newId()}`, { active: true }],
      ['an unknown override', 'DELETE', `/v1/workflow-overrides/${newId()}`],
    ];
    for (const [what, method, url, body] of refused) {
      const r = await t.api(method, url, { body });
      expect(r.statusCode, `${what}: ${method} ${url}`).toBe(404);
    }
    const create = (workflowId: string, tenantId: string) =>
      t.api('POST', '/v1/workflow-overrides', { body: { workflowId, tenantId } });
    const theirWorkflow = await create(theirs._id, myTenant);
    expect(theirWorkflow.statusCode).toBe(404);
    expect(theirWorkflow.json().message).toBe(`Workflow with _id ${theirs._id} was not found`);
    const theirTenantRefused = await create(mine._id, theirTenant);
    expect(theirTenantRefused.statusCode).toBe(404);
    expect(theirTenantRefused.json().message).toBe(`Tenant with _id ${theirTenant} was not found`);
    const pairOfTheirs = await t.api(
      'PUT',
      `/v1/workflow-overrides/workflows/${mine._id}/tenants/${theirTenant}`,
      { body: { active: false } },
    );
    expect(pairOfTheirs.statusCode).toBe(404);
    expect(pairOfTheirs.json().message).toBe(`Tenant with _id ${theirTenant} was not found`);
    const noOverride = await t.api(
      'PUT',
      `/v1/workflow-overrides/workflows/${mine._id}/tenants/${myTenant}`,
      { body: { active: false } },
    );
    expect(noOverride.statusCode).toBe(404);
    expect(noOverride.json().message).toBe(
      `No workflow override of workflow ${mine._id} for tenant ${myTenant} was found`,
    );

    expect(await overrideRows()).toEqual(before);
    const listed = await t.api('GET', '/v1/workflow-overrides?limit=100');
    expect(listed.json().data.map((o: { _id: string }) => o._id)).not.toContain(theirOverride._id);
  });

  it('goes with its tenant or its workflow when either is deleted', async () => {
    const w = await workflow([inApp('Olá')]);
    const kept = await workflow([inApp('Olá')]);
    const acme = await tenant('cascade-acme', 'Acme');
    const globex = await tenant('cascade-globex', 'Globex');
    const byTenant = await createOverride({ workflowId: kept._id, tenantId: acme });
    const byWorkflow = await createOverride({ workflowId: w._id, tenantId: globex });
    const survivor = await createOverride({ workflowId: kept._id, tenantId: globex });

    expect((await t.api('DELETE', '/v1/tenants/cascade-acme')).statusCode).toBe(204);
    expect((await t.api('DELETE', `/v1/workflows/${w._id}`)).statusCode).toBe(200);
    const ids = (await overrideRows()).map((o) => o.id);
    expect(ids).not.toContain(byTenant._id);
    expect(ids).not.toContain(byWorkflow._id);
    expect(ids).toContain(survivor._id);
    // A deleted workflow takes no new override.
    const refused = await t.api('POST', '/v1/workflow-overrides', {
      body: { workflowId: w._id, tenantId: globex },
    });
    expect(refused.statusCode).toBe(404);
  });
});

describe('@novu/node 0.24.2 workflowOverrides against Sino', () => {
  it('every method answers as Novu does, its effect read back', async () => {
    const novu = new Novu(t.credentials.apiKey, { backendUrl: await listeningUrl(t) });
    const w = await workflow([inApp('Olá')]);
    const acme = await tenant('node-acme', 'Acme');
    const created = await novu.workflowOverrides.create({
      workflowId: w._id,
      tenantId: acme,
      active: false,
      preferenceSettings: { email: false },
    });
    expect(created.status).toBe(201);
    const id = created.data.data._id as string;
    expect(created.data.data).toMatchObject({ _workflowId: w._id, _tenantId: acme });

    expect((await novu.workflowOverrides.getOneById(id)).data.data._id).toBe(id);
    expect(
      (await novu.workflowOverrides.getOneByTenantIdandWorkflowId(w._id, acme)).data.data._id,
    ).toBe(id);
    const list = await novu.workflowOverrides.list(0, 100);
    expect(list.data.data.map((o: { _id: string }) => o._id)).toContain(id);
    expect(list.data).toMatchObject({ page: 0, pageSize: 100, hasMore: false });

    const byId = await novu.workflowOverrides.updateOneById(id, { active: true });
    expect(byId.data.data.active).toBe(true);
    const byPair = await novu.workflowOverrides.updateOneByTenantIdandWorkflowId(w._id, acme, {
      preferenceSettings: { sms: false },
    });
    expect(byPair.data.data.preferenceSettings).toEqual({
      in_app: true,
      email: false,
      sms: false,
      chat: true,
      push: true,
    });
    const [row] = await t.db.select().from(workflowOverrides).where(eq(workflowOverrides.id, id));
    expect(row).toMatchObject({ active: true, preferenceSettings: { email: false, sms: false } });

    const deleted = await novu.workflowOverrides.delete(id);
    expect(deleted.data).toEqual({ data: true });
    expect(await t.db.select().from(workflowOverrides).where(eq(workflowOverrides.id, id))).toEqual(
      [],
    );
  });
});

describe('a trigger naming a tenant', () => {
  it('stops the workflow for a tenant whose override turns it off, and for that tenant only', async () => {
    const w = await workflow([inApp('Olá {{subscriber.firstName}}, {{tenant.name}}')]);
    const acme = await tenant('stop-acme', 'Acme');
    await tenant('stop-globex', 'Globex');
    await subscriber('stop-ana');
    const o = await createOverride({ workflowId: w._id, tenantId: acme, active: false });

    const refused = await trigger({ name: w.identifier, to: 'stop-ana', tenant: 'stop-acme' });
    expect(refused).toEqual({
      acknowledged: true,
      status: 'trigger_not_active',
      transactionId: expect.any(String),
      error: ['The workflow is turned off for tenant "stop-acme"'],
    });
    // As an object naming the tenant, the same.
    const asObject = await trigger({
      name: w.identifier,
      to: 'stop-ana',
      tenant: { identifier: 'stop-acme' },
    });
    expect(asObject.status).toBe('trigger_not_active');

    const globex = await trigger({ name: w.identifier, to: 'stop-ana', tenant: 'stop-globex' });
    const none = await trigger({ name: w.identifier, to: 'stop-ana' });
    expect([globex.status, none.status]).toEqual(['processed', 'processed']);
    await settled(globex.transactionId, 1);
    await settled(none.transactionId, 1);
    expect(await feed('stop-ana', globex.transactionId)).toEqual([
      expect.objectContaining({ content: 'Olá Ana, Globex' }),
    ]);
    expect(await feed('stop-ana', none.transactionId)).toEqual([
      expect.objectContaining({ content: 'Olá Ana, ' }),
    ]);
    // Nothing was recorded for the refused triggers: no notification, no job, no message.
    for (const tx of [refused.transactionId, asObject.transactionId]) {
      expect(
        await t.db.select().from(notifications).where(eq(notifications.transactionId, tx)),
      ).toEqual([]);
      expect(await t.db.select().from(jobs).where(eq(jobs.transactionId, tx))).toEqual([]);
      expect(await feed('stop-ana', tx)).toEqual([]);
    }

    // Turned on again, the tenant's triggers deliver.
    await t.api('PUT', `/v1/workflow-overrides/${o._id}`, { body: { active: true } });
    const back = await trigger({ name: w.identifier, to: 'stop-ana', tenant: 'stop-acme' });
    expect(back.status).toBe('processed');
    await settled(back.transactionId, 1);
    expect(await feed('stop-ana', back.transactionId)).toEqual([
      expect.objectContaining({ content: 'Olá Ana, Acme' }),
    ]);
  });

  it('runs an inactive workflow for a tenant whose override turns it on, and for it only', async () => {
    const w = await workflow([inApp('Olá {{tenant.identifier}}')], { active: false });
    const acme = await tenant('run-acme', 'Acme');
    await tenant('run-globex', 'Globex');
    await subscriber('run-ana');
    await createOverride({ workflowId: w._id, tenantId: acme, active: true });

    const acmes = await trigger({ name: w.identifier, to: 'run-ana', tenant: 'run-acme' });
    expect(acmes.status).toBe('processed');
    await settled(acmes.transactionId, 1);
    expect(await feed('run-ana', acmes.transactionId)).toEqual([
      expect.objectContaining({ content: 'Olá run-acme' }),
    ]);
    const globex = await trigger({ name: w.identifier, to: 'run-ana', tenant: 'run-globex' });
    const none = await trigger({ name: w.identifier, to: 'run-ana' });
    expect(globex).toMatchObject({ acknowledged: true, status: 'trigger_not_active' });
    expect(globex.error).toBeUndefined();
    expect(none.status).toBe('trigger_not_active');
  });

  it("switches a channel off for the tenant's triggers only; the subscriber's own switch still wins", async () => {
    const w = await workflow([inApp('Olá {{tenant.name}}'), email('Reserva', '<p>Olá</p>')]);
    const acme = await tenant('prefs-acme', 'Acme');
    await tenant('prefs-globex', 'Globex');
    await subscriber('prefs-ana', { email: 'prefs-ana@example.com' });
    await subscriber('prefs-bia', { email: 'prefs-bia@example.com' });
    await createOverride({
      workflowId: w._id,
      tenantId: acme,
      active: true,
      preferenceSettings: { email: false },
    });

    const acmes = await trigger({ name: w.identifier, to: 'prefs-ana', tenant: 'prefs-acme' });
    const globex = await trigger({ name: w.identifier, to: 'prefs-ana', tenant: 'prefs-globex' });
    const none = await trigger({ name: w.identifier, to: 'prefs-ana' });
    for (const r of [acmes, globex, none]) await settled(r.transactionId, 2);
    expect(await channelsOf(acmes.transactionId)).toEqual(['in_app']);
    expect(await channelsOf(globex.transactionId)).toEqual(['email', 'in_app']);
    expect(await channelsOf(none.transactionId)).toEqual(['email', 'in_app']);
    expect(await feed('prefs-ana', acmes.transactionId)).toEqual([
      expect.objectContaining({ content: 'Olá Acme' }),
    ]);
    const skipped = await t.db
      .select({ detail: executionDetails.detail })
      .from(executionDetails)
      .where(
        and(
          eq(executionDetails.transactionId, acmes.transactionId),
          eq(executionDetails.channel, 'email'),
        ),
      );
    expect(skipped.map((d) => d.detail)).toContain(
      "Step skipped: email is off (the tenant's workflow override)",
    );

    // The subscriber's own switch for the workflow beats the tenant's override.
    const on = await t.api('PATCH', `/v1/subscribers/prefs-bia/preferences/${w._id}`, {
      body: { channel: { type: 'email', enabled: true } },
    });
    expect(on.statusCode, on.body).toBe(200);
    const bias = await trigger({ name: w.identifier, to: 'prefs-bia', tenant: 'prefs-acme' });
    await settled(bias.transactionId, 2);
    expect(await channelsOf(bias.transactionId)).toEqual(['email', 'in_app']);
  });

  it("turns a channel on for the tenant that the workflow's defaults turn off", async () => {
    const w = await workflow([inApp('Olá'), email('Reserva', '<p>Olá</p>')], {
      preferenceSettings: { email: false },
    });
    const acme = await tenant('on-acme', 'Acme');
    await subscriber('on-ana', { email: 'on-ana@example.com' });
    await createOverride({ workflowId: w._id, tenantId: acme, active: true });
    const acmes = await trigger({ name: w.identifier, to: 'on-ana', tenant: 'on-acme' });
    const none = await trigger({ name: w.identifier, to: 'on-ana' });
    for (const r of [acmes, none]) await settled(r.transactionId, 2);
    expect(await channelsOf(acmes.transactionId)).toEqual(['email', 'in_app']);
    expect(await channelsOf(none.transactionId)).toEqual(['in_app']);
  });

  it("renders {{tenant.*}} (identifier, name, data) in every channel's templates", async () => {
    const text = '{{tenant.identifier}}|{{tenant.name}}|{{tenant.data.plan}}';
    const w = await workflow([
      inApp(`In-app ${text}`),
      email(`Subject ${text}`, `<p>Email ${text}</p>`),
      { template: { type: 'sms', content: `SMS ${text}` } },
      { template: { type: 'chat', content: `Chat ${text}` } },
      { template: { type: 'push', title: `Title ${text}`, content: `Push ${text}` } },
    ]);
    await tenant('render-acme', 'Acme Locações', { plan: 'pro' });
    await subscriber('render-ana', { email: 'render-ana@example.com', phone: '+5511999990001' });
    for (const [providerId, credentials] of [
      ['slack', { webhookUrl: `${chat.url}/services/render-ana` }],
      ['push-webhook', { deviceTokens: ['render-ana-device'] }],
    ] as const) {
      const r = await t.api('PUT', '/v1/subscribers/render-ana/credentials', {
        body: { providerId, credentials },
      });
      expect(r.statusCode, r.body).toBe(200);
    }

    const r = await trigger({ name: w.identifier, to: 'render-ana', tenant: 'render-acme' });
    expect(r.status).toBe('processed');
    const done = await settled(r.transactionId, 5);
    expect(done.map((j) => j.status)).toEqual(Array(5).fill('completed'));
    const rendered = 'render-acme|Acme Locações|pro';
    const rows = await t.db
      .select({ channel: messages.channel, subject: messages.subject, content: messages.content })
      .from(messages)
      .where(eq(messages.transactionId, r.transactionId));
    const by = Object.fromEntries(rows.map((m) => [m.channel, m]));
    expect(by['in_app']?.content).toBe(`In-app ${rendered}`);
    expect(by['email']).toMatchObject({
      subject: `Subject ${rendered}`,
      content: expect.stringContaining(`Email ${rendered}`),
    });
    expect(by['sms']?.content).toBe(`SMS ${rendered}`);
    expect(by['chat']?.content).toBe(`Chat ${rendered}`);
    expect(by['push']?.content).toBe(`Push ${rendered}`);
    // What the providers received.
    const chatBody = chat.requests.find((q) => q.path === '/services/render-ana')?.text();
    expect(chatBody).toContain(`Chat ${rendered}`);
    const pushBody = push.requests.find((q) => q.text().includes('render-ana-device'))?.json() as {
      title: string;
      content: string;
    };
    expect(pushBody).toMatchObject({ title: `Title ${rendered}`, content: `Push ${rendered}` });
    const mail = (await t.api('GET', '/v1/sandbox/outbox?channel=email&limit=100'))
      .json()
      .data.find((m: { to: string[] }) => m.to.includes('render-ana@example.com'));
    expect(mail).toMatchObject({ subject: `Subject ${rendered}` });
    expect(mail.content).toContain(`Email ${rendered}`);
  });
});
