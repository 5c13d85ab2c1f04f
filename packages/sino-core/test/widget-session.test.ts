import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose/jwt/sign';
import { decodeJwt } from 'jose/jwt/decode';
import { integrations, subscribers } from '../src/db/schema.js';
import { apart, createSinoTestApp, identityOf, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
beforeAll(async () => {
  t = await createSinoTestApp();
});
afterAll(() => t.close());

const hmacOf = (subscriberId: string, key = t.credentials.apiKey) =>
  createHmac('sha256', key).update(subscriberId).digest('hex');

/** Session initialize on the test environment, with the subscriber's hash unless one is given. */
const initialize = (body: Record<string, unknown>) =>
  t.widget('POST', '/session/initialize', {
    body: {
      applicationIdentifier: t.credentials.applicationIdentifier,
      ...(typeof body.subscriberId === 'string' && { hmacHash: hmacOf(body.subscriberId) }),
      ...body,
    },
  });

async function countSubscribers(subscriberId: string) {
  const rows = await t.db
    .select()
    .from(subscribers)
    .where(eq(subscribers.subscriberId, subscriberId));
  return rows.length;
}

describe('POST /v1/widgets/session/initialize', () => {
  it('creates the subscriber and answers a widget_user token and the profile', async () => {
    const r = await initialize({
      subscriberId: 'ana',
      firstName: 'Ana',
      lastName: 'Lima',
      phone: '+5531999990000',
    });
    expect(r.statusCode).toBe(201);
    const { token, profile } = r.json().data;
    expect(profile).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      firstName: 'Ana',
      lastName: 'Lima',
      phone: '+5531999990000',
    });
    const claims = decodeJwt(token);
    expect(claims.aud).toBe('widget_user');
    expect(claims).toMatchObject({
      _id: profile._id,
      firstName: 'Ana',
      lastName: 'Lima',
      email: null,
      subscriberId: 'ana',
      environmentId: t.credentials.environmentId,
      organizationId: t.credentials.organizationId,
    });
    // 15 days, as Novu's.
    expect(claims.exp! - claims.iat!).toBe(15 * 24 * 3600);
  });

  it('updates the given fields of an existing subscriber and keeps the others', async () => {
    await initialize({ subscriberId: 'bruno', firstName: 'Bruno', email: 'b@example.com' });
    const r = await initialize({ subscriberId: 'bruno', lastName: 'Souza' });
    expect(r.statusCode).toBe(201);
    expect(r.json().data.profile).toMatchObject({ firstName: 'Bruno', lastName: 'Souza' });
    expect(decodeJwt(r.json().data.token).email).toBe('b@example.com');
    expect(await countSubscribers('bruno')).toBe(1);
  });

  it('refuses an unknown application identifier', async () => {
    const r = await t.widget('POST', '/session/initialize', {
      body: { applicationIdentifier: 'nope', subscriberId: 'x1' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      statusCode: 400,
      message: 'Please provide a valid app identifier',
      error: 'Bad Request',
    });
    expect(await countSubscribers('x1')).toBe(0);
  });

  it('answers 400 naming the field, and writes nothing, on bad input', async () => {
    const r = await initialize({ subscriberId: '', firstName: 12 });
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body.error).toBe('Bad Request');
    expect(body.message).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^subscriberId /),
        expect.stringMatching(/^firstName /),
      ]),
    );
    expect(await countSubscribers('')).toBe(0);
  });

  it('answers 404 when the environment has no active in-app integration', async () => {
    await t.db.update(integrations).set({ active: false });
    try {
      const r = await initialize({ subscriberId: 'sem-integracao' });
      expect(r.statusCode).toBe(404);
      expect(await countSubscribers('sem-integracao')).toBe(0);
    } finally {
      await t.db.update(integrations).set({ active: true });
    }
  });

  it('is never cached: its answer carries a token', async () => {
    const r = await initialize({ subscriberId: 'sem-cache' });
    expect(r.statusCode).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
  });

  describe('with HMAC enforced (the first start environment requires it)', () => {
    it('accepts the hash of the subscriberId keyed by the API key', async () => {
      const r = await initialize({ subscriberId: 'carla', hmacHash: hmacOf('carla') });
      expect(r.statusCode).toBe(201);
    });

    it.each([
      ['missing', undefined],
      ['null', null],
      ['of another subscriber', 'other'],
      ['keyed by another key', 'wrong-key'],
    ])('refuses a hash that is %s, and writes nothing', async (_case, variant) => {
      const subscriberId = `hmac-${String(variant)}`;
      const hmacHash =
        variant === 'other'
          ? hmacOf('someone-else')
          : variant === 'wrong-key'
            ? hmacOf(subscriberId, 'f'.repeat(64))
            : variant;
      const r = await initialize({ subscriberId, hmacHash });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe('Please provide a valid HMAC hash');
      expect(await countSubscribers(subscriberId)).toBe(0);
    });
  });
});

describe('which environments require the subscriber hash', () => {
  const refusal = {
    statusCode: 400,
    message: 'Please provide a valid HMAC hash',
    error: 'Bad Request',
  };
  const start = (applicationIdentifier: string, subscriberId: string, hmacHash?: string) =>
    t.widget('POST', '/session/initialize', {
      body: { applicationIdentifier, subscriberId, ...(hmacHash && { hmacHash }) },
    });

  it("the first start's environment: refused without the hash", async () => {
    expect(t.credentials.requiresSubscriberHash).toBe(true);
    const r = await start(t.credentials.applicationIdentifier, 'primeira-sem-hash');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual(refusal);
    expect(await countSubscribers('primeira-sem-hash')).toBe(0);
  });

  it('a new Production environment: refused without or with a wrong hash, opened with the right one', async () => {
    const production = await identityOf(t).createEnvironment({
      organizationId: t.credentials.organizationId,
      name: 'Production',
    });
    const key = await identityOf(t).addApiKey(production.id);
    const app = production.identifier;
    for (const hash of [undefined, hmacOf('prod-user', t.credentials.apiKey), 'f'.repeat(64)]) {
      const r = await start(app, 'prod-user', hash);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual(refusal);
    }
    expect(await countSubscribers('prod-user')).toBe(0);
    const ok = await start(app, 'prod-user', hmacOf('prod-user', key));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(decodeJwt(ok.json().data.token).environmentId).toBe(production.id);
  });

  it('a Development environment created without it: opened with no hash', async () => {
    const development = await identityOf(t).createEnvironment({
      organizationId: t.credentials.organizationId,
      name: 'Development',
      requireSubscriberHash: false,
    });
    await identityOf(t).addApiKey(development.id);
    const r = await start(development.identifier, 'dev-user');
    expect(r.statusCode, r.body).toBe(201);
  });

  it('an environment made to require it afterwards refuses sessions without the hash', async ({
    skip,
  }) => {
    skip(
      apart,
      "one process only: changes the environment through the app's service, whose cache invalidation the nodes hear only from their own",
    );
    const development = await identityOf(t).createEnvironment({
      organizationId: t.credentials.organizationId,
      name: 'Development',
      requireSubscriberHash: false,
    });
    const key = await identityOf(t).addApiKey(development.id);
    await t.app.sino.identity.requireSubscriberHash(development.id);
    expect((await start(development.identifier, 'later-user')).statusCode).toBe(400);
    const ok = await start(development.identifier, 'later-user', hmacOf('later-user', key));
    expect(ok.statusCode).toBe(201);
  });
});

describe('subscriber tokens on the widget API', () => {
  it('GET /organization answers the organization to a valid token', async () => {
    const token = await t.session('org-reader');
    const r = await t.widget('GET', '/organization', { token });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      data: { _id: t.credentials.organizationId, name: 'Test organization' },
    });
  });

  it.each([
    ['no token', null],
    ['the string "null"', 'null'],
    ['garbage', 'not-a-jwt'],
  ])('answers 401 to %s', async (_case, token) => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/v1/widgets/organization',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    expect(r.statusCode).toBe(401);
    expect(r.body).not.toContain('Test organization');
  });

  it('answers 401 to a token with another audience or another key', async () => {
    const real = decodeJwt(await t.session('aud-check'));
    const sign = (aud: string, secret: string) =>
      new SignJWT({ ...real })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('sino')
        .setAudience(aud)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));
    for (const token of [
      await sign('user', 'widget-token-secret-for-tests-0123456789'),
      await sign('widget_user', 'another-secret-another-secret-another'),
    ]) {
      const r = await t.widget('GET', '/organization', { token });
      expect(r.statusCode).toBe(401);
    }
  });

  it('answers 401 once the subscriber no longer exists', async () => {
    const token = await t.session('to-be-removed');
    await t.db.delete(subscribers).where(eq(subscribers.subscriberId, 'to-be-removed'));
    const r = await t.widget('GET', '/organization', { token });
    expect(r.statusCode).toBe(401);
  });

  it('is open to every origin (the widget is embedded in other sites)', async () => {
    const r = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/widgets/notifications/feed',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
  });
});
