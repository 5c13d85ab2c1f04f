import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { testRunLog } from '@locadora/db/testing';
import { startSmtpPeer, type SmtpPeer } from '@sino/providers/testing';
import {
  accountTokens,
  apiKeys,
  auditLog,
  environments,
  members,
  users,
} from '../src/db/schema.js';
import { REFRESH_COOKIE } from '../src/modules/accounts/session-answers.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import {
  addPerson,
  bearer,
  mailTo,
  partsOf,
  signIn as signInWith,
  tokenIn,
} from './console-people-helpers.js';

/**
 * Sign-up when the operator opens it, e-mail verification, password reset and the erasure of
 * a person (issue 19), with the installation's mail going to a local SMTP peer.
 */
const runLog = testRunLog();
const PUBLIC_URL = 'https://console.example.test';
const ADMIN = {
  email: 'ana.admin@example.com',
  password: 'a long admin password 1',
  firstName: 'Ana',
};
const BEA = {
  email: 'bea.second@example.com',
  password: 'a long second password 2',
  firstName: 'Bea',
};
const SAM = {
  email: 'sam.signup@example.com',
  password: 'sam chooses a password 3',
  firstName: 'Sam',
};
const NEW_PASSWORD = 'a brand new password 4';

let peer: SmtpPeer;
let t: SinoTestApp;
let adminId: string;

const secrets = (label: string, values: string[]) => runLog.knownSecrets(label, values);
const signIn = (person: { email: string; password: string }) => signInWith(t, person, secrets);
const tokenCount = async () => (await t.db.select({ n: count() }).from(accountTokens))[0]!.n;
const userByEmail = async (email: string) =>
  (await t.db.select().from(users).where(eq(users.email, email)))[0];
const actions = async (action: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.action, action));

beforeAll(async () => {
  peer = await startSmtpPeer();
  runLog.knownSecrets('mail URL', [peer.url]);
  runLog.knownSecrets('console password', [
    ADMIN.password,
    BEA.password,
    SAM.password,
    NEW_PASSWORD,
  ]);
  t = await createSinoTestApp({
    accounts: { signUp: 'open' },
    platformMail: { url: peer.url, from: 'Sino <no-reply@console.example.test>' },
    delivery: { publicUrl: PUBLIC_URL },
  });
  adminId = await addPerson(t, ADMIN, t.credentials.organizationId, 'admin');
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
  runLog.close();
});

describe('POST /v1/auth/register (SINO_SIGNUP=open)', () => {
  it.each([
    ['no body', undefined],
    ['no first name', { email: SAM.email, password: SAM.password }],
    ['a short password', { email: SAM.email, password: 'short', firstName: 'Sam' }],
    ['an e-mail that is not one', { email: 'sam', password: SAM.password, firstName: 'Sam' }],
  ])('answers 400 to %s, writing nothing', async (_, body) => {
    const before = (await t.db.select({ n: count() }).from(users))[0]!.n;
    const r = await t.api('POST', '/v1/auth/register', { authorization: null, body });
    expect(r.statusCode).toBe(400);
    expect((await t.db.select({ n: count() }).from(users))[0]!.n).toBe(before);
  });

  it('makes the person the admin of an organization of their own, `new` until verified, and mails a verification link', async () => {
    const r = await t.api('POST', '/v1/auth/register', {
      authorization: null,
      body: {
        email: SAM.email,
        password: SAM.password,
        firstName: 'Sam',
        organizationName: 'Sam Co',
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    runLog.knownSecrets('console token', [r.json().data.token]);
    expect(r.json().data.user).toMatchObject({
      email: SAM.email,
      status: 'new',
      emailVerified: false,
    });
    const organizationId = r.json().data.organizationId as string;
    const envs = await t.db
      .select({ name: environments.name })
      .from(environments)
      .where(eq(environments.organizationId, organizationId));
    expect(envs.map((e) => e.name).sort()).toEqual(['Development', 'Production']);
    const me = await t.api('GET', '/v1/users/me', { authorization: bearer(r.json().data.token) });
    expect(me.json().data).toMatchObject({ role: 'admin', organizations: [{ name: 'Sam Co' }] });

    const mail = await mailTo(peer, SAM.email);
    expect(partsOf(mail.raw).subject).toBe('Confirm your e-mail address for Sino');
    const token = tokenIn(mail.raw, PUBLIC_URL, 'verify-email');
    runLog.knownSecrets('verification token', [token]);

    // An unverified person may not make the installation mail others.
    const invite = await t.api('POST', '/v1/invites', {
      authorization: bearer(r.json().data.token),
      body: { email: 'friend@example.com' },
    });
    expect(invite.statusCode).toBe(403);

    const again = await t.api('POST', '/v1/auth/register', {
      authorization: null,
      body: { email: SAM.email.toUpperCase(), password: SAM.password, firstName: 'Sam' },
    });
    expect(again.statusCode).toBe(409);
  });
});

describe('e-mail verification', () => {
  it('resend: 401 without a person, at most one a minute (429), then a new link', async () => {
    expect(
      (await t.api('POST', '/v1/auth/verify-email/resend', { authorization: null })).statusCode,
    ).toBe(401);
    const key = await t.api('POST', '/v1/auth/verify-email/resend');
    expect(key.statusCode).toBe(401);
    const sam = await signIn(SAM);
    const auth = { authorization: bearer(sam.token) };
    const soon = await t.api('POST', '/v1/auth/verify-email/resend', auth);
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    // A minute later (the first link's time moved back).
    const samId = (await userByEmail(SAM.email))!.id;
    await t.db
      .update(accountTokens)
      .set({ createdAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(accountTokens.userId, samId));
    const r = await t.api('POST', '/v1/auth/verify-email/resend', auth);
    expect(r.statusCode, r.body).toBe(200);
    const token = tokenIn((await mailTo(peer, SAM.email, 2)).raw, PUBLIC_URL, 'verify-email');
    runLog.knownSecrets('verification token', [token]);
    expect((await t.api('POST', '/v1/auth/verify-email/resend', auth)).statusCode).toBe(429);
  });

  it('verifies with the link: active and verified; replay 400, unknown 404, bad input 400', async () => {
    const mail = await mailTo(peer, SAM.email, 2);
    const token = tokenIn(mail.raw, PUBLIC_URL, 'verify-email');
    for (const body of [undefined, { token: '' }, { token: 42 }]) {
      const bad = await t.api('POST', '/v1/auth/verify-email', { authorization: null, body });
      expect(bad.statusCode).toBe(400);
    }
    expect((await userByEmail(SAM.email))!.emailVerifiedAt).toBeNull();
    const r = await t.api('POST', '/v1/auth/verify-email', {
      authorization: null,
      body: { token },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ data: { success: true } });
    const sam = (await userByEmail(SAM.email))!;
    expect(sam.status).toBe('active');
    expect(sam.emailVerifiedAt).not.toBeNull();
    const replay = await t.api('POST', '/v1/auth/verify-email', {
      authorization: null,
      body: { token },
    });
    expect(replay.statusCode).toBe(400);
    const unknown = await t.api('POST', '/v1/auth/verify-email', {
      authorization: null,
      body: { token: 'B'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(404);
    const signedIn = await signIn(SAM);
    const done = await t.api('POST', '/v1/auth/verify-email/resend', {
      authorization: bearer(signedIn.token),
    });
    expect(done.statusCode).toBe(400);
  });
});

describe('password reset', () => {
  it('answers the same for an unknown address and sends nothing', async () => {
    const tokens = await tokenCount();
    const mails = peer.messages.length;
    const r = await t.api('POST', '/v1/auth/reset/request', {
      authorization: null,
      body: { email: 'nobody.here@example.com' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ data: { success: true } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.messages.length).toBe(mails);
    expect(await tokenCount()).toBe(tokens);
    const bad = await t.api('POST', '/v1/auth/reset/request', {
      authorization: null,
      body: { email: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('mails a link to an existing account; the new password works, the old one and every session end; the link works once', async () => {
    const session = await signIn(ADMIN);
    const r = await t.api('POST', '/v1/auth/reset/request', {
      authorization: null,
      body: { email: ADMIN.email },
    });
    expect(r.json()).toEqual({ data: { success: true } });
    const mail = await mailTo(peer, ADMIN.email);
    expect(partsOf(mail.raw).subject).toBe('Reset your Sino password');
    const token = tokenIn(mail.raw, PUBLIC_URL, 'reset-password');
    runLog.knownSecrets('reset token', [token]);
    // Asked again at once: the same answer, no second mail.
    const again = await t.api('POST', '/v1/auth/reset/request', {
      authorization: null,
      body: { email: ADMIN.email },
    });
    expect(again.json()).toEqual({ data: { success: true } });

    for (const body of [
      undefined,
      { token },
      { token, password: 'short' },
      { password: NEW_PASSWORD },
    ]) {
      const bad = await t.api('POST', '/v1/auth/reset', { authorization: null, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    const unknown = await t.api('POST', '/v1/auth/reset', {
      authorization: null,
      body: { token: 'C'.repeat(43), password: NEW_PASSWORD },
    });
    expect(unknown.statusCode).toBe(404);
    // Nothing changed yet.
    expect(
      (await t.api('GET', '/v1/users/me', { authorization: bearer(session.token) })).statusCode,
    ).toBe(200);

    const reset = await t.api('POST', '/v1/auth/reset', {
      authorization: null,
      body: { token, password: NEW_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(
      (await t.api('GET', '/v1/users/me', { authorization: bearer(session.token) })).statusCode,
    ).toBe(401);
    const refreshed = await t.api('POST', '/v1/auth/refresh', {
      authorization: null,
      headers: { cookie: `sino_refresh=${session.refresh}` },
    });
    expect(refreshed.statusCode).toBe(401);
    const old = await t.api('POST', '/v1/auth/login', { authorization: null, body: ADMIN });
    expect(old.statusCode).toBe(401);
    expect(peer.messages.filter((m) => m.to.includes(ADMIN.email))).toHaveLength(1);
    ADMIN.password = NEW_PASSWORD;
    await signIn(ADMIN);

    const replay = await t.api('POST', '/v1/auth/reset', {
      authorization: null,
      body: { token, password: 'yet another password 5' },
    });
    expect(replay.statusCode).toBe(400);
    const [entry] = await actions('auth.password_reset');
    expect(entry).toMatchObject({ actorId: adminId, organizationId: t.credentials.organizationId });
    expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('refuses an expired link (400)', async () => {
    await t.api('POST', '/v1/auth/reset/request', {
      authorization: null,
      body: { email: SAM.email },
    });
    const mail = await mailTo(peer, SAM.email, 3);
    const token = tokenIn(mail.raw, PUBLIC_URL, 'reset-password');
    runLog.knownSecrets('reset token', [token]);
    await t.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.purpose, 'password_reset'));
    const r = await t.api('POST', '/v1/auth/reset', {
      authorization: null,
      body: { token, password: NEW_PASSWORD },
    });
    expect(r.statusCode).toBe(400);
    await signIn(SAM);
  });
});

describe('sign-ups and reset requests, each of which mails an address', () => {
  let limited: SinoTestApp;
  beforeAll(async () => {
    limited = await createSinoTestApp({
      accounts: { signUp: 'open' },
      platformMail: { url: peer.url, from: 'Sino <no-reply@console.example.test>' },
      delivery: { publicUrl: PUBLIC_URL },
      consoleMailRequests: { maxFailuresPerEmail: 2, maxFailuresPerAddress: 4, blockMinutes: 60 },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });
  const register = (email: string) =>
    limited.api('POST', '/v1/auth/register', {
      authorization: null,
      body: { email, password: 'a long throttled password 9', firstName: 'Tess' },
    });
  const resetRequest = (email: string) =>
    limited.api('POST', '/v1/auth/reset/request', { authorization: null, body: { email } });
  const usersOf = async () => (await limited.db.select({ n: count() }).from(users))[0]!.n;

  it('are limited per e-mail, then per client address (429 with Retry-After), sending and writing nothing past it', async () => {
    const mails = peer.messages.length;
    expect((await register('tess@example.com')).statusCode).toBe(201);
    // The second for the address answers as usual; the third is refused before anything.
    expect((await register('tess@example.com')).statusCode).toBe(409);
    const people = await usersOf();
    const third = await register('tess@example.com');
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe(
      'Too many sign-ups for this address or from this network: try again in 60 minutes',
    );
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(3500);
    // A reset request for it counts against the same e-mail.
    expect((await resetRequest('tess@example.com')).statusCode).toBe(429);

    // Other addresses from the same network: two more, then the network's limit.
    expect((await register('uma@example.com')).statusCode).toBe(201);
    expect((await resetRequest('uma@example.com')).statusCode).toBe(200);
    const refused = await resetRequest('vera@example.com');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain('Too many password reset requests');
    expect((await register('wes@example.com')).statusCode).toBe(429);
    expect(await usersOf()).toBe(people + 1);
    // Tess's verification, Uma's verification and reset; nothing for the refused ones.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mailedTo = (email: string) =>
      peer.messages.slice(mails).filter((m) => m.to.includes(email)).length;
    expect(['tess', 'uma', 'vera', 'wes'].map((n) => mailedTo(`${n}@example.com`))).toEqual([
      1, 2, 0, 0,
    ]);
  });
});

describe('DELETE /v1/users/me', () => {
  it('answers 401 without credentials and for an API key', async () => {
    expect((await t.api('DELETE', '/v1/users/me', { authorization: null })).statusCode).toBe(401);
    const key = await t.api('DELETE', '/v1/users/me');
    expect(key.statusCode).toBe(401);
    expect(key.json().message).toBe('API endpoint not available');
  });

  // An organization of Ana's own, where she is the only admin (the installation's first one
  // has the operator's admin too when the server runs apart).
  let team: { id: string; adminToken: string };

  it('refuses the last admin of an organization with other members (409), nothing erased', async () => {
    const admin = await signIn(ADMIN);
    const made = await t.api('POST', '/v1/organizations', {
      authorization: bearer(admin.token),
      body: { name: 'Team organization' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data._id as string;
    const switched = await t.api('POST', `/v1/auth/organizations/${id}/switch`, {
      authorization: bearer(admin.token),
    });
    team = { id, adminToken: switched.json().data.token as string };
    runLog.knownSecrets('console token', [team.adminToken]);
    const beaId = await addPerson(t, BEA, id, 'member');
    const r = await t.api('DELETE', '/v1/users/me', { authorization: bearer(admin.token) });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'You are the last admin of an organization that has other members: make one of them an admin first',
    );
    expect(await userByEmail(ADMIN.email)).toBeDefined();
    // Bea becomes an admin there too (for the next test).
    const role = await t.api('PUT', `/v1/organizations/members/${beaId}/roles`, {
      authorization: bearer(team.adminToken),
      body: { role: 'admin' },
    });
    expect(role.statusCode, role.body).toBe(200);
  });

  it('erases a person: their keys go to another admin and keep working; the audit keeps only the id', async () => {
    const admin = (await userByEmail(ADMIN.email))!;
    const bea = (await userByEmail(BEA.email))!;
    const keys = await t.api('GET', '/v1/environments/api-keys', {
      authorization: bearer(team.adminToken),
    });
    expect(keys.statusCode, keys.body).toBe(200);
    const { _id: keyId, key } = keys.json().data[0] as { _id: string; key: string };
    runLog.knownSecrets('API key', [key]);
    await t.db.update(apiKeys).set({ userId: bea.id }).where(eq(apiKeys.id, keyId));
    const withKey = { authorization: `ApiKey ${key}` };
    expect((await t.api('GET', '/v1/environments/me', withKey)).statusCode).toBe(200);
    const session = await signIn(BEA);
    const r = await t.api('DELETE', '/v1/users/me', { authorization: bearer(session.token) });
    expect(r.statusCode, r.body).toBe(204);
    // The browser's refresh cookie is cleared with the person.
    expect(r.cookies.find((c) => c.name === REFRESH_COOKIE)).toMatchObject({
      value: '',
      path: '/v1/auth',
    });
    expect(await userByEmail(BEA.email)).toBeUndefined();
    expect(await t.db.select().from(members).where(eq(members.userId, bea.id))).toEqual([]);
    const [moved] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(moved).toMatchObject({ userId: admin.id, revokedAt: null });
    expect((await t.api('GET', '/v1/environments/me', withKey)).statusCode).toBe(200);
    expect(
      (await t.api('GET', '/v1/users/me', { authorization: bearer(session.token) })).statusCode,
    ).toBe(401);
    const [erased] = await actions('user.erased');
    expect(erased).toMatchObject({
      organizationId: team.id,
      actorId: bea.id,
      subjectId: bea.id,
      details: null,
    });
    expect(JSON.stringify(erased)).not.toContain(BEA.email);
  });

  it('erases the only member of an organization: it stays, without members, and its keys stop working', async () => {
    const sam = await signIn(SAM);
    const keys = await t.api('GET', '/v1/environments/api-keys', {
      authorization: bearer(sam.token),
    });
    expect(keys.statusCode, keys.body).toBe(200);
    const samKey = keys.json().data[0].key as string;
    runLog.knownSecrets('API key', [samKey]);
    const withKey = { authorization: `ApiKey ${samKey}` };
    expect((await t.api('GET', '/v1/environments/me', withKey)).statusCode).toBe(200);
    const r = await t.api('DELETE', '/v1/users/me', { authorization: bearer(sam.token) });
    expect(r.statusCode, r.body).toBe(204);
    expect((await t.api('GET', '/v1/environments/me', withKey)).statusCode).toBe(401);
    const left = await t.db
      .select()
      .from(members)
      .where(eq(members.organizationId, sam.organizationId));
    expect(left).toEqual([]);
    const signInAgain = await t.api('POST', '/v1/auth/login', { authorization: null, body: SAM });
    expect(signInAgain.statusCode).toBe(401);
  });
});

describe('what is logged', () => {
  it('no token, password nor mail URL in a log line', () => {
    const lines = t.logs.join('\n');
    expect(lines).not.toContain(NEW_PASSWORD);
    expect(lines).not.toContain('token=');
  });
});
