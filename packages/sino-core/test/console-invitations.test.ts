import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { testRunLog } from '@locadora/db/testing';
import { startSmtpPeer, type SmtpPeer } from '@sino/providers/testing';
import { accountTokens, auditLog, members, sandboxOutbox, users } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import {
  addPerson,
  bearer,
  mailTo,
  partsOf,
  refreshOf,
  signIn as signInWith,
  tokenIn,
} from './console-people-helpers.js';

/**
 * Invitations (issue 19): an admin invites an address with a role, the link goes through the
 * installation's own mail (a local SMTP peer here) or, without mail, is answered once to the
 * admin; the link works once, for its address only, and an admin can revoke it.
 */
const runLog = testRunLog();
const PUBLIC_URL = 'https://sino.example.test';
const MAIL_LOGIN = { user: 'sino-mailer', password: 'smtp password for the platform 7' };
const ADMIN = {
  email: 'ana.admin@example.com',
  password: 'a long admin password 1',
  firstName: 'Ana',
};
const MEMBER = {
  email: 'milo.member@example.com',
  password: 'a long member password 2',
  firstName: 'Milo',
};
const VIC = {
  email: 'vic.viewer@example.com',
  password: 'a long viewer password 3',
  firstName: 'Vic',
};
const NEW_PASSWORD = 'the invited person password 4';

let peer: SmtpPeer;
let mailUrl: string;
let t: SinoTestApp;
let bare: SinoTestApp;
let adminId: string;

const secrets = (label: string, values: string[]) => runLog.knownSecrets(label, values);
const signIn = (person: { email: string; password: string }, app = t) =>
  signInWith(app, person, secrets);
const tokenCount = async (app = t) =>
  (await app.db.select({ n: count() }).from(accountTokens))[0]!.n;
const userCount = async (app = t) => (await app.db.select({ n: count() }).from(users))[0]!.n;

beforeAll(async () => {
  peer = await startSmtpPeer({ login: MAIL_LOGIN });
  mailUrl = `smtp://${MAIL_LOGIN.user}:${encodeURIComponent(MAIL_LOGIN.password)}@127.0.0.1:${peer.port}`;
  runLog.knownSecrets('mail URL', [mailUrl, MAIL_LOGIN.password]);
  runLog.knownSecrets('console password', [
    ADMIN.password,
    MEMBER.password,
    VIC.password,
    NEW_PASSWORD,
  ]);
  t = await createSinoTestApp({
    platformMail: { url: mailUrl, from: 'Sino <no-reply@sino.example.test>' },
    delivery: { publicUrl: PUBLIC_URL },
  });
  // No platform mail: invitation links are answered to the admin.
  bare = await createSinoTestApp({ delivery: { publicUrl: PUBLIC_URL } });
  adminId = await addPerson(t, ADMIN, t.credentials.organizationId, 'admin');
  await addPerson(t, MEMBER, t.credentials.organizationId, 'member');
  await addPerson(t, VIC, t.credentials.organizationId, 'member');
  await addPerson(bare, ADMIN, bare.credentials.organizationId, 'admin');
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await peer?.close();
  runLog.close();
});

/** An admin's invitation of `email`; answers the token read from the mail the peer received. */
async function invite(token: string, email: string, role?: 'admin' | 'member') {
  const before = peer.messages.filter((m) => m.to.includes(email)).length;
  const r = await t.api('POST', '/v1/invites', {
    authorization: bearer(token),
    body: { email, ...(role && { role }) },
  });
  expect(r.statusCode, r.body).toBe(201);
  expect(r.json().data.invitationLink).toBeUndefined();
  const mail = await mailTo(peer, email, before + 1);
  const link = tokenIn(mail.raw, PUBLIC_URL, 'accept-invitation');
  runLog.knownSecrets('invitation token', [link]);
  return { id: r.json().data._id as string, token: link, mail };
}

describe('POST /v1/invites', () => {
  it('mails the invitation through the platform mail: plain English, text and HTML, the link under SINO_PUBLIC_URL', async () => {
    const { token } = await signIn(ADMIN);
    const { mail, token: link } = await invite(token, 'nina.new@example.com');
    const parts = partsOf(mail.raw);
    expect(parts.subject).toBe('You are invited to Test organization on Sino');
    expect(parts.from).toContain('no-reply@sino.example.test');
    expect(parts.text).toContain('Ana invited you to join Test organization on Sino.');
    expect(parts.html).toContain('<a href=');
    expect(mail.user).toBe(MAIL_LOGIN.user);
    // Only the token's SHA-256 is kept.
    const stored = await t.db.select().from(accountTokens);
    expect(JSON.stringify(stored)).not.toContain(link);
  });

  it('answers 401 without credentials and for an API key, 403 for a member, writing nothing', async () => {
    const before = await tokenCount();
    const none = await t.api('POST', '/v1/invites', {
      authorization: null,
      body: { email: 'x@example.com' },
    });
    expect(none.statusCode).toBe(401);
    const key = await t.api('POST', '/v1/invites', { body: { email: 'x@example.com' } });
    expect(key.statusCode).toBe(401);
    expect(key.json().message).toBe('API endpoint not available');
    const { token } = await signIn(MEMBER);
    for (const [method, url] of [
      ['POST', '/v1/invites'],
      ['GET', '/v1/invites'],
      ['DELETE', `/v1/invites/${newId()}`],
    ] as const) {
      const r = await t.api(method, url, {
        authorization: bearer(token),
        ...(method === 'POST' && { body: { email: 'x@example.com' } }),
      });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await tokenCount()).toBe(before);
  });

  it.each([
    ['no body', undefined],
    ['an e-mail that is not one', { email: 'nina' }],
    ['a role that is none', { email: 'x@example.com', role: 'owner' }],
  ])('answers 400 to %s, writing nothing', async (_, body) => {
    const { token } = await signIn(ADMIN);
    const before = await tokenCount();
    const r = await t.api('POST', '/v1/invites', { authorization: bearer(token), body });
    expect(r.statusCode).toBe(400);
    expect(await tokenCount()).toBe(before);
  });

  it('when the mail server refuses, answers 502 and the invitation does not stay pending', async () => {
    const { token } = await signIn(ADMIN);
    peer.refuse('bounce.back@example.com', 550, '5.1.1 No such user');
    const r = await t.api('POST', '/v1/invites', {
      authorization: bearer(token),
      body: { email: 'bounce.back@example.com' },
    });
    expect(r.statusCode).toBe(502);
    expect(r.json().message).toBe('The invitation could not be e-mailed: try again later');
    expect(r.body).not.toContain(MAIL_LOGIN.user);
    const list = await t.api('GET', '/v1/invites', { authorization: bearer(token) });
    expect(list.body).not.toContain('bounce.back@example.com');
  });

  it("never writes the platform's mail into an environment's sandbox outbox", async () => {
    expect(await t.db.select().from(sandboxOutbox)).toEqual([]);
  });

  it('refuses an address that is a member already (409)', async () => {
    const { token } = await signIn(ADMIN);
    const r = await t.api('POST', '/v1/invites', {
      authorization: bearer(token),
      body: { email: MEMBER.email },
    });
    expect(r.statusCode).toBe(409);
  });

  it('without platform mail, answers the link once to the admin; nothing else keeps it', async () => {
    const { token } = await signIn(ADMIN, bare);
    const r = await bare.api('POST', '/v1/invites', {
      authorization: bearer(token),
      body: { email: 'lia.linked@example.com', role: 'admin' },
    });
    expect(r.statusCode, r.body).toBe(201);
    const link = r.json().data.invitationLink as string;
    expect(link).toMatch(
      /^https:\/\/sino\.example\.test\/console\/accept-invitation\?token=[\w-]{43}$/,
    );
    const inviteToken = new URL(link).searchParams.get('token')!;
    runLog.knownSecrets('invitation token', [inviteToken]);
    const list = await bare.api('GET', '/v1/invites', { authorization: bearer(token) });
    expect(list.json().data).toMatchObject([{ email: 'lia.linked@example.com', role: 'admin' }]);
    expect(list.body).not.toContain(inviteToken);
    const audit = await bare.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'member.invited'));
    expect(JSON.stringify(audit)).not.toContain(inviteToken);
    expect(JSON.stringify(await bare.db.select().from(accountTokens))).not.toContain(inviteToken);
    const shown = await bare.api('GET', `/v1/invites/${inviteToken}`, { authorization: null });
    expect(shown.json().data).toMatchObject({ email: 'lia.linked@example.com' });
  });
});

describe('GET /v1/invites/:token and POST /v1/invites/:token/accept', () => {
  it('shows the invitation without credentials; 404 for an unknown token', async () => {
    const { token } = await signIn(ADMIN);
    const { token: link } = await invite(token, 'oli.open@example.com');
    const r = await t.api('GET', `/v1/invites/${link}`, { authorization: null });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual({
      inviter: { firstName: 'Ana' },
      organization: { _id: t.credentials.organizationId, name: 'Test organization' },
      email: 'oli.open@example.com',
    });
    const unknown = await t.api('GET', `/v1/invites/${'A'.repeat(43)}`, { authorization: null });
    expect(unknown.statusCode).toBe(404);
  });

  it('a new person accepts: account bound to the invited address, verified, the role, a session; the link works once', async () => {
    const { token } = await signIn(ADMIN);
    const { token: link } = await invite(token, 'pia.person@example.com', 'admin');
    const usersBefore = await userCount();
    for (const body of [
      undefined,
      { password: 'short', firstName: 'Pia' },
      { password: NEW_PASSWORD },
      { password: NEW_PASSWORD, firstName: '' },
    ]) {
      const bad = await t.api('POST', `/v1/invites/${link}/accept`, { authorization: null, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await userCount()).toBe(usersBefore);

    const r = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: null,
      body: { password: NEW_PASSWORD, firstName: 'Pia', lastName: 'Person' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const refresh = refreshOf(r.headers['set-cookie']);
    expect(refresh).toBeDefined();
    runLog.knownSecrets('console token', [r.json().data.token, refresh!]);
    expect(r.json().data).toMatchObject({
      user: {
        email: 'pia.person@example.com',
        firstName: 'Pia',
        status: 'active',
        emailVerified: true,
      },
      organizationId: t.credentials.organizationId,
    });
    const me = await t.api('GET', '/v1/users/me', { authorization: bearer(r.json().data.token) });
    expect(me.json().data).toMatchObject({ role: 'admin' });
    // The password chosen signs in.
    await signIn({ email: 'pia.person@example.com', password: NEW_PASSWORD });

    const replay = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: null,
      body: { password: NEW_PASSWORD, firstName: 'Mallory' },
    });
    expect(replay.statusCode).toBe(400);
    const shown = await t.api('GET', `/v1/invites/${link}`, { authorization: null });
    expect(shown.statusCode).toBe(400);
    expect(await userCount()).toBe(usersBefore + 1);
    const [accepted] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'invitation.accepted'));
    expect(accepted).toMatchObject({ details: { role: 'admin' } });
    expect(JSON.stringify(accepted)).not.toContain(link);
  });

  it('two accepts racing: one account, one refusal', async () => {
    const { token } = await signIn(ADMIN);
    const { token: link } = await invite(token, 'rae.race@example.com');
    const [a, b] = await Promise.all(
      ['A', 'B'].map((who) =>
        t.api('POST', `/v1/invites/${link}/accept`, {
          authorization: null,
          body: { password: NEW_PASSWORD, firstName: who },
        }),
      ),
    );
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 400]);
    const made = await t.db.select().from(users).where(eq(users.email, 'rae.race@example.com'));
    expect(made).toHaveLength(1);
  });

  it('a signed-in person accepts an invitation to their address; another address cannot (403), and the link stays usable', async () => {
    const admin = await signIn(ADMIN);
    // A second organization of Ana's, where she invites Milo as an admin.
    const made = await t.api('POST', '/v1/organizations', {
      authorization: bearer(admin.token),
      body: { name: 'Second organization' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const secondId = made.json().data._id as string;
    const switched = await t.api('POST', `/v1/auth/organizations/${secondId}/switch`, {
      authorization: bearer(admin.token),
    });
    const inSecond = switched.json().data.token as string;
    runLog.knownSecrets('console token', [inSecond]);
    const { token: link } = await invite(inSecond, MEMBER.email, 'admin');

    const vic = await signIn(VIC);
    const wrong = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: bearer(vic.token),
    });
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json().message).toBe('This invitation was sent to another address');
    const key = await t.api('POST', `/v1/invites/${link}/accept`);
    expect(key.statusCode).toBe(401);
    // Milo has an account: accepting without signing in is refused, the link kept.
    const asNew = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: null,
      body: { password: NEW_PASSWORD, firstName: 'Milo' },
    });
    expect(asNew.statusCode).toBe(409);
    expect((await t.api('GET', `/v1/invites/${link}`, { authorization: null })).statusCode).toBe(
      200,
    );

    const milo = await signIn(MEMBER);
    const r = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: bearer(milo.token),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.organizationId).toBe(secondId);
    const [membership] = await t.db
      .select()
      .from(members)
      .where(eq(members.organizationId, secondId))
      .then((rows) => rows.filter((m) => m.role === 'admin' && m.userId !== adminId));
    expect(membership).toBeDefined();

    // The second organization's invitation is not the first's: 404 there.
    const other = await invite(inSecond, 'zed.zone@example.com');
    const elsewhere = await t.api('DELETE', `/v1/invites/${other.id}`, {
      authorization: bearer(admin.token),
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(
      (await t.api('GET', `/v1/invites/${other.token}`, { authorization: null })).statusCode,
    ).toBe(200);
  });

  it('refuses an expired invitation (400)', async () => {
    const { token } = await signIn(ADMIN);
    const { id, token: link } = await invite(token, 'eve.expired@example.com');
    await t.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.id, id));
    expect((await t.api('GET', `/v1/invites/${link}`, { authorization: null })).statusCode).toBe(
      400,
    );
    const r = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: null,
      body: { password: NEW_PASSWORD, firstName: 'Eve' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('This invitation link has expired or was already used');
  });
});

describe('GET /v1/invites and DELETE /v1/invites/:id', () => {
  it('lists pending invitations for admins and revokes one: its link opens nothing after', async () => {
    const { token } = await signIn(ADMIN);
    const { id, token: link } = await invite(token, 'rita.revoked@example.com');
    const list = await t.api('GET', '/v1/invites', { authorization: bearer(token) });
    expect(list.statusCode).toBe(200);
    const mine = (list.json().data as { _id: string }[]).find((i) => i._id === id);
    expect(mine).toMatchObject({
      email: 'rita.revoked@example.com',
      role: 'member',
      inviter: { _id: adminId, firstName: 'Ana' },
    });
    const none = await t.api('DELETE', `/v1/invites/${id}`, { authorization: null });
    expect(none.statusCode).toBe(401);
    for (const unknown of [newId(), 'not-an-id']) {
      const r = await t.api('DELETE', `/v1/invites/${unknown}`, { authorization: bearer(token) });
      expect(r.statusCode).toBe(404);
    }
    const r = await t.api('DELETE', `/v1/invites/${id}`, { authorization: bearer(token) });
    expect(r.statusCode, r.body).toBe(200);
    expect((await t.api('GET', `/v1/invites/${link}`, { authorization: null })).statusCode).toBe(
      400,
    );
    const accept = await t.api('POST', `/v1/invites/${link}/accept`, {
      authorization: null,
      body: { password: NEW_PASSWORD, firstName: 'Rita' },
    });
    expect(accept.statusCode).toBe(400);
    const again = await t.api('DELETE', `/v1/invites/${id}`, { authorization: bearer(token) });
    expect(again.statusCode).toBe(404);
    const after = await t.api('GET', '/v1/invites', { authorization: bearer(token) });
    expect((after.json().data as { _id: string }[]).map((i) => i._id)).not.toContain(id);
    const [revoked] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'invitation.revoked'));
    expect(revoked).toMatchObject({ actorId: adminId, subjectId: id });
  });
});

describe('POST /v1/auth/register on an installation by invitation', () => {
  it('is closed (403) and writes nothing', async () => {
    const before = await userCount(bare);
    const r = await bare.api('POST', '/v1/auth/register', {
      authorization: null,
      body: { email: 'sly.signup@example.com', password: NEW_PASSWORD, firstName: 'Sly' },
    });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Sign-up is by invitation only on this installation');
    expect(await userCount(bare)).toBe(before);
  });
});

describe('what is logged', () => {
  it('no token, password nor mail URL in a log line', async () => {
    const lines = [...t.logs, ...bare.logs].join('\n');
    expect(lines).not.toContain(MAIL_LOGIN.password);
    expect(lines).not.toContain(NEW_PASSWORD);
    expect(lines).not.toContain('token=');
  });
});
