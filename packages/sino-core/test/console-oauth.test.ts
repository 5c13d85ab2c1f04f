import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { Signer } from '@fastify/cookie';
import { testRunLog } from '@locadora/db/testing';
import {
  auditLog,
  consoleSessions,
  members,
  organizations,
  userIdentities,
  users,
} from '../src/db/schema.js';
import { createAccountRepository } from '../src/modules/accounts/repository.js';
import { apart, createSinoTestApp, type SinoTestApp } from './harness.js';
import {
  startIdentityProvider,
  type IdentityProviderPeer,
  type ProviderPerson,
} from './identity-provider.js';

/**
 * Console sign-in with GitHub and Google (issue 19, decision 049) against local identity
 * providers that check what a client sends (client secret, redirect URI, PKCE): the whole
 * flow over HTTP, from the start's redirect through the provider's authorize page to the
 * callback, and every refusal leaving nothing behind.
 */
const PUBLIC_URL = 'https://sino.example';
const GITHUB = {
  clientId: 'github-client-id',
  clientSecret: 'github-client-secret-0123456789abcd',
};
const GOOGLE = {
  clientId: 'google-client-id.apps.example',
  clientSecret: 'google-client-secret-0123456789abcd',
};
const runLog = testRunLog();

type Provider = 'github' | 'google';
let github: IdentityProviderPeer;
let google: IdentityProviderPeer;
/** Both providers, sign-up open. */
let t: SinoTestApp;
/** GitHub only, sign-up by invitation (the default). */
let closed: SinoTestApp;
/** Every address a test signs in with: none may reach a log line. */
const addresses: string[] = [];

let people = 0;
function person(overrides: Partial<ProviderPerson> = {}): ProviderPerson {
  people += 1;
  const made = {
    id: String(4_000_000 + people),
    login: `octo${people}`,
    name: `Octo Person${people}`,
    email: `octo${people}@people.example`,
    emailVerified: true,
    ...overrides,
  };
  addresses.push(made.email);
  return made;
}

describe.skipIf(apart)('console sign-in with GitHub and Google', () => {
  beforeAll(async () => {
    github = await startIdentityProvider({ shape: 'github', ...GITHUB });
    google = await startIdentityProvider({ shape: 'oidc', ...GOOGLE });
    runLog.knownSecrets('client secret', [GITHUB.clientSecret, GOOGLE.clientSecret]);
    t = await createSinoTestApp({
      accounts: { signUp: 'open' },
      consoleSignIn: {
        publicUrl: PUBLIC_URL,
        github: { ...GITHUB, url: github.url, apiUrl: `${github.url}/api` },
        google: { ...GOOGLE, issuer: google.url },
      },
    });
    closed = await createSinoTestApp({
      consoleSignIn: {
        publicUrl: `${PUBLIC_URL}/`,
        github: { ...GITHUB, url: github.url, apiUrl: `${github.url}/api` },
      },
    });
  });
  afterAll(async () => {
    runLog.knownSecrets('provider code or token', [...github.issued, ...google.issued]);
    await t?.close();
    await closed?.close();
    await github?.close();
    await google?.close();
    runLog.close();
  });

  const peerOf = (provider: Provider) => (provider === 'github' ? github : google);
  const cookieNamed = (setCookie: string | string[] | undefined, name: string) =>
    [setCookie ?? []].flat().find((c) => c.startsWith(`${name}=`));

  /** `GET /v1/auth/<provider>`: the redirect to the provider, and the flow's cookie. */
  async function start(app: SinoTestApp, provider: Provider) {
    const r = await app.app.inject({ method: 'GET', url: `/v1/auth/${provider}` });
    expect(r.statusCode, r.body).toBe(302);
    const setCookie = cookieNamed(r.headers['set-cookie'], 'sino_oauth')!;
    expect(setCookie).toBeDefined();
    return {
      authorize: new URL(r.headers.location as string),
      setCookie,
      cookie: setCookie.split(';')[0]!,
    };
  }

  /** The browser at the provider's authorize page: signed in there, sent back. */
  async function atProvider(authorize: URL) {
    const res = await fetch(authorize, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin).toBe(PUBLIC_URL);
    return back;
  }

  const callback = (app: SinoTestApp, back: URL, cookie?: string) =>
    app.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: cookie ? { cookie } : {},
    });

  /** The whole flow, as a browser goes through it. */
  async function signIn(app: SinoTestApp, provider: Provider, who: ProviderPerson) {
    peerOf(provider).person = who;
    const started = await start(app, provider);
    return callback(app, await atProvider(started.authorize), started.cookie);
  }

  /** Signed in: to the console, the refresh cookie set, which opens a session. */
  async function expectSignedIn(app: SinoTestApp, r: Awaited<ReturnType<typeof callback>>) {
    expect(r.statusCode, r.body).toBe(302);
    expect(r.headers.location).toBe(`${PUBLIC_URL}/console/`);
    const refresh = cookieNamed(r.headers['set-cookie'], 'sino_refresh')!;
    expect(refresh).toMatch(/HttpOnly/i);
    expect(refresh).toMatch(/SameSite=Strict/i);
    expect(refresh).toMatch(/Path=\/v1\/auth(;|$)/);
    // The flow's cookie is gone, and no token travels in the URL.
    expect(cookieNamed(r.headers['set-cookie'], 'sino_oauth')).toMatch(
      /Max-Age=0|Expires=Thu, 01 Jan 1970/,
    );
    const refreshed = await app.api('POST', '/v1/auth/refresh', {
      authorization: null,
      headers: { cookie: refresh.split(';')[0]! },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    runLog.knownSecrets('console token', [
      refresh.split(';')[0]!.slice('sino_refresh='.length),
      refreshed.json().data.token,
      cookieNamed(refreshed.headers['set-cookie'], 'sino_refresh')?.split(';')[0],
    ]);
    return refreshed.json().data as {
      user: { _id: string; email: string; firstName: string | null; emailVerified: boolean };
      organizationId: string;
      environmentId: string;
    };
  }

  const tally = async (app: SinoTestApp) => ({
    users: (await app.db.select({ n: count() }).from(users))[0]!.n,
    identities: (await app.db.select({ n: count() }).from(userIdentities))[0]!.n,
    sessions: (await app.db.select({ n: count() }).from(consoleSessions))[0]!.n,
    organizations: (await app.db.select({ n: count() }).from(organizations))[0]!.n,
    members: (await app.db.select({ n: count() }).from(members))[0]!.n,
  });

  /** Refused: back to the sign-in page with `code`, nothing written, no session cookie. */
  async function expectRefused(
    app: SinoTestApp,
    code: string,
    attempt: () => Promise<Awaited<ReturnType<typeof callback>>>,
    /** The library's code for the check that failed, when it is one of openid-client's. */
    detail?: string,
  ) {
    const before = await tally(app);
    const logged = app.logs.length;
    const r = await attempt();
    expect(r.statusCode, r.body).toBe(302);
    expect(r.headers.location).toBe(`${PUBLIC_URL}/console/sign-in?error=${code}`);
    expect(cookieNamed(r.headers['set-cookie'], 'sino_refresh')).toBeUndefined();
    expect(await tally(app)).toEqual(before);
    const lines = app.logs.slice(logged).filter((l) => l.includes('console sign-in'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ reason: code, ...(detail && { detail }) });
  }

  const identityOf = async (app: SinoTestApp, provider: Provider, id: string) =>
    (
      await app.db
        .select()
        .from(userIdentities)
        .where(and(eq(userIdentities.provider, provider), eq(userIdentities.providerUserId, id)))
    )[0];

  const lastSignIn = async (app: SinoTestApp) =>
    (
      await app.db
        .select()
        .from(auditLog)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(1)
    )[0];

  describe('GET /v1/auth/providers', () => {
    it('lists the providers configured, and only those', async () => {
      const both = await t.api('GET', '/v1/auth/providers', { authorization: null });
      expect(both.statusCode).toBe(200);
      expect(both.json()).toEqual({
        data: [
          { id: 'github', name: 'GitHub' },
          { id: 'google', name: 'Google' },
        ],
      });
      const one = await closed.api('GET', '/v1/auth/providers', { authorization: null });
      expect(one.json()).toEqual({ data: [{ id: 'github', name: 'GitHub' }] });
    });

    it('answers 404 on the routes of a provider not configured', async () => {
      for (const url of ['/v1/auth/google', '/v1/auth/google/callback?code=x&state=y']) {
        const r = await closed.api('GET', url, { authorization: null });
        expect(r.statusCode, url).toBe(404);
        expect(r.headers['set-cookie']).toBeUndefined();
      }
    });
  });

  describe('GET /v1/auth/:provider', () => {
    it('redirects to the provider with PKCE (S256), state and, for Google, a nonce, in a signed short-lived cookie', async () => {
      const g = await start(t, 'github');
      expect(g.authorize.origin + g.authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
      const q = g.authorize.searchParams;
      expect(q.get('client_id')).toBe(GITHUB.clientId);
      expect(q.get('redirect_uri')).toBe(`${PUBLIC_URL}/v1/auth/github/callback`);
      expect(q.get('code_challenge_method')).toBe('S256');
      expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
      expect(g.setCookie).toMatch(/HttpOnly/i);
      expect(g.setCookie).toMatch(/SameSite=Lax/i);
      expect(g.setCookie).toMatch(/Path=\/v1\/auth\/github(;|$)/);
      expect(g.setCookie).toMatch(/Max-Age=600/);
      // The verifier is in the cookie, never in the URL.
      expect(g.authorize.href).not.toContain(decodeURIComponent(g.cookie).split('.')[0]!);

      const o = await start(t, 'google');
      expect(o.authorize.origin + o.authorize.pathname).toBe(`${google.url}/authorize`);
      expect(o.authorize.searchParams.get('scope')).toBe('openid email profile');
      expect(o.authorize.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
      expect(o.setCookie).toMatch(/Path=\/v1\/auth\/google(;|$)/);
    });
  });

  describe.each(['github', 'google'] as const)('signing in with %s', (provider) => {
    it('makes a new person, with their own organization, when sign-up is open', async () => {
      const who = person();
      const before = await tally(t);
      const data = await expectSignedIn(t, await signIn(t, provider, who));
      expect(data.user).toMatchObject({ email: who.email, firstName: 'Octo', emailVerified: true });
      expect(data.organizationId).not.toBe(t.credentials.organizationId);
      const after = await tally(t);
      expect(after.users).toBe(before.users + 1);
      expect(after.organizations).toBe(before.organizations + 1);
      expect((await identityOf(t, provider, who.id))?.userId).toBe(data.user._id);
      const [membership] = await t.db
        .select()
        .from(members)
        .where(eq(members.userId, data.user._id));
      expect(membership).toMatchObject({ organizationId: data.organizationId, role: 'admin' });
      expect(await lastSignIn(t)).toMatchObject({
        action: 'user.signed_in',
        actorId: data.user._id,
        details: { method: provider, signedUp: true },
      });

      // The same account again: the same person, nothing new.
      const again = await expectSignedIn(t, await signIn(t, provider, who));
      expect(again.user._id).toBe(data.user._id);
      expect(again.organizationId).toBe(data.organizationId);
      expect(await tally(t)).toMatchObject({ users: after.users, identities: after.identities });
    });

    it('links the account to the person with its verified address, in their organization', async () => {
      const who = person();
      const accounts = createAccountRepository(t.db);
      const existing = await accounts.createUser({
        email: who.email.toUpperCase(),
        firstName: 'Existing',
        status: 'active',
        emailVerifiedAt: new Date(),
      });
      await accounts.addMember(t.credentials.organizationId, existing.id, 'member');
      const before = await tally(t);
      const data = await expectSignedIn(t, await signIn(t, provider, who));
      expect(data.user._id).toBe(existing.id);
      expect(data.organizationId).toBe(t.credentials.organizationId);
      expect((await identityOf(t, provider, who.id))?.userId).toBe(existing.id);
      expect(await tally(t)).toMatchObject({
        users: before.users,
        organizations: before.organizations,
        identities: before.identities + 1,
      });
      expect(await lastSignIn(t)).toMatchObject({
        action: 'user.signed_in',
        organizationId: t.credentials.organizationId,
        details: { method: provider },
      });
    });

    it('refuses an address the provider has not verified', async () => {
      await expectRefused(t, 'email_unverified', () =>
        signIn(t, provider, person({ emailVerified: false })),
      );
    });

    it('refuses an answer whose state is not the one the flow started with', async () => {
      peerOf(provider).person = person();
      const started = await start(t, provider);
      const back = await atProvider(started.authorize);
      back.searchParams.set('state', 'someone-elses-state-0123456789');
      await expectRefused(t, 'oauth_state', () => callback(t, back, started.cookie));
    });

    it("refuses a callback without the flow's cookie, or with another flow's", async () => {
      peerOf(provider).person = person();
      const started = await start(t, provider);
      const back = await atProvider(started.authorize);
      await expectRefused(t, 'oauth_state', () => callback(t, back));
      const other = await start(t, provider);
      await expectRefused(t, 'oauth_state', () => callback(t, back, other.cookie));
    });

    it('goes back to the sign-in page when the person said no at the provider', async () => {
      const started = await start(t, provider);
      const back = new URL(`${PUBLIC_URL}/v1/auth/${provider}/callback`);
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('state', started.authorize.searchParams.get('state')!);
      await expectRefused(t, 'oauth_denied', () => callback(t, back, started.cookie));
    });

    it('refuses a flow cookie whose signature does not match', async () => {
      peerOf(provider).person = person();
      const started = await start(t, provider);
      const back = await atProvider(started.authorize);
      const [name, value] = started.cookie.split('=') as [string, string];
      const [payload] = decodeURIComponent(value).split('.');
      const forged = `${name}=${encodeURIComponent(`${payload}.${'A'.repeat(43)}`)}`;
      await expectRefused(t, 'oauth_state', () => callback(t, back, forged));
    });

    it('refuses when the verifier is not the challenge’s: the provider keeps the code', async () => {
      const peer = peerOf(provider);
      peer.person = person();
      const started = await start(t, provider);
      const back = await atProvider(started.authorize);
      // The flow as the server signed it, with another verifier, signed again with its key.
      const { cookieKeys, encode, decode } = t.app.sino.consoleSignIn;
      const signer = new Signer(cookieKeys, 'sha256');
      const value = decodeURIComponent(started.cookie.slice('sino_oauth='.length));
      const flow = decode(signer.unsign(value).value!)!;
      const tampered = signer.sign(encode({ ...flow, verifier: 'x'.repeat(64) }));
      const refusals = peer.refusals.length;
      await expectRefused(
        t,
        'oauth_failed',
        () => callback(t, back, `sino_oauth=${encodeURIComponent(tampered)}`),
        'OAUTH_RESPONSE_BODY_ERROR',
      );
      expect(peer.refusals.slice(refusals)).toEqual(['wrong verifier']);
    });

    it('refuses a flow older than ten minutes, whatever the browser kept', async () => {
      peerOf(provider).person = person();
      const started = await start(t, provider);
      const back = await atProvider(started.authorize);
      const { cookieKeys, encode, decode } = t.app.sino.consoleSignIn;
      const signer = new Signer(cookieKeys, 'sha256');
      const value = decodeURIComponent(started.cookie.slice('sino_oauth='.length));
      const flow = decode(signer.unsign(value).value!)!;
      const old = signer.sign(encode({ ...flow, at: flow.at - 10 * 60 * 1000 - 1 }));
      await expectRefused(t, 'oauth_state', () =>
        callback(t, back, `sino_oauth=${encodeURIComponent(old)}`),
      );
    });
  });

  describe('the peer', () => {
    it('refuses a code exchanged without a verifier, or with the wrong client secret', async () => {
      for (const peer of [github, google]) {
        peer.person = person();
        const provider: Provider = peer === github ? 'github' : 'google';
        const forms: Record<string, string>[] = [
          { client_secret: provider === 'github' ? GITHUB.clientSecret : GOOGLE.clientSecret },
          { client_secret: 'not-the-secret', code_verifier: 'y'.repeat(64) },
        ];
        for (const form of forms) {
          const started = await start(t, provider);
          const back = await atProvider(started.authorize);
          const res = await fetch(
            provider === 'github'
              ? `${github.url}/login/oauth/access_token`
              : `${google.url}/token`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({
                grant_type: 'authorization_code',
                code: back.searchParams.get('code')!,
                redirect_uri: `${PUBLIC_URL}/v1/auth/${provider}/callback`,
                client_id: provider === 'github' ? GITHUB.clientId : GOOGLE.clientId,
                ...form,
              }),
            },
          );
          expect(res.status).toBe(400);
        }
      }
      expect(github.refusals.slice(-2)).toEqual(['no verifier', 'client']);
      expect(google.refusals.slice(-2)).toEqual(['no verifier', 'client']);
    });
  });

  describe("Google's ID token", () => {
    const CLAIM = 'OAUTH_JWT_CLAIM_COMPARISON_FAILED';
    const refusedToken = async (
      detail: string,
      change: { claims?: (c: Record<string, unknown>) => Record<string, unknown>; stranger?: true },
    ) => {
      google.claims = change.claims;
      google.signWithStranger = change.stranger ?? false;
      await expectRefused(t, 'oauth_failed', () => signIn(t, 'google', person()), detail);
    };

    it('is refused for another audience', () =>
      refusedToken(CLAIM, { claims: (c) => ({ ...c, aud: 'another-client-id' }) }));

    it('is refused once expired', () => {
      const now = Math.floor(Date.now() / 1000);
      return refusedToken('OAUTH_JWT_TIMESTAMP_CHECK_FAILED', {
        claims: (c) => ({ ...c, iat: now - 7200, exp: now - 3600 }),
      });
    });

    // The signature is checked against the JWKS (openid-client's non-repudiation checks):
    // without them, this token would open a session.
    it('is refused when signed by a key the provider does not publish', () =>
      refusedToken('OAUTH_INVALID_RESPONSE', { stranger: true }));

    it('is refused with another nonce', () =>
      refusedToken(CLAIM, { claims: (c) => ({ ...c, nonce: 'not-the-flows-nonce-0123456789' }) }));

    it('is refused from another issuer', () =>
      refusedToken(CLAIM, { claims: (c) => ({ ...c, iss: 'https://accounts.evil.example' }) }));
  });

  describe('who may sign in', () => {
    it('refuses a person nobody knows when sign-up is by invitation', async () => {
      await expectRefused(closed, 'signup_closed', () => signIn(closed, 'github', person()));
    });

    it('refuses a person without an organization', async () => {
      const who = person();
      await createAccountRepository(t.db).createUser({
        email: who.email,
        status: 'active',
        emailVerifiedAt: new Date(),
      });
      await expectRefused(t, 'no_organization', () => signIn(t, 'google', who));
    });

    it('does not link an account whose address was never verified, nor sign in one not active', async () => {
      const accounts = createAccountRepository(t.db);
      const unverified = person();
      const user = await accounts.createUser({ email: unverified.email, status: 'active' });
      await accounts.addMember(t.credentials.organizationId, user.id, 'member');
      await expectRefused(t, 'account_unverified', () => signIn(t, 'github', unverified));
      const invited = person();
      const other = await accounts.createUser({
        email: invited.email,
        status: 'invited',
        emailVerifiedAt: new Date(),
      });
      await accounts.addMember(t.credentials.organizationId, other.id, 'member');
      await expectRefused(t, 'account_inactive', () => signIn(t, 'google', invited));
    });
  });

  it('logs no client secret, code, token nor address', () => {
    const logs = [...t.logs, ...closed.logs].join('\n');
    expect(logs).toContain('console sign-in refused');
    for (const secret of [
      GITHUB.clientSecret,
      GOOGLE.clientSecret,
      ...github.issued,
      ...google.issued,
      ...addresses,
    ])
      expect(logs).not.toContain(secret);
  });
});
