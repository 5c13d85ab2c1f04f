import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { hashPassword } from '@locadora/login';
import { testRunLog } from '@locadora/db/testing';
import { consoleSessions, environments, integrations, members, users } from '../src/db/schema.js';
import { createAccountRepository } from '../src/modules/accounts/repository.js';
import { newId } from '../src/ids.js';
import { apart, createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * Console people (issue 19): sign-in with e-mail and password, sessions (a short access token
 * and a refresh cookie used once), the server API acting for a person with their role, admins
 * apart from members, and the audit log.
 */
let t: SinoTestApp;
const runLog = testRunLog();
const ADMIN = { email: 'ana.admin@example.com', password: 'a long admin password 1' };
const MEMBER = { email: 'milo.member@example.com', password: 'a long member password 2' };
let memberId: string;

beforeAll(async () => {
  // Lenient enough that the throttle test below is the only one to reach it.
  t = await createSinoTestApp({
    consoleLogin: { maxFailuresPerEmail: 3, maxFailuresPerAddress: 100, blockMinutes: 15 },
  });
  runLog.knownSecrets('console password', [ADMIN.password, MEMBER.password]);
  const accounts = createAccountRepository(t.db);
  for (const [person, role] of [
    [ADMIN, 'admin'],
    [MEMBER, 'member'],
  ] as const) {
    const user = await accounts.createUser({
      email: person.email,
      firstName: role === 'admin' ? 'Ana' : 'Milo',
      passwordHash: await hashPassword(person.password),
      status: 'active',
    });
    await accounts.addMember(t.credentials.organizationId, user.id, role);
    if (role === 'member') memberId = user.id;
  }
});
afterAll(async () => {
  await t.close();
  runLog.close();
});

const cookieOf = (setCookie: string | string[] | undefined) =>
  [setCookie ?? []].flat().find((c) => c.startsWith('sino_refresh='));
const refreshValue = (cookie: string) => cookie.split(';')[0]!.slice('sino_refresh='.length);

async function signIn(person: { email: string; password: string }) {
  const r = await t.api('POST', '/v1/auth/login', { authorization: null, body: person });
  expect(r.statusCode, r.body).toBe(200);
  const cookie = cookieOf(r.headers['set-cookie'])!;
  const signedIn = r.json().data as { token: string; environmentId: string };
  runLog.knownSecrets('console token', [signedIn.token, refreshValue(cookie)]);
  return { ...signedIn, cookie, refresh: refreshValue(cookie) };
}
const bearer = (token: string) => `Bearer ${token}`;
const sessionCount = async () => (await t.db.select({ n: count() }).from(consoleSessions))[0]!.n;

describe('POST /v1/auth/login', () => {
  it('signs a person in: a short access token and an httpOnly, SameSite=Strict refresh cookie', async () => {
    const r = await t.api('POST', '/v1/auth/login', { authorization: null, body: ADMIN });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json().data).toMatchObject({
      token: expect.any(String),
      expiresIn: 900,
      user: { email: ADMIN.email, firstName: 'Ana', status: 'active' },
      organizationId: t.credentials.organizationId,
      environmentId: t.credentials.environmentId,
    });
    const cookie = cookieOf(r.headers['set-cookie'])!;
    runLog.knownSecrets('console token', [r.json().data.token, refreshValue(cookie)]);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/v1\/auth/);
    expect(r.body).not.toContain('passwordHash');
  });

  it('answers a wrong password and an unknown e-mail alike (401), opening no session', async () => {
    const before = await sessionCount();
    for (const body of [
      { email: ADMIN.email, password: 'not the password at all' },
      { email: 'nobody@example.com', password: ADMIN.password },
    ]) {
      const r = await t.api('POST', '/v1/auth/login', { authorization: null, body });
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe('Incorrect email or password');
    }
    expect(await sessionCount()).toBe(before);
  });

  it.each([
    ['no body', undefined],
    ['no password', { email: ADMIN.email }],
    ['an e-mail that is not one', { email: 'ana', password: 'x' }],
  ])('answers 400 to %s, opening no session', async (_, body) => {
    const before = await sessionCount();
    const r = await t.api('POST', '/v1/auth/login', { authorization: null, body });
    expect(r.statusCode).toBe(400);
    expect(await sessionCount()).toBe(before);
  });

  it('blocks an e-mail after its failures (429 with Retry-After), the right password included', async () => {
    const accounts = createAccountRepository(t.db);
    const victim = { email: 'vera.victim@example.com', password: 'the right password 3' };
    runLog.knownSecrets('console password', [victim.password]);
    const user = await accounts.createUser({
      email: victim.email,
      passwordHash: await hashPassword(victim.password),
      status: 'active',
    });
    await accounts.addMember(t.credentials.organizationId, user.id, 'member');
    for (let i = 0; i < 3; i++) {
      const r = await t.api('POST', '/v1/auth/login', {
        authorization: null,
        body: { email: victim.email, password: `wrong guess ${i}` },
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await t.api('POST', '/v1/auth/login', { authorization: null, body: victim });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().message).toMatch(/Too many failed sign-ins/);
  });
});

describe('a signed-in person on the server API', () => {
  it('acts in the environment with their role; /v1/users/me says who and where', async () => {
    const { token } = await signIn(ADMIN);
    const list = await t.api('GET', '/v1/subscribers', { authorization: bearer(token) });
    expect(list.statusCode).toBe(200);
    const me = await t.api('GET', '/v1/users/me', { authorization: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      email: ADMIN.email,
      role: 'admin',
      organizationId: t.credentials.organizationId,
      environmentId: t.credentials.environmentId,
      organizations: [{ _id: t.credentials.organizationId, role: 'admin' }],
    });
  });

  it('an API key is not a person: /v1/users/me answers 401 as Novu does', async () => {
    const r = await t.api('GET', '/v1/users/me');
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('API endpoint not available');
  });

  it('a widget token, a forged or a malformed one opens nothing (401)', async () => {
    const widgetToken = await t.session('someone');
    const { token } = await signIn(MEMBER);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const credential of [widgetToken, forged, 'not.a.token']) {
      const r = await t.api('GET', '/v1/subscribers', { authorization: bearer(credential) });
      expect(r.statusCode).toBe(401);
    }
  });

  it('switches to Production and back; another organization\u2019s environment is 404', async () => {
    const { token } = await signIn(ADMIN);
    const [production] = await t.db
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.organizationId, t.credentials.organizationId))
      .then((rows) => rows.filter((e) => e.id !== t.credentials.environmentId));
    const switched = await t.api('POST', `/v1/auth/environments/${production!.id}/switch`, {
      authorization: bearer(token),
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const there = await t.api('GET', '/v1/environments/me', {
      authorization: bearer(switched.json().data.token),
    });
    expect(there.json().data._id).toBe(production!.id);
    for (const id of [newId(), 'not-an-id']) {
      const r = await t.api('POST', `/v1/auth/environments/${id}/switch`, {
        authorization: bearer(token),
      });
      expect(r.statusCode).toBe(404);
    }
    const org = await t.api('POST', `/v1/auth/organizations/${newId()}/switch`, {
      authorization: bearer(token),
    });
    expect(org.statusCode).toBe(404);
  });
});

describe('roles: the server enforces them', () => {
  it('a member builds workflows but never sees an API key nor manages integrations (403)', async () => {
    const { token } = await signIn(MEMBER);
    const auth = { authorization: bearer(token) };
    const workflow = await t.api('POST', '/v1/workflows', {
      ...auth,
      body: { name: 'Built by a member', steps: [{ template: { type: 'in_app', content: 'Hi' } }] },
    });
    expect(workflow.statusCode, workflow.body).toBe(201);

    const integrationsBefore = (await t.db.select({ n: count() }).from(integrations))[0]!.n;
    for (const [method, url, body] of [
      ['GET', '/v1/environments/api-keys', undefined],
      ['POST', '/v1/environments/api-keys', undefined],
      ['POST', '/v1/environments/api-keys/regenerate', undefined],
      ['DELETE', `/v1/environments/api-keys/${newId()}`, undefined],
      ['POST', '/v1/integrations', { providerId: 'sendgrid', channel: 'email' }],
      ['PUT', '/v1/integrations/failover-order', { channel: 'email', integrationIds: [newId()] }],
      ['GET', '/v1/audit-logs', undefined],
    ] as const) {
      const r = await t.api(method, url, { ...auth, body });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.body).not.toContain(t.credentials.apiKey);
    }
    expect((await t.db.select({ n: count() }).from(integrations))[0]!.n).toBe(integrationsBefore);
    // The environments are listed without a single key.
    const list = await t.api('GET', '/v1/environments', auth);
    expect(list.statusCode).toBe(200);
    for (const environment of list.json().data) expect(environment.apiKeys).toEqual([]);
    expect(list.body).not.toContain(t.credentials.apiKey);
  });

  it('an admin reads the keys; a role taken away takes effect at the next request', async () => {
    const { token } = await signIn(ADMIN);
    const keys = await t.api('GET', '/v1/environments/api-keys', { authorization: bearer(token) });
    expect(keys.statusCode).toBe(200);
    expect(keys.json().data.map((k: { key: string }) => k.key)).toContain(t.credentials.apiKey);

    // The member's token, then the member leaves the organization: the same token stops.
    const member = await signIn(MEMBER);
    expect(
      (await t.api('GET', '/v1/subscribers', { authorization: bearer(member.token) })).statusCode,
    ).toBe(200);
    await t.db.delete(members).where(eq(members.userId, memberId));
    expect(
      (await t.api('GET', '/v1/subscribers', { authorization: bearer(member.token) })).statusCode,
    ).toBe(401);
    await createAccountRepository(t.db).addMember(t.credentials.organizationId, memberId, 'member');
  });
});

describe('sessions', () => {
  it('a refresh token works once, and logout stops the access token at once', async () => {
    const first = await signIn(ADMIN);
    const refreshed = await t.api('POST', '/v1/auth/refresh', {
      authorization: null,
      headers: { cookie: `sino_refresh=${first.refresh}` },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = cookieOf(refreshed.headers['set-cookie'])!;
    runLog.knownSecrets('console token', [refreshed.json().data.token, refreshValue(next)]);
    expect(refreshValue(next)).not.toBe(first.refresh);

    // The used one, replayed: refused, and its cookie cleared.
    const replay = await t.api('POST', '/v1/auth/refresh', {
      authorization: null,
      headers: { cookie: `sino_refresh=${first.refresh}` },
    });
    expect(replay.statusCode).toBe(401);
    expect(cookieOf(replay.headers['set-cookie'])).toMatch(/Expires=Thu, 01 Jan 1970/);

    const token = refreshed.json().data.token as string;
    expect(
      (await t.api('GET', '/v1/subscribers', { authorization: bearer(token) })).statusCode,
    ).toBe(200);
    const out = await t.api('POST', '/v1/auth/logout', {
      authorization: null,
      headers: { cookie: `sino_refresh=${refreshValue(next)}` },
    });
    expect(out.statusCode).toBe(204);
    expect(
      (await t.api('GET', '/v1/subscribers', { authorization: bearer(token) })).statusCode,
    ).toBe(401);
    const after = await t.api('POST', '/v1/auth/refresh', {
      authorization: null,
      headers: { cookie: `sino_refresh=${refreshValue(next)}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('refresh without a cookie is 401', async () => {
    const r = await t.api('POST', '/v1/auth/refresh', { authorization: null });
    expect(r.statusCode).toBe(401);
  });
});

describe('Production and the subscriber hash', () => {
  it("refuses to turn Production's hash requirement off (400); a change in Development is audited", async () => {
    const { token } = await signIn(ADMIN);
    const auth = { authorization: bearer(token) };
    const [production] = (
      await t.db
        .select({ id: environments.id, name: environments.name })
        .from(environments)
        .where(eq(environments.organizationId, t.credentials.organizationId))
    ).filter((e) => e.name === 'Production');
    const switched = await t.api('POST', `/v1/auth/environments/${production!.id}/switch`, auth);
    const inProduction = { authorization: bearer(switched.json().data.token) };
    const productionInApp = (
      await t.db.select().from(integrations).where(eq(integrations.environmentId, production!.id))
    ).find((i) => i.channel === 'in_app')!;
    const refused = await t.api('PUT', `/v1/integrations/${productionInApp.id}`, {
      ...inProduction,
      body: { credentials: { hmac: false } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/always requires the subscriber's hash/);
    const [still] = await t.db
      .select({ hmac: integrations.hmac })
      .from(integrations)
      .where(eq(integrations.id, productionInApp.id));
    expect(still!.hmac).toBe(true);

    const developmentInApp = (
      await t.db
        .select()
        .from(integrations)
        .where(eq(integrations.environmentId, t.credentials.environmentId))
    ).find((i) => i.channel === 'in_app')!;
    const changed = await t.api('PUT', `/v1/integrations/${developmentInApp.id}`, {
      ...auth,
      body: { credentials: { hmac: true } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const log = await t.api('GET', '/v1/audit-logs', auth);
    const entry = (log.json().data as { action: string; subject: { _id: string } | null }[]).find(
      (e) => e.action === 'environment.subscriber_hash_changed',
    );
    expect(entry?.subject?._id).toBe(developmentInApp.id);
  });
});

describe('GET /v1/audit-logs', () => {
  it('lists sign-ins and API keys made, newest first, holding no secret', async () => {
    const { token } = await signIn(ADMIN);
    const auth = { authorization: bearer(token) };
    const made = await t.api('POST', '/v1/environments/api-keys', auth);
    expect(made.statusCode).toBe(201);
    runLog.knownSecrets('API key', [made.json().data.key]);
    const first = await t.api('GET', '/v1/audit-logs?limit=2', auth);
    expect(first.statusCode).toBe(200);
    const [newest, second] = first.json().data;
    expect(newest).toMatchObject({
      action: 'api_key.created',
      actor: { type: 'user' },
      subject: { type: 'api_key', _id: made.json().data._id },
    });
    expect(second).toMatchObject({ action: 'user.signed_in', actor: { type: 'user' } });
    expect(first.json().hasMore).toBe(true);
    const next = await t.api('GET', `/v1/audit-logs?limit=2&before=${second._id}`, auth);
    expect(next.json().data[0]._id).not.toBe(second._id);
    const everything = await t.api('GET', '/v1/audit-logs?limit=100', auth);
    for (const secret of [made.json().data.key, t.credentials.apiKey, ADMIN.password, token])
      expect(everything.body).not.toContain(secret);
    expect((await t.api('GET', '/v1/audit-logs?before=nope', auth)).statusCode).toBe(400);
    // Without credentials, 401.
    expect((await t.api('GET', '/v1/audit-logs', { authorization: null })).statusCode).toBe(401);
  });

  it('records what an API key does, by the key', async () => {
    const r = await t.api('POST', '/v1/environments/api-keys');
    expect(r.statusCode).toBe(201);
    runLog.knownSecrets('API key', [r.json().data.key]);
    const log = await t.api('GET', '/v1/audit-logs?limit=1');
    expect(log.json().data[0]).toMatchObject({
      action: 'api_key.created',
      actor: { type: 'api_key', _id: expect.stringMatching(/^[0-9a-f]{24}$/) },
    });
  });
});

describe('first admins', () => {
  it('ensureAdmins gives an organization without an admin one, once, with a password shown once', async ({
    skip,
  }) => {
    skip(apart, "one process only: calls the app's account service");
    // An organization from before console accounts: no admin.
    const [row] = await t.db.select({ n: count() }).from(users);
    const made = await t.app.sino.accounts.ensureAdmins({ email: 'first.admin@example.com' });
    // This test app's organization already has Ana: nothing made.
    expect(made).toEqual([]);
    await t.db.delete(members).where(eq(members.role, 'admin'));
    const again = await t.app.sino.accounts.ensureAdmins({ email: 'first.admin@example.com' });
    expect(again).toEqual([
      {
        organizationId: t.credentials.organizationId,
        email: 'first.admin@example.com',
        password: expect.stringMatching(/^[\w-]{24}$/),
      },
    ]);
    runLog.knownSecrets('console password', [again[0]!.password]);
    expect((await t.db.select({ n: count() }).from(users))[0]!.n).toBe(row!.n + 1);
    const signedIn = await t.api('POST', '/v1/auth/login', {
      authorization: null,
      body: { email: 'first.admin@example.com', password: again[0]!.password },
    });
    expect(signedIn.statusCode).toBe(200);
    runLog.knownSecrets('console token', [signedIn.json().data.token]);
    expect(await t.app.sino.accounts.ensureAdmins({ email: 'first.admin@example.com' })).toEqual(
      [],
    );
    // The keys the start made (which belonged to nobody) are now the first admin's.
    const [firstAdmin] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'first.admin@example.com'));
    const keys = await t.api('GET', '/v1/environments/api-keys');
    const startKey = (keys.json().data as { key: string; _userId: string | null }[]).find(
      (k) => k.key === t.credentials.apiKey,
    );
    expect(startKey?._userId).toBe(firstAdmin!.id);
  });
});
