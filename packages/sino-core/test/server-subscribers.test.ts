import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Novu } from '@novu/node';
import { integrations, subscribers, topicSubscribers, topics } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { createSubscriberRepository } from '../src/modules/subscribers/repository.js';
import { createSubscriberService } from '../src/modules/subscribers/service.js';
import { fixedTombstoneKeys } from '../src/modules/subscribers/tombstones.js';
import { addEnvironment, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
beforeAll(async () => {
  t = await createSinoTestApp();
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HEX = /^[0-9a-f]{24}$/;

const create = (body: Record<string, unknown>) => t.api('POST', '/v1/subscribers', { body });

async function rowsOf(subscriberId: string, environmentId = t.credentials.environmentId) {
  return t.db
    .select()
    .from(subscribers)
    .where(
      and(eq(subscribers.environmentId, environmentId), eq(subscribers.subscriberId, subscriberId)),
    );
}

async function addIntegration(
  providerId: string,
  channel: 'chat' | 'push',
  identifier: string,
  fields: { active?: boolean; environmentId?: string } = {},
) {
  const id = newId();
  await t.db.insert(integrations).values({
    id,
    environmentId: fields.environmentId ?? t.credentials.environmentId,
    organizationId: t.credentials.organizationId,
    providerId,
    channel,
    name: identifier,
    identifier,
    active: fields.active ?? true,
  });
  return id;
}

describe('API key', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/v1/subscribers'],
    ['GET', '/v1/subscribers/keyless'],
    ['POST', '/v1/subscribers', { subscriberId: 'keyless' }],
    ['POST', '/v1/subscribers/bulk', { subscribers: [{ subscriberId: 'keyless' }] }],
    ['PUT', '/v1/subscribers/keyless', { firstName: 'X' }],
    ['DELETE', '/v1/subscribers/keyless'],
    ['PUT', '/v1/subscribers/keyless/credentials', { providerId: 'fcm', credentials: {} }],
    ['PATCH', '/v1/subscribers/keyless/credentials', { providerId: 'fcm', credentials: {} }],
    ['DELETE', '/v1/subscribers/keyless/credentials/fcm'],
    ['PATCH', '/v1/subscribers/keyless/online-status', { isOnline: true }],
  ];

  it.each(calls)(
    '%s %s answers 401 without a key or with a wrong one, and writes nothing',
    async (method, url, body) => {
      for (const authorization of [null, 'ApiKey wrong-key', `Bearer ${t.credentials.apiKey}`]) {
        const r = await t.api(method as 'GET', url, { body, authorization });
        expect(r.statusCode).toBe(401);
        expect(r.json()).toEqual({
          statusCode: 401,
          message: 'API Key not found',
          error: 'Unauthorized',
        });
      }
      expect(await rowsOf('keyless')).toHaveLength(0);
    },
  );
});

describe('POST /v1/subscribers', () => {
  it('creates the subscriber and answers it in Novu shape', async () => {
    const r = await create({
      subscriberId: 'ana',
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana@example.com',
      phone: '+55 (31) 99999-0000',
      avatar: 'https://example.com/ana.png',
      locale: 'pt-BR',
      data: { plan: 'gold', tags: ['a'] },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({
      data: {
        _id: expect.stringMatching(HEX),
        _organizationId: t.credentials.organizationId,
        _environmentId: t.credentials.environmentId,
        subscriberId: 'ana',
        firstName: 'Ana',
        lastName: 'Lima',
        email: 'ana@example.com',
        phone: '+55 (31) 99999-0000',
        avatar: 'https://example.com/ana.png',
        locale: 'pt-BR',
        data: { plan: 'gold', tags: ['a'] },
        channels: [],
        isOnline: false,
        lastOnlineAt: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        deleted: false,
      },
    });
  });

  it('updates the given fields of an existing subscriber, keeps the others, null clears', async () => {
    await create({
      subscriberId: 'bruno',
      firstName: 'Bruno',
      email: 'b@example.com',
      phone: '123456',
    });
    const r = await create({ subscriberId: 'bruno', lastName: 'Souza', phone: null });
    expect(r.statusCode).toBe(201);
    expect(r.json().data).toMatchObject({
      firstName: 'Bruno',
      lastName: 'Souza',
      email: 'b@example.com',
      phone: null,
    });
    expect(await rowsOf('bruno')).toHaveLength(1);
  });

  it('drops unknown fields', async () => {
    const r = await create({
      subscriberId: 'carla',
      isOnline: true,
      _id: 'x',
      deleted: true,
      role: 'admin',
    });
    expect(r.statusCode).toBe(201);
    expect(r.json().data).toMatchObject({ isOnline: false, deleted: false });
    expect(r.json().data._id).toMatch(HEX);
    expect(r.json().data).not.toHaveProperty('role');
  });

  it.each([
    [{ firstName: 'no id' }, 'subscriberId should not be empty'],
    [{ subscriberId: '' }, 'subscriberId should not be empty'],
    [{ subscriberId: 7 }, 'subscriberId must be a string'],
    [{ subscriberId: 'v', email: 'not-an-email' }, 'email must be an email'],
    [{ subscriberId: 'v', phone: 'call me' }, 'phone must be a valid phone number'],
    [{ subscriberId: 'v', locale: 'english please' }, 'locale must be locale'],
    [{ subscriberId: 'v', firstName: 12 }, 'firstName must be a string'],
    [{ subscriberId: 'v', firstName: 'a\u0000b' }, 'firstName must not contain null characters'],
    [{ subscriberId: 'v', data: 'text' }, 'data must be an object'],
    [
      { subscriberId: 'v', data: { a: { b: 'x\u0000' } } },
      'data.a.b must not contain null characters',
    ],
    [
      { subscriberId: 'v', data: { a: ['\ud800'] } },
      'data.a.0 must contain only valid Unicode text',
    ],
    [
      { subscriberId: 'v', channels: [{ credentials: {} }] },
      'channels.0.providerId should not be empty',
    ],
  ])('answers 400 naming the field, and writes nothing: %j', async (body, message) => {
    const r = await create(body);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(r.json().message).toContain(message);
    expect(await rowsOf('v')).toHaveLength(0);
  });

  it('accepts locales as Novu does (language, region, script, underscore)', async () => {
    for (const locale of ['en', 'pt-BR', 'zh-Hant-TW', 'en_US']) {
      const r = await create({ subscriberId: `locale-${locale}`, locale });
      expect(r.statusCode, locale).toBe(201);
    }
  });
});

describe('GET /v1/subscribers', () => {
  let env: { environmentId: string; apiKey: string };
  beforeAll(async () => {
    env = await addEnvironment(t, 'Paging');
    for (let i = 0; i < 12; i++) {
      const r = await t.api('POST', '/v1/subscribers', {
        body: { subscriberId: `p-${String(i).padStart(2, '0')}` },
        authorization: `ApiKey ${env.apiKey}`,
      });
      expect(r.statusCode).toBe(201);
    }
  });
  const list = (query: string) =>
    t.api('GET', `/v1/subscribers${query}`, { authorization: `ApiKey ${env.apiKey}` });

  it('answers 10 by default, oldest first, with hasMore', async () => {
    const r = await list('');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ page: 0, pageSize: 10, hasMore: true });
    expect(body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `p-${String(i).padStart(2, '0')}`),
    );
  });

  it('pages with page and limit (strings, as axios sends them)', async () => {
    const second = (await list('?page=1&limit=10')).json();
    expect(second).toMatchObject({ page: 1, pageSize: 10, hasMore: false });
    expect(second.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual([
      'p-10',
      'p-11',
    ]);
    const exact = (await list('?page=0&limit=12')).json();
    expect(exact.data).toHaveLength(12);
    expect(exact.hasMore).toBe(false);
  });

  it('answers only the environment of the key', async () => {
    const r = await t.api('GET', '/v1/subscribers?limit=100');
    const ids = r.json().data.map((s: { subscriberId: string }) => s.subscriberId);
    expect(ids).toContain('ana');
    expect(ids.some((id: string) => id.startsWith('p-'))).toBe(false);
  });

  it('with search (beyond Novu), keeps those whose id, name, e-mail or phone holds it, any case', async () => {
    for (const body of [
      { subscriberId: 'search-1', firstName: 'Maria', lastName: 'Clara Souza', email: 'mc@ex.com' },
      { subscriberId: 'search-2', firstName: 'Joao', email: 'JOAO.MARIA@ex.com' },
      { subscriberId: 'search-3', phone: '+5511988887777' },
      { subscriberId: 'search_100%' },
    ]) {
      const r = await t.api('POST', '/v1/subscribers', {
        body,
        authorization: `ApiKey ${env.apiKey}`,
      });
      expect(r.statusCode).toBe(201);
    }
    const found = async (search: string) =>
      (await list(`?limit=100&search=${encodeURIComponent(search)}`))
        .json()
        .data.map((s: { subscriberId: string }) => s.subscriberId);
    // A name, across first and last, and in an e-mail.
    expect(await found('maria')).toEqual(['search-1', 'search-2']);
    expect(await found('Maria Clara')).toEqual(['search-1']);
    expect(await found('88887')).toEqual(['search-3']);
    expect(await found('SEARCH-3')).toEqual(['search-3']);
    // `%` and `_` are matched as typed, not as wildcards.
    expect(await found('_100%')).toEqual(['search_100%']);
    expect(await found('h-1%')).toEqual([]);
    expect(await found('nobody at all')).toEqual([]);
    // Paged like the rest; blank is no search.
    expect((await list('?limit=1&search=search')).json()).toMatchObject({ hasMore: true });
    expect((await list('?search=%20')).json().data).toHaveLength(10);
    // Another environment's subscribers are never found.
    expect(await found('ana')).toEqual([]);
    const long = await list(`?search=${'x'.repeat(201)}`);
    expect(long.statusCode).toBe(400);
  });

  it.each([
    ['?limit=0', 'limit must not be less than 1'],
    ['?limit=101', 'limit must not be greater than 100'],
    ['?page=-1', 'page must not be less than 0'],
    ['?limit=abc', 'limit must be a number'],
  ])('answers 400 for %s', async (query, message) => {
    const r = await list(query);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual([message]);
  });
});

describe('GET, PUT and DELETE /v1/subscribers/:subscriberId', () => {
  it('answers the subscriber by the customer id, or 404', async () => {
    await create({ subscriberId: 'dora', firstName: 'Dora' });
    const r = await t.api('GET', '/v1/subscribers/dora');
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ subscriberId: 'dora', firstName: 'Dora' });

    const missing = await t.api('GET', '/v1/subscribers/nobody');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      statusCode: 404,
      message: 'Subscriber not found for id nobody',
      error: 'Not Found',
    });
  });

  it('PUT updates the given fields; 404 creates nothing', async () => {
    await create({ subscriberId: 'edu', firstName: 'Edu', email: 'edu@example.com' });
    const r = await t.api('PUT', '/v1/subscribers/edu', {
      body: { lastName: 'Reis', locale: 'es', data: { vip: true } },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({
      firstName: 'Edu',
      lastName: 'Reis',
      email: 'edu@example.com',
      locale: 'es',
      data: { vip: true },
    });

    const missing = await t.api('PUT', '/v1/subscribers/ghost', { body: { firstName: 'G' } });
    expect(missing.statusCode).toBe(404);
    expect(await rowsOf('ghost')).toHaveLength(0);
  });

  it('PUT answers 400 and changes nothing on bad input', async () => {
    const r = await t.api('PUT', '/v1/subscribers/edu', { body: { email: 'nope', lastName: 'X' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual(['email must be an email']);
    expect((await rowsOf('edu'))[0]!.lastName).toBe('Reis');
  });

  it('DELETE removes the subscriber and its topic memberships', async () => {
    const created = (await create({ subscriberId: 'fabio' })).json().data;
    const topicId = newId();
    await t.db.insert(topics).values({
      id: topicId,
      environmentId: t.credentials.environmentId,
      key: 'del-topic',
      name: 'T',
    });
    await t.db.insert(topicSubscribers).values({ topicId, subscriberId: created._id });

    const r = await t.api('DELETE', '/v1/subscribers/fabio');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    expect(await rowsOf('fabio')).toHaveLength(0);
    expect(
      await t.db.select().from(topicSubscribers).where(eq(topicSubscribers.topicId, topicId)),
    ).toHaveLength(0);

    const again = await t.api('DELETE', '/v1/subscribers/fabio');
    expect(again.statusCode).toBe(404);
  });
});

describe("another environment's subscribers", () => {
  let other: { environmentId: string; apiKey: string };
  beforeAll(async () => {
    other = await addEnvironment(t);
    await create({ subscriberId: 'private', firstName: 'Mine' });
  });
  const asOther = (method: 'GET' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.api(method, url, { body, authorization: `ApiKey ${other.apiKey}` });

  it('are 404 to every call, and stay untouched', async () => {
    await addIntegration('fcm', 'push', 'fcm-other', { environmentId: other.environmentId });
    const answers = [
      await asOther('GET', '/v1/subscribers/private'),
      await asOther('PUT', '/v1/subscribers/private', { firstName: 'Hacked' }),
      await asOther('PUT', '/v1/subscribers/private/credentials', {
        providerId: 'fcm',
        credentials: { deviceTokens: ['t'] },
      }),
      await asOther('DELETE', '/v1/subscribers/private/credentials/fcm'),
      await asOther('PATCH', '/v1/subscribers/private/online-status', { isOnline: true }),
      await asOther('DELETE', '/v1/subscribers/private'),
    ];
    for (const r of answers) {
      expect(r.statusCode).toBe(404);
      expect(r.body).not.toContain('Mine');
    }
    const [row] = await rowsOf('private');
    expect(row).toMatchObject({ firstName: 'Mine', isOnline: false, channels: [] });
    const list = await asOther('GET', '/v1/subscribers');
    expect(list.json().data).toEqual([]);
  });

  it('the same subscriberId in another environment is another subscriber', async () => {
    const r = await t.api('POST', '/v1/subscribers', {
      body: { subscriberId: 'private', firstName: 'Theirs' },
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(r.statusCode).toBe(201);
    expect(r.json().data._environmentId).toBe(other.environmentId);
    expect((await rowsOf('private'))[0]!.firstName).toBe('Mine');
  });
});

describe('POST /v1/subscribers/bulk', () => {
  beforeAll(async () => {
    await addIntegration('slack', 'chat', 'slack-bulk');
  });

  it('creates the new ones, updates the known ones (Novu shape)', async () => {
    await create({ subscriberId: 'bulk-known', firstName: 'Old', email: 'known@example.com' });
    const r = await t.api('POST', '/v1/subscribers/bulk', {
      body: {
        subscribers: [
          { subscriberId: 'bulk-1', firstName: 'One' },
          { subscriberId: 'bulk-known', firstName: 'New' },
          { subscriberId: 'bulk-2', email: 'two@example.com', data: { n: 2 } },
        ],
      },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({
      data: {
        created: [{ subscriberId: 'bulk-1' }, { subscriberId: 'bulk-2' }],
        updated: [{ subscriberId: 'bulk-known' }],
        failed: [],
      },
    });
    expect((await rowsOf('bulk-known'))[0]).toMatchObject({
      firstName: 'New',
      email: 'known@example.com',
    });
    expect((await rowsOf('bulk-2'))[0]).toMatchObject({ email: 'two@example.com', data: { n: 2 } });
  });

  it('reports in failed the subscribers whose credentials have no integration, writes the others', async () => {
    const r = await t.api('POST', '/v1/subscribers/bulk', {
      body: {
        subscribers: [
          {
            subscriberId: 'bulk-ok',
            channels: [{ providerId: 'slack', credentials: { webhookUrl: 'https://hooks/1' } }],
          },
          {
            subscriberId: 'bulk-bad',
            channels: [
              { providerId: 'discord', credentials: { webhookUrl: 'https://discord.example/x' } },
            ],
          },
        ],
      },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json().data).toEqual({
      created: [{ subscriberId: 'bulk-ok' }],
      updated: [],
      failed: [
        {
          subscriberId: 'bulk-bad',
          message: `Subscribers environment (${t.credentials.environmentId}) do not have active discord integration.`,
        },
      ],
    });
    expect(await rowsOf('bulk-bad')).toHaveLength(0);
    expect((await rowsOf('bulk-ok'))[0]!.channels).toEqual([
      {
        providerId: 'slack',
        integrationIdentifier: 'slack-bulk',
        _integrationId: expect.stringMatching(HEX),
        credentials: { webhookUrl: 'https://hooks/1' },
      },
    ]);
  });

  it('writes a repeated subscriberId once, later fields winning', async () => {
    const r = await t.api('POST', '/v1/subscribers/bulk', {
      body: {
        subscribers: [
          { subscriberId: 'bulk-twice', firstName: 'First', lastName: 'Kept' },
          { subscriberId: 'bulk-twice', firstName: 'Second' },
        ],
      },
    });
    expect(r.json().data).toEqual({
      created: [{ subscriberId: 'bulk-twice' }],
      updated: [{ subscriberId: 'bulk-twice' }],
      failed: [],
    });
    expect((await rowsOf('bulk-twice'))[0]).toMatchObject({
      firstName: 'Second',
      lastName: 'Kept',
    });
  });

  it('reports in failed the rows the database refuses, in general words, and writes the others', async () => {
    const repository = createSubscriberRepository(t.db, fixedTombstoneKeys('tests'));
    // The database refuses any statement holding the subscriber 'refused'.
    const service = createSubscriberService({
      subscribers: {
        ...repository,
        upsertMany: async (ids, rows) => {
          if (rows.some((r) => r.subscriberId === 'bulk-refused')) {
            throw new Error('value too long for type character varying');
          }
          return repository.upsertMany(ids, rows);
        },
      },
    });
    const scope = { id: t.credentials.environmentId, organizationId: t.credentials.organizationId };
    const logged: { details: object; message: string }[] = [];
    const log = { error: (details: object, message: string) => logged.push({ details, message }) };
    const result = await service.bulk(
      scope,
      [
        { subscriberId: 'bulk-accepted', firstName: 'A' },
        { subscriberId: 'bulk-refused', firstName: 'R' },
      ],
      log,
    );
    // The database's words (tables, constraints) go to the operator's log, not to the caller.
    expect(result).toEqual({
      created: [{ subscriberId: 'bulk-accepted' }],
      updated: [],
      failed: [
        {
          subscriberId: 'bulk-refused',
          message: 'The subscriber could not be saved because of an internal error; send it again',
        },
      ],
    });
    expect(logged).toEqual([
      {
        details: { err: expect.any(Error), subscriberId: 'bulk-refused' },
        message: 'bulk subscribers: a row failed',
      },
    ]);
    expect(await rowsOf('bulk-accepted')).toHaveLength(1);
    expect(await rowsOf('bulk-refused')).toHaveLength(0);
  });

  it('handles 500 subscribers in one call', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      subscriberId: `many-${i}`,
      firstName: `N${i}`,
    }));
    const r = await t.api('POST', '/v1/subscribers/bulk', { body: { subscribers: many } });
    expect(r.statusCode).toBe(201);
    expect(r.json().data.created).toHaveLength(500);
  });

  it.each([
    [{ subscribers: [] }, 'subscribers should not be empty'],
    [{}, 'subscribers should not be empty'],
    [
      { subscribers: Array.from({ length: 501 }, (_, i) => ({ subscriberId: `over-${i}` })) },
      'subscribers must contain no more than 500 elements',
    ],
    [
      { subscribers: [{ subscriberId: 'over-ok' }, { subscriberId: 'over-x', email: 'bad' }] },
      'subscribers.1.email must be an email',
    ],
  ])('answers 400 and writes nothing: %#', async (body, message) => {
    const r = await t.api('POST', '/v1/subscribers/bulk', { body });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain(message);
    expect(await rowsOf('over-0')).toHaveLength(0);
    expect(await rowsOf('over-ok')).toHaveLength(0);
  });
});

describe('credentials', () => {
  let fcmId: string;
  beforeAll(async () => {
    fcmId = await addIntegration('fcm', 'push', 'fcm-main');
    await addIntegration('slack', 'chat', 'slack-main');
    await addIntegration('slack', 'chat', 'slack-second');
    await addIntegration('apns', 'push', 'apns-off', { active: false });
    await create({ subscriberId: 'gil' });
  });
  const put = (body: unknown, subscriberId = 'gil') =>
    t.api('PUT', `/v1/subscribers/${subscriberId}/credentials`, { body });
  const patch = (body: unknown) => t.api('PATCH', '/v1/subscribers/gil/credentials', { body });
  const channelsOf = async (subscriberId = 'gil') => (await rowsOf(subscriberId))[0]!.channels;

  it('PUT stores device tokens without repeats, bound to the integration', async () => {
    const r = await put({ providerId: 'fcm', credentials: { deviceTokens: ['a', 'b', 'a'] } });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.channels).toEqual([
      {
        providerId: 'fcm',
        integrationIdentifier: 'fcm-main',
        _integrationId: fcmId,
        credentials: { deviceTokens: ['a', 'b'] },
      },
    ]);
  });

  it('PUT replaces the device tokens (idempotent); PATCH appends without repeats', async () => {
    await put({ providerId: 'fcm', credentials: { deviceTokens: ['c'] } });
    expect((await channelsOf())[0]!.credentials.deviceTokens).toEqual(['c']);
    await put({ providerId: 'fcm', credentials: { deviceTokens: ['c'] } });
    expect((await channelsOf())[0]!.credentials.deviceTokens).toEqual(['c']);
    const r = await patch({ providerId: 'fcm', credentials: { deviceTokens: ['d', 'c'] } });
    expect(r.statusCode).toBe(200);
    expect((await channelsOf())[0]!.credentials.deviceTokens).toEqual(['c', 'd']);
    await patch({ providerId: 'fcm', credentials: { deviceTokens: [] } });
    expect((await channelsOf())[0]!.credentials.deviceTokens).toEqual([]);
  });

  it('refuses a chat webhook URL that is not http(s) or carries a user name or password', async () => {
    const before = await channelsOf();
    for (const [webhookUrl, message] of [
      ['not a url', 'must be an http(s) URL'],
      ['file:///etc/passwd', 'must be an http(s) URL'],
      ['https://user:hook-pass@hooks.example/x', 'must not carry a user name or password'],
    ] as const) {
      const r = await put({ providerId: 'slack', credentials: { webhookUrl } });
      expect(r.statusCode, webhookUrl).toBe(400);
      expect(r.json().message, webhookUrl).toEqual([`credentials.webhookUrl ${message}`]);
      expect(r.body).not.toContain('hook-pass');
    }
    expect(await channelsOf()).toEqual(before);
  });

  it('keeps one entry per provider and integration; integrationIdentifier picks the integration', async () => {
    await put({
      providerId: 'slack',
      credentials: { webhookUrl: 'https://hooks/main' },
      integrationIdentifier: 'slack-main',
    });
    await put({
      providerId: 'slack',
      credentials: { webhookUrl: 'https://hooks/second', channel: '#ops' },
      integrationIdentifier: 'slack-second',
    });
    await put({
      providerId: 'slack',
      credentials: { channel: '#general' },
      integrationIdentifier: 'slack-main',
    });
    const slack = (await channelsOf()).filter((c) => c.providerId === 'slack');
    expect(slack).toEqual([
      expect.objectContaining({
        integrationIdentifier: 'slack-main',
        credentials: { webhookUrl: 'https://hooks/main', channel: '#general' },
      }),
      expect.objectContaining({
        integrationIdentifier: 'slack-second',
        credentials: { webhookUrl: 'https://hooks/second', channel: '#ops' },
      }),
    ]);
  });

  it('answers 400 for a provider without an active integration, and writes nothing', async () => {
    const before = await channelsOf();
    for (const body of [
      { providerId: 'apns', credentials: { deviceTokens: ['x'] } },
      { providerId: 'telegram', credentials: { channel: 'x' } },
      { providerId: 'slack', credentials: { channel: 'x' }, integrationIdentifier: 'nope' },
    ]) {
      const r = await put(body);
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe(
        `Subscribers environment (${t.credentials.environmentId}) do not have active ${body.providerId} integration.`,
      );
    }
    expect(await channelsOf()).toEqual(before);
  });

  it('answers 400 on a bad body and 404 for an unknown subscriber', async () => {
    const bad = await put({ credentials: { deviceTokens: 'one' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(
      expect.arrayContaining([
        'providerId should not be empty',
        'credentials.deviceTokens must be an array',
      ]),
    );
    const missing = await put(
      { providerId: 'fcm', credentials: { deviceTokens: ['x'] } },
      'nobody',
    );
    expect(missing.statusCode).toBe(404);
    expect(await rowsOf('nobody')).toHaveLength(0);
  });

  it('POST /subscribers with channels registers them through the same rules', async () => {
    const r = await create({
      subscriberId: 'hana',
      channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['h1', 'h1'] } }],
    });
    expect(r.statusCode).toBe(201);
    expect(r.json().data.channels).toEqual([
      expect.objectContaining({ providerId: 'fcm', credentials: { deviceTokens: ['h1'] } }),
    ]);
    const refused = await create({
      subscriberId: 'hana-refused',
      channels: [{ providerId: 'telegram', credentials: { channel: 'x' } }],
    });
    expect(refused.statusCode).toBe(400);
    expect(await rowsOf('hana-refused')).toHaveLength(0);
  });

  it('DELETE .../credentials/:providerId removes that provider only (204)', async () => {
    const r = await t.api('DELETE', '/v1/subscribers/gil/credentials/slack');
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect((await channelsOf()).map((c) => c.providerId)).toEqual(['fcm']);

    const unknownProvider = await t.api('DELETE', '/v1/subscribers/gil/credentials/telegram');
    expect(unknownProvider.statusCode).toBe(404);
    const unknownSubscriber = await t.api('DELETE', '/v1/subscribers/nobody/credentials/fcm');
    expect(unknownSubscriber.statusCode).toBe(404);
  });
});

describe('PATCH /v1/subscribers/:subscriberId/online-status', () => {
  beforeAll(() => create({ subscriberId: 'ivo' }));
  const patch = (body: unknown, subscriberId = 'ivo') =>
    t.api('PATCH', `/v1/subscribers/${subscriberId}/online-status`, { body });

  it('marks online, then offline since now', async () => {
    const online = await patch({ isOnline: true });
    expect(online.statusCode).toBe(200);
    expect(online.json().data).toMatchObject({ isOnline: true, lastOnlineAt: null });

    const before = Date.now();
    const offline = await patch({ isOnline: false });
    expect(offline.json().data.isOnline).toBe(false);
    const lastOnlineAt = Date.parse(offline.json().data.lastOnlineAt);
    expect(lastOnlineAt).toBeGreaterThanOrEqual(before - 1000);
    expect(lastOnlineAt).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('reads `online` too (what @novu/node 0.24.2 sends)', async () => {
    const r = await patch({ online: true });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.isOnline).toBe(true);
  });

  it('answers 400 without a boolean and 404 for an unknown subscriber', async () => {
    for (const body of [{}, { isOnline: 'yes' }]) {
      const r = await patch(body);
      expect(r.statusCode).toBe(400);
      expect(r.json().message[0]).toMatch(/^isOnline /);
    }
    expect((await patch({ isOnline: true }, 'nobody')).statusCode).toBe(404);
  });
});

describe('rate limiting', () => {
  let limited: SinoTestApp;
  beforeAll(async () => {
    limited = await createSinoTestApp({ rateLimit: { generalPerSecond: 3 } });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After and Novu-style body past the limit, then lets through again', async () => {
    let refused;
    let passed = 0;
    for (let i = 0; i < 20 && !refused; i++) {
      const r = await limited.api('GET', '/v1/subscribers');
      if (r.statusCode === 429) refused = r;
      else {
        expect(r.statusCode).toBe(200);
        expect(r.headers['ratelimit-limit']).toBe('3');
        passed++;
      }
    }
    expect(refused).toBeDefined();
    expect(passed).toBeLessThanOrEqual(3);
    expect(refused!.json()).toEqual({
      statusCode: 429,
      message: 'API rate limit exceeded',
      error: 'Too Many Requests',
    });
    const retryAfter = Number(refused!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused!.headers['ratelimit-remaining']).toBe('0');
    expect(refused!.headers['ratelimit-policy']).toContain('category="general"');

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await limited.api('GET', '/v1/subscribers')).statusCode).toBe(200);
  });

  it('counts each environment apart, and never writes a refused request', async () => {
    const other = await addEnvironment(limited);
    for (let i = 0; i < 10; i++) await limited.api('GET', '/v1/subscribers');
    const refused = await limited.api('POST', '/v1/subscribers', {
      body: { subscriberId: 'throttled' },
    });
    expect(refused.statusCode).toBe(429);
    const [row] = await limited.db
      .select()
      .from(subscribers)
      .where(eq(subscribers.subscriberId, 'throttled'));
    expect(row).toBeUndefined();
    const theirs = await limited.api('GET', '/v1/subscribers', {
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(theirs.statusCode).toBe(200);
  });
});

describe('@novu/node 0.24.2 against Sino', () => {
  let novu: Novu;
  beforeAll(async () => {
    const backendUrl = await listeningUrl(t);
    // An environment of its own, so that its first page of subscribers is only this test's.
    const env = await addEnvironment(t, 'SDK');
    novu = new Novu(env.apiKey, { backendUrl });
    await addIntegration('expo', 'push', 'expo-sdk', { environmentId: env.environmentId });
  });

  it('identify, get, list, update, setCredentials, delete', async () => {
    const identified = await novu.subscribers.identify('sdk-user', {
      firstName: 'Sdk',
      email: 'sdk@example.com',
      locale: 'en-US',
      data: { source: 'node' },
    });
    expect(identified.status).toBe(201);
    expect(identified.data.data).toMatchObject({
      subscriberId: 'sdk-user',
      firstName: 'Sdk',
      email: 'sdk@example.com',
      locale: 'en-US',
      data: { source: 'node' },
    });

    const got = await novu.subscribers.get('sdk-user');
    expect(got.data.data._id).toBe(identified.data.data._id);

    const listed = await novu.subscribers.list(0, 100);
    expect(listed.data).toMatchObject({ page: 0, pageSize: 100 });
    expect(listed.data).toMatchObject({ hasMore: false });
    expect(listed.data.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual([
      'sdk-user',
    ]);

    const updated = await novu.subscribers.update('sdk-user', { lastName: 'Client' });
    expect(updated.data.data).toMatchObject({ firstName: 'Sdk', lastName: 'Client' });

    const withTokens = await novu.subscribers.setCredentials('sdk-user', 'expo', {
      deviceTokens: ['ExponentPushToken[1]'],
    });
    expect(withTokens.data.data.channels).toEqual([
      expect.objectContaining({
        providerId: 'expo',
        credentials: { deviceTokens: ['ExponentPushToken[1]'] },
      }),
    ]);

    const online = await novu.subscribers.updateOnlineStatus('sdk-user', true);
    expect(online.data.data.isOnline).toBe(true);

    const deleted = await novu.subscribers.delete('sdk-user');
    expect(deleted.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    await expect(novu.subscribers.get('sdk-user')).rejects.toMatchObject({
      response: { status: 404 },
    });
  });

  it('topics.create, addSubscribers, get', async () => {
    await novu.subscribers.identify('sdk-topic-member', { firstName: 'Member' });
    const created = await novu.topics.create({ key: 'sdk-topic', name: 'SDK topic' });
    expect(created.status).toBe(201);
    expect(created.data.data).toEqual({ _id: expect.stringMatching(HEX), key: 'sdk-topic' });

    const added = await novu.topics.addSubscribers('sdk-topic', {
      subscribers: ['sdk-topic-member', 'sdk-nobody'],
    });
    expect(added.data.data).toEqual({
      succeeded: ['sdk-topic-member'],
      failed: { notFound: ['sdk-nobody'] },
    });

    const topic = await novu.topics.get('sdk-topic');
    expect(topic.data.data).toMatchObject({
      _id: created.data.data._id,
      key: 'sdk-topic',
      name: 'SDK topic',
      subscribers: ['sdk-topic-member'],
    });
  });
});
