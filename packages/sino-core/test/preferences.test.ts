import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { subscriberPreferences, subscribers } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { createIdentityRepository } from '../src/modules/identity/repository.js';
import {
  activeChannels,
  globalPreferenceView,
  resolveChannel,
  workflowPreferenceView,
  type PreferenceRow,
  type PreferenceWorkflow,
} from '../src/modules/preferences/resolve.js';
import { createWorkflowRepository } from '../src/modules/workflows/repository.js';
import { apart, createSinoTestApp, identityOf, type SinoTestApp } from './harness.js';

const workflow = (over: Partial<PreferenceWorkflow> = {}): PreferenceWorkflow => ({
  critical: false,
  preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
  steps: [
    { type: 'in_app', active: true },
    { type: 'email', active: true },
  ],
  ...over,
});
const row = (enabled: boolean, channels: PreferenceRow['channels'] = {}): PreferenceRow => ({
  enabled,
  channels,
});

describe('resolveChannel', () => {
  it('is on, by default, when nobody said anything', () => {
    expect(
      resolveChannel({ workflow: workflow({ preferenceSettings: {} }), channel: 'email' }),
    ).toEqual({ enabled: true, source: 'default' });
    expect(
      resolveChannel({ workflow: workflow({ preferenceSettings: null }), channel: 'push' }),
    ).toEqual({ enabled: true, source: 'default' });
  });

  it("follows the workflow's default for the channel", () => {
    const w = workflow({ preferenceSettings: { email: false, sms: true } });
    expect(resolveChannel({ workflow: w, channel: 'email' })).toEqual({
      enabled: false,
      source: 'template',
    });
    expect(resolveChannel({ workflow: w, channel: 'sms' })).toEqual({
      enabled: true,
      source: 'template',
    });
  });

  it("lets the subscriber's channel switch beat the workflow's default, both ways", () => {
    const w = workflow({ preferenceSettings: { email: false, sms: true } });
    expect(
      resolveChannel({
        workflow: w,
        channel: 'email',
        workflowPreference: row(true, { email: true }),
      }),
    ).toEqual({ enabled: true, source: 'subscriber' });
    expect(
      resolveChannel({
        workflow: w,
        channel: 'sms',
        workflowPreference: row(true, { sms: false }),
      }),
    ).toEqual({ enabled: false, source: 'subscriber' });
  });

  it("keeps the workflow's default for channels the subscriber did not touch", () => {
    const w = workflow({ preferenceSettings: { email: false } });
    expect(
      resolveChannel({
        workflow: w,
        channel: 'email',
        workflowPreference: row(true, { sms: false }),
      }),
    ).toEqual({ enabled: false, source: 'template' });
    expect(
      resolveChannel({ workflow: w, channel: 'email', workflowPreference: row(true, null) }),
    ).toEqual({ enabled: false, source: 'template' });
  });

  it('turns every channel off when the subscriber turned the workflow off', () => {
    for (const channel of ['email', 'in_app'] as const) {
      expect(
        resolveChannel({
          workflow: workflow(),
          channel,
          workflowPreference: row(false, { email: true, in_app: true }),
        }),
      ).toEqual({ enabled: false, source: 'workflow' });
    }
  });

  it('turns non-critical workflows off when the global switch is off', () => {
    expect(
      resolveChannel({
        workflow: workflow(),
        channel: 'in_app',
        workflowPreference: row(true, { in_app: true }),
        globalPreference: row(false),
      }),
    ).toEqual({ enabled: false, source: 'global' });
  });

  it('turns a channel off everywhere when its global switch is off', () => {
    const globalPreference = row(true, { sms: false });
    expect(
      resolveChannel({
        workflow: workflow(),
        channel: 'sms',
        workflowPreference: row(true, { sms: true }),
        globalPreference,
      }),
    ).toEqual({ enabled: false, source: 'global' });
    // The other channels are untouched, and a global "on" forces nothing.
    expect(resolveChannel({ workflow: workflow(), channel: 'email', globalPreference })).toEqual({
      enabled: true,
      source: 'template',
    });
    expect(
      resolveChannel({
        workflow: workflow({ preferenceSettings: { push: false } }),
        channel: 'push',
        globalPreference: row(true, { push: true }),
      }),
    ).toEqual({ enabled: false, source: 'template' });
  });

  it('delivers critical workflows whatever the subscriber said', () => {
    const critical = workflow({ critical: true, preferenceSettings: { email: false } });
    expect(
      resolveChannel({
        workflow: critical,
        channel: 'email',
        workflowPreference: row(false, { email: false }),
        globalPreference: row(false, { email: false }),
      }),
    ).toEqual({ enabled: true, source: 'critical' });
  });
});

describe('preference views', () => {
  it('lists only the channels of active steps, with where each value came from', () => {
    const w = workflow({
      preferenceSettings: { email: false, in_app: true, sms: true, chat: true, push: true },
      steps: [
        { type: 'delay', active: true },
        { type: 'email', active: true },
        { type: 'in_app', active: true },
        { type: 'sms', active: false },
        { type: 'in_app', active: true },
      ],
    });
    expect(activeChannels(w)).toEqual(['in_app', 'email']);
    expect(workflowPreferenceView(w, row(true, { in_app: false, sms: false }))).toEqual({
      enabled: true,
      channels: { in_app: false, email: false },
      overrides: [
        { channel: 'in_app', source: 'subscriber' },
        { channel: 'email', source: 'template' },
      ],
    });
  });

  it('shows channels the workflow does not name as on, without an override', () => {
    expect(workflowPreferenceView(workflow({ preferenceSettings: {} }), undefined)).toEqual({
      enabled: true,
      channels: { in_app: true, email: true },
      overrides: [],
    });
  });

  it("shows the subscriber's whole switch", () => {
    expect(workflowPreferenceView(workflow(), row(false)).enabled).toBe(false);
  });

  it("ignores the subscriber's switches on a critical workflow", () => {
    const view = workflowPreferenceView(workflow({ critical: true }), row(false, { email: false }));
    expect(view).toEqual({
      enabled: true,
      channels: { in_app: true, email: true },
      overrides: [
        { channel: 'in_app', source: 'template' },
        { channel: 'email', source: 'template' },
      ],
    });
  });

  it('shows the global preference with every channel, missing ones on', () => {
    expect(globalPreferenceView(undefined)).toEqual({
      enabled: true,
      channels: { in_app: true, email: true, sms: true, chat: true, push: true },
    });
    expect(globalPreferenceView(row(false, { sms: false }))).toEqual({
      enabled: false,
      channels: { in_app: true, email: true, sms: false, chat: true, push: true },
    });
  });
});

// The endpoints.

let t: SinoTestApp;
let other: { id: string; apiKey: string; applicationIdentifier: string };
let token: string;
let subscriberId: string;
const ids: Record<string, string> = {};

async function createWorkflow(body: Record<string, unknown>, authorization?: string) {
  const r = await t.api('POST', '/v1/workflows', {
    body: { active: true, ...body },
    ...(authorization && { authorization }),
  });
  if (r.statusCode !== 201) throw new Error(r.body);
  return r.json().data as { _id: string };
}

const step = (type: string, active = true) => ({
  active,
  template: { type, content: `${type} content` },
});

/** The workflow row as the engine holds it. */
async function storedWorkflow(id: string) {
  const found = await createWorkflowRepository(t.db).byId(t.credentials.environmentId, id);
  return found!.workflow;
}

async function storedRows(internalId: string) {
  return t.db
    .select()
    .from(subscriberPreferences)
    .where(eq(subscriberPreferences.subscriberId, internalId));
}

async function internalId(externalId: string, environmentId = t.credentials.environmentId) {
  const [s] = await t.db
    .select()
    .from(subscribers)
    .where(
      and(eq(subscribers.environmentId, environmentId), eq(subscribers.subscriberId, externalId)),
    );
  return s!.id;
}

beforeAll(async () => {
  t = await createSinoTestApp();
  const identity = createIdentityRepository(t.db);
  const env = await identity.createEnvironment({
    organizationId: t.credentials.organizationId,
    name: 'Production',
    identifier: `prod-${newId()}`,
  });
  await identity.addDefaultIntegrations(env.id, env.organizationId, { hmac: false });
  other = {
    id: env.id,
    apiKey: await identityOf(t).addApiKey(env.id),
    applicationIdentifier: env.identifier,
  };

  ids.booking = (
    await createWorkflow({
      name: 'Reserva confirmada',
      tags: ['reservas'],
      data: { icon: 'car' },
      preferenceSettings: { email: false },
      steps: [step('in_app'), step('email'), step('sms', false)],
    })
  )._id;
  ids.critical = (
    await createWorkflow({ name: 'Senha alterada', critical: true, steps: [step('email')] })
  )._id;
  ids.inactive = (
    await createWorkflow({ name: 'Rascunho', active: false, steps: [step('push')] })
  )._id;
  ids.deleted = (await createWorkflow({ name: 'Apagado', steps: [step('chat')] }))._id;
  await t.api('DELETE', `/v1/workflows/${ids.deleted}`);
  ids.foreign = (
    await createWorkflow(
      { name: 'De outro ambiente', steps: [step('in_app')] },
      `ApiKey ${other.apiKey}`,
    )
  )._id;

  subscriberId = 'ana';
  token = await t.session(subscriberId);
});
afterAll(() => t.close());

describe('GET /v1/widgets/preferences', () => {
  it('answers 401 without a subscriber token', async () => {
    expect((await t.widget('GET', '/preferences')).statusCode).toBe(401);
    expect((await t.widget('GET', '/preferences', { token: 'garbage' })).statusCode).toBe(401);
  });

  it("lists the environment's active workflows, critical ones included", async () => {
    const r = await t.widget('GET', '/preferences', { token });
    expect(r.statusCode).toBe(200);
    const data = r.json().data;
    expect(data.map((p: { template: { _id: string } }) => p.template._id)).toEqual([
      ids.booking,
      ids.critical,
    ]);
    expect(data[0]).toEqual({
      template: {
        _id: ids.booking,
        name: 'Reserva confirmada',
        tags: ['reservas'],
        critical: false,
        triggers: [{ type: 'event', identifier: 'reserva-confirmada', variables: [] }],
        data: { icon: 'car' },
      },
      preference: {
        enabled: true,
        channels: { in_app: true, email: false },
        overrides: [
          { channel: 'in_app', source: 'template' },
          { channel: 'email', source: 'template' },
        ],
      },
    });
    expect(data[1].template).toMatchObject({ name: 'Senha alterada', critical: true });
  });
});

describe('PATCH /v1/widgets/preferences/:templateId', () => {
  it('answers 401 without a subscriber token', async () => {
    const r = await t.widget('PATCH', `/preferences/${ids.booking}`, {
      body: { enabled: false },
    });
    expect(r.statusCode).toBe(401);
  });

  it("switches a channel, then the whole workflow, and answers the workflow's preference", async () => {
    const subscriber = await t.session('bruno');
    const on = await t.widget('PATCH', `/preferences/${ids.booking}`, {
      token: subscriber,
      body: { channel: { type: 'email', enabled: true } },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.preference).toEqual({
      enabled: true,
      channels: { in_app: true, email: true },
      overrides: [
        { channel: 'in_app', source: 'template' },
        { channel: 'email', source: 'subscriber' },
      ],
    });
    expect(on.json().data.template._id).toBe(ids.booking);

    const off = await t.widget('PATCH', `/preferences/${ids.booking}`, {
      token: subscriber,
      body: { enabled: false, channel: { type: 'in_app', enabled: false } },
    });
    expect(off.json().data.preference).toMatchObject({
      enabled: false,
      channels: { in_app: false, email: true },
    });
    // One row, both channel switches kept.
    const rows = await storedRows(await internalId('bruno'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      workflowId: ids.booking,
      enabled: false,
      channels: { email: true, in_app: false },
    });

    const listed = (await t.widget('GET', '/preferences', { token: subscriber })).json().data;
    expect(listed[0].preference).toEqual(off.json().data.preference);
    // Another subscriber is not affected.
    const mine = (await t.widget('GET', '/preferences', { token })).json().data;
    expect(mine[0].preference.enabled).toBe(true);
  });

  it('cannot turn a critical workflow off: nothing is stored, it stays on', async ({ skip }) => {
    skip(apart, "one process only: asks the app's preference service for the engine's decision");
    const subscriber = await t.session('carla');
    const r = await t.widget('PATCH', `/preferences/${ids.critical}`, {
      token: subscriber,
      body: { enabled: false, channel: { type: 'email', enabled: false } },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.preference).toEqual({
      enabled: true,
      channels: { email: true },
      overrides: [{ channel: 'email', source: 'template' }],
    });
    expect(await storedRows(await internalId('carla'))).toHaveLength(0);
    const decision = await t.app.sino.preferences.decide(
      await internalId('carla'),
      await storedWorkflow(ids.critical!),
      'email',
    );
    expect(decision).toEqual({ enabled: true, source: 'critical' });
  });

  it.each([
    [
      'neither channel nor enabled',
      {},
      'In order to make an update you need to provide channel or enabled',
    ],
    [
      'an unknown channel',
      { channel: { type: 'fax', enabled: false } },
      ['channel.type must be one of the following values: in_app, email, sms, chat, push'],
    ],
    [
      'a channel without its switch',
      { channel: { type: 'email' } },
      ['channel.enabled should not be empty'],
    ],
    ['a switch that is not a boolean', { enabled: 'no' }, ['enabled must be a boolean']],
  ])('answers 400 to %s, and writes nothing', async (_case, body, message) => {
    const subscriber = await t.session('dora');
    const r = await t.widget('PATCH', `/preferences/${ids.booking}`, { token: subscriber, body });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual(message);
    expect(await storedRows(await internalId('dora'))).toHaveLength(0);
  });

  it("answers 404 to an unknown, malformed, deleted or another environment's workflow", async () => {
    const subscriber = await t.session('eva');
    for (const id of [newId(), 'not-an-id', ids.deleted, ids.foreign]) {
      const r = await t.widget('PATCH', `/preferences/${id}`, {
        token: subscriber,
        body: { enabled: false },
      });
      expect(r.statusCode).toBe(404);
      expect(r.body).not.toContain('De outro ambiente');
    }
    expect(await storedRows(await internalId('eva'))).toHaveLength(0);
  });
});

describe('global preferences (widget)', () => {
  it('answers 401 without a subscriber token', async () => {
    expect((await t.widget('GET', '/preferences/global')).statusCode).toBe(401);
    expect((await t.widget('PATCH', '/preferences', { body: { enabled: false } })).statusCode).toBe(
      401,
    );
  });

  it('answers every channel on by default', async () => {
    const r = await t.widget('GET', '/preferences/global', { token: await t.session('fabio') });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      data: [
        {
          preference: {
            enabled: true,
            channels: { in_app: true, email: true, sms: true, chat: true, push: true },
          },
        },
      ],
    });
  });

  it('changes the switch and channels as the widget sends them, keeping earlier ones', async ({
    skip,
  }) => {
    skip(apart, "one process only: asks the app's preference service for the engine's decision");
    const subscriber = await t.session('gil');
    const first = await t.widget('PATCH', '/preferences', {
      token: subscriber,
      body: { preferences: [{ type: 'sms', enabled: false, channelType: 'sms' }] },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.preference.channels.sms).toBe(false);
    const second = await t.widget('PATCH', '/preferences', {
      token: subscriber,
      body: { enabled: false, preferences: [{ type: 'push', enabled: false }] },
    });
    expect(second.json()).toEqual({
      data: {
        preference: {
          enabled: false,
          channels: { in_app: true, email: true, sms: false, chat: true, push: false },
        },
      },
    });
    const read = await t.widget('GET', '/preferences/global', { token: subscriber });
    expect(read.json().data[0]).toEqual(second.json().data);

    // The engine's decision follows: global off stops a non-critical workflow.
    const gil = await internalId('gil');
    const decide = t.app.sino.preferences.decide;
    const booking = await storedWorkflow(ids.booking!);
    expect(await decide(gil, booking, 'in_app')).toEqual({ enabled: false, source: 'global' });
    expect(await decide(gil, await storedWorkflow(ids.critical!), 'email')).toEqual({
      enabled: true,
      source: 'critical',
    });
  });

  it('answers the preference as it is when there is nothing to change', async () => {
    const subscriber = await t.session('hugo');
    const r = await t.widget('PATCH', '/preferences', { token: subscriber, body: {} });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.preference.enabled).toBe(true);
    expect(await storedRows(await internalId('hugo'))).toHaveLength(0);
  });

  it('answers 400 to bad input, and writes nothing', async () => {
    const subscriber = await t.session('iris');
    for (const body of [
      { enabled: 'yes' },
      { preferences: [{ type: 'fax', enabled: false }] },
      { preferences: 'sms' },
    ]) {
      const r = await t.widget('PATCH', '/preferences', { token: subscriber, body });
      expect(r.statusCode).toBe(400);
    }
    expect(await storedRows(await internalId('iris'))).toHaveLength(0);
  });
});

describe('subscriber preferences through the server API', () => {
  beforeAll(async () => {
    await t.session('joana');
  });

  it('answers 401 without an API key', async () => {
    for (const [method, url] of [
      ['GET', '/v1/subscribers/joana/preferences'],
      ['GET', '/v1/subscribers/joana/preferences/global'],
      ['PATCH', `/v1/subscribers/joana/preferences/${ids.booking}`],
      ['PATCH', '/v1/subscribers/joana/preferences'],
    ] as const) {
      const r = await t.api(method, url, { authorization: null, body: { enabled: false } });
      expect(r.statusCode).toBe(401);
    }
  });

  it('lists, by level too, and changes the same preferences the widget shows', async () => {
    const patched = await t.api('PATCH', `/v1/subscribers/joana/preferences/${ids.booking}`, {
      body: { channel: { type: 'in_app', enabled: false } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data.preference.channels).toEqual({ in_app: false, email: false });

    const list = await t.api('GET', '/v1/subscribers/joana/preferences');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(2);
    expect(list.json().data[0].preference.channels.in_app).toBe(false);
    const byTemplate = await t.api('GET', '/v1/subscribers/joana/preferences/template');
    expect(byTemplate.json()).toEqual(list.json());

    const global = await t.api('PATCH', '/v1/subscribers/joana/preferences', {
      body: { preferences: [{ type: 'email', enabled: false }] },
    });
    expect(global.statusCode).toBe(200);
    expect(global.json().data.preference.channels.email).toBe(false);
    const byGlobal = await t.api('GET', '/v1/subscribers/joana/preferences/global');
    expect(byGlobal.json()).toEqual({ data: [global.json().data] });

    const widget = await t.widget('GET', '/preferences', { token: await t.session('joana') });
    expect(widget.json().data[0].preference.channels.in_app).toBe(false);
  });

  it('answers 400 to an unknown level and to bad input, writing nothing', async () => {
    const level = await t.api('GET', '/v1/subscribers/joana/preferences/monthly');
    expect(level.statusCode).toBe(400);
    expect(level.json().message).toEqual([
      'level must be one of the following values: global, template',
    ]);
    const before = await storedRows(await internalId('joana'));
    const bad = await t.api('PATCH', `/v1/subscribers/joana/preferences/${ids.booking}`, {
      body: { channel: { type: 'pigeon', enabled: true } },
    });
    expect(bad.statusCode).toBe(400);
    const empty = await t.api('PATCH', `/v1/subscribers/joana/preferences/${ids.booking}`, {
      body: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(await storedRows(await internalId('joana'))).toEqual(before);
  });

  it("answers 404 to an unknown subscriber or another environment's", async () => {
    const foreign = await t.widget('POST', '/session/initialize', {
      body: { applicationIdentifier: other.applicationIdentifier, subscriberId: 'only-there' },
    });
    expect(foreign.statusCode).toBe(201);
    for (const [method, url] of [
      ['GET', '/v1/subscribers/only-there/preferences'],
      ['GET', '/v1/subscribers/nobody/preferences/global'],
      ['PATCH', `/v1/subscribers/only-there/preferences/${ids.booking}`],
      ['PATCH', '/v1/subscribers/nobody/preferences'],
    ] as const) {
      const r = await t.api(method, url, { body: { enabled: false } });
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe('Subscriber not found');
    }
    const rows = await t.db
      .select()
      .from(subscriberPreferences)
      .where(eq(subscriberPreferences.environmentId, other.id));
    expect(rows).toHaveLength(0);
  });

  it("answers 404 to another environment's workflow, writing nothing", async () => {
    const before = await storedRows(await internalId('joana'));
    const r = await t.api('PATCH', `/v1/subscribers/joana/preferences/${ids.foreign}`, {
      body: { enabled: false },
    });
    expect(r.statusCode).toBe(404);
    // With the other environment's key, this environment's workflows are not found either.
    await t.widget('POST', '/session/initialize', {
      body: { applicationIdentifier: other.applicationIdentifier, subscriberId: 'joana' },
    });
    const cross = await t.api('PATCH', `/v1/subscribers/joana/preferences/${ids.booking}`, {
      authorization: `ApiKey ${other.apiKey}`,
      body: { enabled: false },
    });
    expect(cross.statusCode).toBe(404);
    expect(await storedRows(await internalId('joana'))).toEqual(before);
    const otherRows = await t.db
      .select()
      .from(subscriberPreferences)
      .where(
        and(
          eq(subscriberPreferences.environmentId, other.id),
          isNull(subscriberPreferences.workflowId),
        ),
      );
    expect(otherRows).toHaveLength(0);
  });
});

describe('decide (the engine check)', () => {
  it('reads the workflow row and the global row of the subscriber', async ({ skip }) => {
    skip(apart, "one process only: asks the app's preference service for the engine's decision");
    const subscriber = await t.session('kleber');
    const kleber = await internalId('kleber');
    const booking = await storedWorkflow(ids.booking!);
    const decide = t.app.sino.preferences.decide;
    expect(await decide(kleber, booking, 'email')).toEqual({ enabled: false, source: 'template' });
    expect(await decide(kleber, booking, 'in_app')).toEqual({ enabled: true, source: 'template' });
    await t.widget('PATCH', `/preferences/${ids.booking}`, {
      token: subscriber,
      body: { channel: { type: 'email', enabled: true } },
    });
    expect(await decide(kleber, booking, 'email')).toEqual({ enabled: true, source: 'subscriber' });
    await t.widget('PATCH', '/preferences', {
      token: subscriber,
      body: { preferences: [{ type: 'email', enabled: false }] },
    });
    expect(await decide(kleber, booking, 'email')).toEqual({ enabled: false, source: 'global' });
    expect(await decide(kleber, booking, 'in_app')).toEqual({ enabled: true, source: 'template' });
    await t.widget('PATCH', `/preferences/${ids.booking}`, {
      token: subscriber,
      body: { enabled: false },
    });
    expect(await decide(kleber, booking, 'in_app')).toEqual({ enabled: false, source: 'workflow' });
  });
});
