import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull } from 'drizzle-orm';
import { feeds, workflowSteps, workflows } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { createIdentityRepository } from '../src/modules/identity/repository.js';
import { defineWorkflow, type WorkflowSpec } from '../src/modules/workflows/define.js';
import { slugify } from '../src/modules/workflows/slug.js';
import { triggerVariables } from '../src/modules/workflows/variables.js';
import { apart, createSinoTestApp, identityOf, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
/** A second environment of the organization, with its own API key. */
let other: { id: string; apiKey: string };

beforeAll(async () => {
  t = await createSinoTestApp();
  const identity = createIdentityRepository(t.db);
  const env = await identity.createEnvironment({
    organizationId: t.credentials.organizationId,
    name: 'Production',
    identifier: `prod-${newId()}`,
  });
  other = { id: env.id, apiKey: await identityOf(t).addApiKey(env.id) };
});
afterAll(() => t.close());

const asOther = () => ({ authorization: `ApiKey ${other.apiKey}` });

const inApp = (content = 'Hello {{name}}', extra: Record<string, unknown> = {}) => ({
  template: { type: 'in_app', content, ...extra },
});

async function create(body: Record<string, unknown>, authorization?: string) {
  const r = await t.api('POST', '/v1/workflows', {
    body: { steps: [inApp()], ...body },
    ...(authorization && { authorization }),
  });
  return r;
}

async function createOk(body: Record<string, unknown>) {
  const r = await create(body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data;
}

async function liveWorkflowCount(environmentId = t.credentials.environmentId) {
  const [row] = await t.db
    .select({ n: count() })
    .from(workflows)
    .where(and(eq(workflows.environmentId, environmentId), isNull(workflows.deletedAt)));
  return row!.n;
}

describe('slugify and trigger variables', () => {
  it.each([
    ['Reserva confirmada!', 'reserva-confirmada'],
    ['  Manutenção   aberta ', 'manutencao-aberta'],
    ['Multa - recebida', 'multa-recebida'],
    ['Pets & Co. 50%', 'pets-and-co-50percent'],
    ['a_b/c', 'abc'],
    ['!!!', ''],
  ])('slugifies %j as Novu does', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('reads payload variables, skipping what the engine provides', () => {
    expect(
      triggerVariables([
        'Hi {{subscriber.firstName}}, {{car.model}} {{dateFormat pickupAt "dd/MM"}}',
        '{{#each items}}{{name}}{{/each}}{{#if urgent}}!{{/if}}{{step.digest}}',
        '{{broken',
      ]),
    ).toEqual([
      { name: 'car.model', type: 'String' },
      { name: 'pickupAt', type: 'String' },
      { name: 'items', type: 'Array' },
      { name: 'urgent', type: 'Boolean' },
    ]);
  });
});

describe('server API authentication', () => {
  it.each([
    ['POST', '/v1/workflows'],
    ['GET', '/v1/workflows'],
    ['GET', `/v1/workflows/${newId()}`],
    ['PUT', `/v1/workflows/${newId()}`],
    ['PUT', `/v1/workflows/${newId()}/status`],
    ['DELETE', `/v1/workflows/${newId()}`],
    ['POST', '/v1/feeds'],
    ['GET', '/v1/feeds'],
    ['DELETE', `/v1/feeds/${newId()}`],
  ] as const)('%s %s answers 401 without an API key', async (method, url) => {
    for (const authorization of [null, 'ApiKey wrong', 'Bearer x']) {
      const r = await t.api(method, url, { authorization, body: { name: 'x', steps: [] } });
      expect(r.statusCode).toBe(401);
    }
  });
});

describe('POST /v1/workflows', () => {
  it('creates the workflow with its steps, as Novu answers it', async () => {
    const feed = (await t.api('POST', '/v1/feeds', { body: { name: 'Reservas' } })).json().data;
    const before = await liveWorkflowCount();
    const [general] = (await t.api('GET', '/v1/notification-groups')).json().data;
    const data = await createOk({
      name: 'Reserva confirmada!',
      description: 'Sent when a booking is confirmed',
      tags: ['reservas'],
      notificationGroupId: general._id,
      draft: false,
      steps: [
        {
          uuid: 'welcome',
          name: 'Bell',
          template: {
            type: 'in_app',
            content: 'Reserva {{code}} de {{car.model}} confirmada',
            feedId: feed._id,
            cta: { type: 'redirect', data: { url: '/reservas/{{code}}' } },
            actor: { type: 'system_icon', data: 'check' },
          },
        },
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 2, unit: 'hours' } },
        {
          template: { type: 'email', subject: 'Reserva {{code}}', content: '<p>Olá</p>' },
          shouldStopOnFail: true,
          filters: [
            {
              isNegated: false,
              type: 'GROUP',
              value: 'AND',
              children: [
                { on: 'previousStep', step: 'welcome', stepType: 'unread' },
                { field: 'plan', value: 'gold', operator: 'EQUAL' },
              ],
            },
          ],
          variants: [{ template: { type: 'email', content: 'ignored' } }],
        },
      ],
    });
    expect(await liveWorkflowCount()).toBe(before + 1);
    expect(data).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _environmentId: t.credentials.environmentId,
      _organizationId: t.credentials.organizationId,
      _notificationGroupId: general._id,
      notificationGroup: { _id: general._id, name: 'General' },
      name: 'Reserva confirmada!',
      description: 'Sent when a booking is confirmed',
      active: false,
      draft: true,
      critical: false,
      tags: ['reservas'],
      preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
      origin: 'api',
      deleted: false,
      triggers: [
        {
          type: 'event',
          identifier: 'reserva-confirmada',
          variables: [
            { name: 'code', type: 'String' },
            { name: 'car.model', type: 'String' },
          ],
        },
      ],
    });
    expect(data).not.toHaveProperty('notificationGroupId');
    const [bell, delay, email] = data.steps;
    expect(bell).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _templateId: bell._id,
      _parentId: null,
      uuid: 'welcome',
      name: 'Bell',
      active: true,
      shouldStopOnFail: false,
      filters: [],
      template: {
        _id: bell._id,
        type: 'in_app',
        content: 'Reserva {{code}} de {{car.model}} confirmada',
        _feedId: feed._id,
        cta: { type: 'redirect', data: { url: '/reservas/{{code}}' } },
        actor: { type: 'system_icon', data: 'check' },
      },
    });
    expect(delay).toMatchObject({
      _parentId: bell._id,
      metadata: { type: 'regular', amount: 2, unit: 'hours' },
      template: { type: 'delay', content: '', _feedId: null },
    });
    expect(delay.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(email).toMatchObject({
      _parentId: delay._id,
      shouldStopOnFail: true,
      template: { type: 'email', subject: 'Reserva {{code}}', content: '<p>Olá</p>' },
      filters: [
        {
          isNegated: false,
          type: 'GROUP',
          value: 'AND',
          children: [
            { on: 'previousStep', step: 'welcome', stepType: 'unread' },
            { on: 'payload', field: 'plan', value: 'gold', operator: 'EQUAL' },
          ],
        },
      ],
    });
    expect(email).not.toHaveProperty('variants');
  });

  it('derives a free identifier from a taken name, as Novu does', async () => {
    const first = await createOk({ name: 'Multa recebida' });
    const second = await createOk({ name: 'Multa recebida' });
    expect(first.triggers[0].identifier).toBe('multa-recebida');
    expect(second.triggers[0].identifier).toMatch(/^multa-recebida-[a-z0-9_-]+$/);
  });

  it('takes an explicit identifier, and answers 409 when it is taken', async () => {
    const data = await createOk({ name: 'Qualquer', identifier: 'vistoria-registrada' });
    expect(data.triggers[0].identifier).toBe('vistoria-registrada');
    const before = await liveWorkflowCount();
    const r = await create({ name: 'Outra', identifier: 'vistoria-registrada' });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({
      statusCode: 409,
      message: 'Workflow with identifier vistoria-registrada already exists',
      error: 'Conflict',
    });
    expect(await liveWorkflowCount()).toBe(before);
  });

  it('allows the same identifier in another environment', async () => {
    await createOk({ name: 'X', identifier: 'per-environment' });
    const r = await create({ name: 'X', identifier: 'per-environment' }, `ApiKey ${other.apiKey}`);
    expect(r.statusCode).toBe(201);
    expect(r.json().data._environmentId).toBe(other.id);
  });

  it.each([
    ['no name', { name: undefined }, 'name should not be empty'],
    ['no steps', { name: 'x', steps: undefined }, 'steps should not be empty'],
    [
      'an unknown step type',
      { name: 'x', steps: [{ template: { type: 'fax', content: 'x' } }] },
      'steps.0.template.type must be one of the following values: in_app, email, sms, chat, push, digest, delay',
    ],
    [
      'a step without template',
      { name: 'x', steps: [{ name: 'lost' }] },
      'steps.0.template should not be empty',
    ],
    [
      'a delay without metadata',
      { name: 'x', steps: [{ template: { type: 'delay' } }] },
      'steps.0.metadata should not be empty',
    ],
    [
      'a delay with an unknown unit',
      {
        name: 'x',
        steps: [
          { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'years' } },
        ],
      },
      'steps.0.metadata.unit must be one of the following values: seconds, minutes, hours, days, weeks, months',
    ],
    [
      'a delay of zero',
      {
        name: 'x',
        steps: [
          { template: { type: 'delay' }, metadata: { type: 'regular', amount: 0, unit: 'days' } },
        ],
      },
      'steps.0.metadata.amount must not be less than 1',
    ],
    [
      'a scheduled delay without its path',
      { name: 'x', steps: [{ template: { type: 'delay' }, metadata: { type: 'scheduled' } }] },
      'steps.0.metadata.delayPath should not be empty',
    ],
    [
      'a digest of an unknown type',
      {
        name: 'x',
        steps: [
          { template: { type: 'digest' }, metadata: { type: 'weekly', amount: 1, unit: 'days' } },
        ],
      },
      'steps.0.metadata.type must be one of the following values: regular, backoff, timed',
    ],
    [
      'a backoff digest without its backoff',
      {
        name: 'x',
        steps: [
          {
            template: { type: 'digest' },
            metadata: { type: 'backoff', amount: 5, unit: 'minutes' },
          },
        ],
      },
      'steps.0.metadata.backoffAmount should not be empty when the digest backs off',
    ],
    [
      'a digest at an impossible time',
      {
        name: 'x',
        steps: [
          {
            template: { type: 'digest' },
            metadata: { type: 'timed', amount: 1, unit: 'days', timed: { atTime: '25:00' } },
          },
        ],
      },
      'steps.0.metadata.timed.atTime must be a time as HH:mm',
    ],
    [
      'a filter on an unknown source',
      {
        name: 'x',
        steps: [
          {
            ...inApp(),
            filters: [{ value: 'AND', children: [{ on: 'weather', field: 'x', value: 'y' }] }],
          },
        ],
      },
      'steps.0.filters.0.children.0.on must be one of the following values: payload, subscriber, tenant, webhook, isOnline, isOnlineInLast, previousStep',
    ],
    [
      'a filter with an unknown operator',
      {
        name: 'x',
        steps: [
          {
            ...inApp(),
            filters: [
              {
                value: 'OR',
                children: [{ on: 'subscriber', field: 'x', value: 'y', operator: 'ROUGHLY' }],
              },
            ],
          },
        ],
      },
      expect.stringMatching(/^steps\.0\.filters\.0\.children\.0\.operator must be one of/),
    ],
    [
      'a previousStep condition naming no earlier step',
      {
        name: 'x',
        steps: [
          {
            ...inApp(),
            filters: [
              { value: 'AND', children: [{ on: 'previousStep', step: 'later', stepType: 'read' }] },
            ],
          },
          { ...inApp(), uuid: 'later' },
        ],
      },
      'steps.0.filters.0.children.0.step must be the uuid of an earlier step',
    ],
    [
      'two steps with one uuid',
      {
        name: 'x',
        steps: [
          { ...inApp(), uuid: 'a' },
          { ...inApp(), uuid: 'a' },
        ],
      },
      'steps.1.uuid must be unique in the workflow',
    ],
    [
      'a webhook filter without a valid URL',
      {
        name: 'x',
        steps: [
          {
            ...inApp(),
            filters: [
              {
                value: 'AND',
                children: [
                  {
                    on: 'webhook',
                    field: 'ok',
                    value: 'true',
                    operator: 'EQUAL',
                    webhookUrl: 'nope',
                  },
                ],
              },
            ],
          },
        ],
      },
      'steps.0.filters.0.children.0.webhookUrl must be a URL address',
    ],
    [
      'preferences that are not booleans',
      { name: 'x', preferenceSettings: { email: 'no' } },
      'preferenceSettings.email must be a boolean',
    ],
    [
      'an identifier with spaces',
      { name: 'x', identifier: 'two words' },
      expect.stringMatching(/^identifier must contain only letters/),
    ],
  ])('answers 400 to %s, and writes nothing', async (_case, body, message) => {
    const before = await liveWorkflowCount();
    const r = await t.api('POST', '/v1/workflows', { body: { steps: [inApp()], ...body } });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().error).toBe('Bad Request');
    expect(r.json().message).toEqual(expect.arrayContaining([message]));
    expect(await liveWorkflowCount()).toBe(before);
  });

  it('answers 400 to a feed that is not one of the environment, and writes nothing', async () => {
    const foreign = (
      await t.api('POST', '/v1/feeds', {
        body: { name: 'Foreign' },
        authorization: `ApiKey ${other.apiKey}`,
      })
    ).json().data;
    const before = await liveWorkflowCount();
    for (const feedId of [foreign._id, newId(), 'not-an-id']) {
      const r = await create({ name: 'x', steps: [inApp('x', { feedId })] });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe(
        'steps.0.template.feedId must be the _id of a feed of this environment',
      );
    }
    expect(await liveWorkflowCount()).toBe(before);
  });
});

describe('GET /v1/workflows', () => {
  let env: { id: string; apiKey: string };
  beforeAll(async () => {
    const identity = createIdentityRepository(t.db);
    const e = await identity.createEnvironment({
      organizationId: t.credentials.organizationId,
      name: 'Staging',
      identifier: `staging-${newId()}`,
    });
    env = { id: e.id, apiKey: await identityOf(t).addApiKey(e.id) };
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const r = await create({ name }, `ApiKey ${env.apiKey}`);
      expect(r.statusCode).toBe(201);
    }
  });
  const list = (query: string) =>
    t.api('GET', `/v1/workflows${query}`, { authorization: `ApiKey ${env.apiKey}` });

  it('pages the environment workflows, newest first', async () => {
    const r = await list('?page=0&limit=2');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ totalCount: 3, page: 0, pageSize: 2 });
    expect(body.data.map((w: { name: string }) => w.name)).toEqual(['Gamma', 'Beta']);
    const next = (await list('?page=1&limit=2')).json();
    expect(next.data.map((w: { name: string }) => w.name)).toEqual(['Alpha']);
  });

  it('defaults to page 0 of 10', async () => {
    const body = (await list('')).json();
    expect(body).toMatchObject({ totalCount: 3, page: 0, pageSize: 10 });
  });

  it('filters by name or identifier', async () => {
    const body = (await list('?query=bet')).json();
    expect(body.totalCount).toBe(1);
    expect(body.data[0].name).toBe('Beta');
  });

  it.each([
    ['?limit=0', 'limit must not be less than 1'],
    ['?limit=101', 'limit must not be greater than 100'],
    ['?page=-1', 'page must not be less than 0'],
  ])('answers 400 to %s', async (query, message) => {
    const r = await list(query);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual([message]);
  });

  it("never lists another environment's workflows", async () => {
    const body = (await list('?limit=100')).json();
    expect(body.data.every((w: { _environmentId: string }) => w._environmentId === env.id)).toBe(
      true,
    );
  });
});

describe('GET /v1/workflows/:workflowId', () => {
  it('answers the workflow by _id or by identifier', async () => {
    const created = await createOk({ name: 'Contrato encerrado' });
    for (const key of [created._id, 'contrato-encerrado']) {
      const r = await t.api('GET', `/v1/workflows/${key}`);
      expect(r.statusCode).toBe(200);
      expect(r.json().data).toEqual(created);
    }
  });

  it("answers 404 to an unknown, malformed or another environment's id", async () => {
    const created = await createOk({ name: 'Só aqui' });
    for (const [id, headers] of [
      [newId(), {}],
      ['not-an-id', {}],
      [created._id, asOther()],
    ] as const) {
      const r = await t.api('GET', `/v1/workflows/${id}`, headers);
      expect(r.statusCode).toBe(404);
      expect(r.body).not.toContain('Só aqui');
    }
  });
});

describe('PUT /v1/workflows/:workflowId', () => {
  it('replaces the steps, keeping the ids and uuids of the steps it names', async () => {
    const created = await createOk({
      name: 'Manutenção aberta',
      steps: [inApp('one'), { template: { type: 'sms', content: 'two' } }, inApp('three')],
    });
    const [one, , three] = created.steps;
    const r = await t.api('PUT', `/v1/workflows/${created._id}`, {
      body: {
        name: 'Manutenção aberta (v2)',
        preferenceSettings: { sms: false },
        steps: [
          { ...three, template: { ...three.template, content: 'three, now first' } },
          { _templateId: one._id, template: { type: 'in_app', content: 'one, second' } },
          { _id: newId(), template: { type: 'push', content: 'new' } },
        ],
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    const data = r.json().data;
    expect(data.name).toBe('Manutenção aberta (v2)');
    expect(data.triggers[0].identifier).toBe('manutencao-aberta');
    expect(data.preferenceSettings).toEqual({
      email: true,
      sms: false,
      in_app: true,
      chat: true,
      push: true,
    });
    expect(data.steps.map((s: { _id: string }) => s._id).slice(0, 2)).toEqual([three._id, one._id]);
    expect(data.steps.map((s: { uuid: string }) => s.uuid).slice(0, 2)).toEqual([
      three.uuid,
      one.uuid,
    ]);
    expect(data.steps[0].template.content).toBe('three, now first');
    expect(data.steps[2]._id).not.toBe(one._id);
    expect(data.steps[2]._parentId).toBe(one._id);
    const stored = await t.db
      .select()
      .from(workflowSteps)
      .where(eq(workflowSteps.workflowId, created._id));
    expect(stored).toHaveLength(3);
  });

  it('keeps what it is not given', async () => {
    const created = await createOk({ name: 'Intacto', tags: ['a'], critical: true });
    const r = await t.api('PUT', `/v1/workflows/${created._id}`, { body: { tags: ['b'] } });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ name: 'Intacto', tags: ['b'], critical: true });
    expect(r.json().data.steps).toEqual(created.steps);
  });

  it('changes the identifier, and answers 409 when another workflow has it', async () => {
    const a = await createOk({ name: 'A', identifier: 'rename-a' });
    await createOk({ name: 'B', identifier: 'rename-b' });
    const taken = await t.api('PUT', `/v1/workflows/${a._id}`, {
      body: { identifier: 'rename-b', name: 'changed' },
    });
    expect(taken.statusCode).toBe(409);
    expect((await t.api('GET', `/v1/workflows/${a._id}`)).json().data.name).toBe('A');
    const ok = await t.api('PUT', `/v1/workflows/${a._id}`, { body: { identifier: 'rename-c' } });
    expect(ok.json().data.triggers[0].identifier).toBe('rename-c');
  });

  it('answers 400 when nothing is given, or to bad steps, and writes nothing', async () => {
    const created = await createOk({ name: 'Sem mudança' });
    const empty = await t.api('PUT', `/v1/workflows/${created._id}`, { body: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('No properties found for update');
    const bad = await t.api('PUT', `/v1/workflows/${created._id}`, {
      body: { name: 'changed', steps: [{ template: { type: 'digest' } }] },
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.api('GET', `/v1/workflows/${created._id}`)).json().data).toEqual(created);
  });

  it("answers 404 to another environment's workflow, and writes nothing", async () => {
    const created = await createOk({ name: 'Alheio' });
    for (const [id, headers] of [
      [created._id, asOther()],
      ['nope', {}],
      [newId(), {}],
    ] as const) {
      const r = await t.api('PUT', `/v1/workflows/${id}`, { body: { name: 'hacked' }, ...headers });
      expect(r.statusCode).toBe(404);
    }
    expect((await t.api('GET', `/v1/workflows/${created._id}`)).json().data.name).toBe('Alheio');
  });
});

describe('PUT /v1/workflows/:workflowId/status', () => {
  it('activates and deactivates', async () => {
    const created = await createOk({ name: 'Ligável' });
    const on = await t.api('PUT', `/v1/workflows/${created._id}/status`, {
      body: { active: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data).toMatchObject({ active: true, draft: false });
    const off = await t.api('PUT', `/v1/workflows/${created._id}/status`, {
      body: { active: false },
    });
    expect(off.json().data).toMatchObject({ active: false, draft: true });
  });

  it('answers 400 to the current status or a missing one, as Novu does', async () => {
    const created = await createOk({ name: 'Parado' });
    const same = await t.api('PUT', `/v1/workflows/${created._id}/status`, {
      body: { active: false },
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('You must provide a different status from the current status');
    const missing = await t.api('PUT', `/v1/workflows/${created._id}/status`, { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toEqual(['active should not be empty']);
  });

  it("answers 404 to another environment's workflow, and changes nothing", async () => {
    const created = await createOk({ name: 'Não mexa' });
    const r = await t.api('PUT', `/v1/workflows/${created._id}/status`, {
      body: { active: true },
      ...asOther(),
    });
    expect(r.statusCode).toBe(404);
    expect((await t.api('GET', `/v1/workflows/${created._id}`)).json().data.active).toBe(false);
  });
});

describe('DELETE /v1/workflows/:workflowId', () => {
  it('soft deletes: gone from the API, identifier free again', async () => {
    const created = await createOk({ name: 'Descartável', identifier: 'descartavel' });
    const r = await t.api('DELETE', `/v1/workflows/${created._id}`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ data: true });
    expect((await t.api('GET', `/v1/workflows/${created._id}`)).statusCode).toBe(404);
    expect((await t.api('DELETE', `/v1/workflows/${created._id}`)).statusCode).toBe(404);
    const [row] = await t.db.select().from(workflows).where(eq(workflows.id, created._id));
    expect(row!.deletedAt).not.toBeNull();
    await createOk({ name: 'De novo', identifier: 'descartavel' });
  });

  it("answers 404 to another environment's workflow, and keeps it", async () => {
    const created = await createOk({ name: 'Protegido' });
    const r = await t.api('DELETE', `/v1/workflows/${created._id}`, asOther());
    expect(r.statusCode).toBe(404);
    expect((await t.api('DELETE', '/v1/workflows/not-an-id')).statusCode).toBe(404);
    expect(
      (await t.api('PUT', '/v1/workflows/not-an-id/status', { body: { active: true } })).statusCode,
    ).toBe(404);
    expect((await t.api('GET', `/v1/workflows/${created._id}`)).statusCode).toBe(200);
  });
});

describe('/v1/feeds', () => {
  it('creates a feed whose identifier is its name, lists it and deletes it', async () => {
    const created = await t.api('POST', '/v1/feeds', { body: { name: 'Financeiro' } });
    expect(created.statusCode).toBe(201);
    const feed = created.json().data;
    expect(feed).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Financeiro',
      identifier: 'Financeiro',
      _environmentId: t.credentials.environmentId,
      _organizationId: t.credentials.organizationId,
      createdAt: expect.any(String),
    });
    const listed = (await t.api('GET', '/v1/feeds')).json().data;
    expect(listed.map((f: { _id: string }) => f._id)).toContain(feed._id);

    const workflow = await createOk({
      name: 'Com feed',
      steps: [inApp('x', { feedId: feed._id })],
    });
    const removed = await t.api('DELETE', `/v1/feeds/${feed._id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.map((f: { _id: string }) => f._id)).not.toContain(feed._id);
    // The steps that named it are detached, so the workflow can be sent back as read.
    const after = (await t.api('GET', `/v1/workflows/${workflow._id}`)).json().data;
    expect(after.steps[0].template._feedId).toBeNull();
    const resent = await t.api('PUT', `/v1/workflows/${workflow._id}`, {
      body: { steps: after.steps },
    });
    expect(resent.statusCode).toBe(200);
  });

  it('answers 409 to a taken name and 400 to a missing one, writing nothing', async () => {
    await t.api('POST', '/v1/feeds', { body: { name: 'Duplicado' } });
    const taken = await t.api('POST', '/v1/feeds', { body: { name: 'Duplicado' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Feed with identifier: Duplicado already exists');
    const missing = await t.api('POST', '/v1/feeds', { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toEqual(['name should not be empty']);
    const rows = await t.db.select().from(feeds).where(eq(feeds.identifier, 'Duplicado'));
    expect(rows).toHaveLength(1);
  });

  it("answers 404 to another environment's feed, and keeps it", async () => {
    const feed = (await t.api('POST', '/v1/feeds', { body: { name: 'Meu' } })).json().data;
    for (const [id, headers] of [
      [feed._id, asOther()],
      ['zzz', {}],
    ] as const) {
      expect((await t.api('DELETE', `/v1/feeds/${id}`, headers)).statusCode).toBe(404);
    }
    const others = (await t.api('GET', '/v1/feeds', asOther())).json().data;
    expect(others.map((f: { _id: string }) => f._id)).not.toContain(feed._id);
    const mine = (await t.api('GET', '/v1/feeds')).json().data;
    expect(mine.map((f: { _id: string }) => f._id)).toContain(feed._id);
  });
});

describe('activeWorkflowByIdentifier (the engine lookup)', () => {
  it('answers the active workflow with its steps in order, and nothing else', async ({ skip }) => {
    skip(apart, "one process only: a call of the app's workflow service (the engine's lookup)");
    const created = await createOk({
      name: 'Engine',
      identifier: 'engine-lookup',
      active: true,
      steps: [inApp('1'), { template: { type: 'sms', content: '2' } }, inApp('3')],
    });
    const workflows = t.app.sino.workflows;
    const found = await workflows.activeWorkflowByIdentifier(
      t.credentials.environmentId,
      'engine-lookup',
    );
    expect(found!.workflow.id).toBe(created._id);
    expect(found!.steps.map((s) => [s.position, s.template.content])).toEqual([
      [0, '1'],
      [1, '2'],
      [2, '3'],
    ]);
    expect(await workflows.activeWorkflowByIdentifier(other.id, 'engine-lookup')).toBeUndefined();
    await t.api('PUT', `/v1/workflows/${created._id}/status`, { body: { active: false } });
    expect(
      await workflows.activeWorkflowByIdentifier(t.credentials.environmentId, 'engine-lookup'),
    ).toBeUndefined();
  });
});

describe('workflows defined in code', () => {
  const spec = (overrides: Partial<WorkflowSpec> = {}): WorkflowSpec => ({
    identifier: 'reserva-criada',
    name: 'Reserva criada',
    tags: ['locadora'],
    critical: false,
    steps: [
      { type: 'in_app', content: 'Reserva {{codigo}} criada', feed: 'reservas' },
      { type: 'digest', metadata: { type: 'regular', amount: 10, unit: 'minutes' } },
      { type: 'email', subject: 'Reserva {{codigo}}', content: '<p>Olá</p>', uuid: 'mail' },
    ],
    ...overrides,
  });
  const rowsOf = (identifier: string) =>
    t.db
      .select()
      .from(workflows)
      .where(
        and(
          eq(workflows.environmentId, t.credentials.environmentId),
          eq(workflows.identifier, identifier),
        ),
      );

  it('creates them once, active, and leaves identical ones alone', async ({ skip }) => {
    skip(apart, "one process only: code-defined workflows go through the app's workflow service");
    const upsert = t.app.sino.workflows.upsertCodeWorkflows;
    const [first] = await upsert(t.credentials.environmentId, [defineWorkflow(spec())]);
    expect(first).toMatchObject({ identifier: 'reserva-criada', action: 'created' });
    const [again] = await upsert(t.credentials.environmentId, [defineWorkflow(spec())]);
    expect(again).toEqual({ ...first, action: 'unchanged' });
    expect(await rowsOf('reserva-criada')).toHaveLength(1);

    const data = (await t.api('GET', '/v1/workflows/reserva-criada')).json().data;
    expect(data).toMatchObject({ origin: 'code', active: true, tags: ['locadora'] });
    const [feed] = await t.db
      .select()
      .from(feeds)
      .where(
        and(eq(feeds.environmentId, t.credentials.environmentId), eq(feeds.identifier, 'reservas')),
      );
    expect(data.steps[0].template._feedId).toBe(feed!.id);
    expect(data.steps[1].metadata).toEqual({ type: 'regular', amount: 10, unit: 'minutes' });
  });

  it('updates content and steps in place, keeping step ids and the active status', async ({
    skip,
  }) => {
    skip(apart, "one process only: code-defined workflows go through the app's workflow service");
    const upsert = t.app.sino.workflows.upsertCodeWorkflows;
    const before = (await t.api('GET', '/v1/workflows/reserva-criada')).json().data;
    await t.api('PUT', `/v1/workflows/${before._id}/status`, { body: { active: false } });
    const changed = spec({
      name: 'Reserva criada (v2)',
      critical: true,
      steps: [
        { type: 'in_app', content: 'Nova reserva {{codigo}}', feed: 'reservas' },
        { type: 'push', content: 'Nova reserva' },
        { type: 'email', subject: 'Reserva {{codigo}}', content: '<p>Oi</p>', uuid: 'mail' },
      ],
    });
    const [result] = await upsert(t.credentials.environmentId, [defineWorkflow(changed)]);
    expect(result).toEqual({ identifier: 'reserva-criada', id: before._id, action: 'updated' });
    const after = (await t.api('GET', '/v1/workflows/reserva-criada')).json().data;
    expect(after).toMatchObject({ name: 'Reserva criada (v2)', critical: true, active: false });
    // Matched by position and type, or by uuid; the digest became a push: a new step.
    expect(after.steps[0]._id).toBe(before.steps[0]._id);
    expect(after.steps[0].uuid).toBe(before.steps[0].uuid);
    expect(after.steps[1]._id).not.toBe(before.steps[1]._id);
    expect(after.steps[2]._id).toBe(before.steps[2]._id);
    expect(after.steps[2].template.content).toBe('<p>Oi</p>');
    expect(await rowsOf('reserva-criada')).toHaveLength(1);
    const [again] = await upsert(t.credentials.environmentId, [defineWorkflow(changed)]);
    expect(again!.action).toBe('unchanged');
  });

  it('takes over a workflow of that identifier created through the API', async ({ skip }) => {
    skip(apart, "one process only: code-defined workflows go through the app's workflow service");
    const created = await createOk({ name: 'Antes via API', identifier: 'assumido' });
    const [result] = await t.app.sino.workflows.upsertCodeWorkflows(t.credentials.environmentId, [
      defineWorkflow(spec({ identifier: 'assumido', name: 'Agora em código' })),
    ]);
    expect(result).toEqual({ identifier: 'assumido', id: created._id, action: 'updated' });
    const data = (await t.api('GET', `/v1/workflows/${created._id}`)).json().data;
    expect(data).toMatchObject({ origin: 'code', name: 'Agora em código' });
  });

  it('refuses an invalid spec with the API wording, and specs naming one identifier twice', async ({
    skip,
  }) => {
    skip(apart, "one process only: code-defined workflows go through the app's workflow service");
    expect(() =>
      defineWorkflow(
        spec({ identifier: 'bad spec', steps: [{ type: 'delay', metadata: undefined }] }),
      ),
    ).toThrow(
      /^Workflow "bad spec" is invalid: identifier must contain only .*; steps\.0\.metadata should not be empty$/,
    );
    const one = defineWorkflow(spec({ identifier: 'twice' }));
    await expect(
      t.app.sino.workflows.upsertCodeWorkflows(t.credentials.environmentId, [one, one]),
    ).rejects.toThrow('Workflow "twice" is defined twice');
    expect(await rowsOf('twice')).toHaveLength(0);
  });

  it('refuses an unknown environment', async ({ skip }) => {
    skip(apart, "one process only: code-defined workflows go through the app's workflow service");
    await expect(
      t.app.sino.workflows.upsertCodeWorkflows(newId(), [defineWorkflow(spec())]),
    ).rejects.toThrow(/Environment .* not found/);
  });
});
