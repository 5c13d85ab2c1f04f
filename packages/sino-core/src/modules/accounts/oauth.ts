import { createHmac, timingSafeEqual } from 'node:crypto';
import type * as Client from 'openid-client';
import { z } from 'zod';
import { IDENTITY_PROVIDERS, type IdentityProvider } from '@sino/shared';
import {
  SignInRefused,
  type AccountService,
  type SignedIn,
  type SignInRefusal,
  type VerifiedIdentity,
} from './service.js';

/** An OAuth app at GitHub (SINO_GITHUB_*); GitHub Enterprise Server through its two URLs. */
export interface GitHubSignInOptions {
  clientId: string;
  clientSecret: string;
  /** Where people sign in: `https://github.com` when absent. */
  url?: string | undefined;
  /** The REST API: `https://api.github.com` when absent. */
  apiUrl?: string | undefined;
}

/** An OAuth client at Google, or another OpenID provider (SINO_GOOGLE_*). */
export interface GoogleSignInOptions {
  clientId: string;
  clientSecret: string;
  /** Discovered through `<issuer>/.well-known/openid-configuration`; Google's when absent. */
  issuer?: string | undefined;
}

/** Sign-in with GitHub and Google (decision 049); a provider absent is not offered. */
export interface ConsoleSignInOptions {
  /** Where browsers reach the server (SINO_PUBLIC_URL): redirect URIs and the console. */
  publicUrl?: string | undefined;
  github?: GitHubSignInOptions | undefined;
  google?: GoogleSignInOptions | undefined;
  /** Longest wait for a provider's answer; 10 s when absent. */
  timeoutMs?: number | undefined;
}

export const PROVIDER_NAMES: Record<IdentityProvider, string> = {
  github: 'GitHub',
  google: 'Google',
};

/** How long a sign-in may take between its start and its callback. */
export const FLOW_SECONDS = 10 * 60;

/** What a sign-in keeps in the browser (a signed cookie) from its start to its callback. */
export interface SignInFlow {
  provider: IdentityProvider;
  state: string;
  verifier: string;
  nonce?: string | undefined;
  /** When it started (ms): the signed value ends with the cookie, whatever a client keeps. */
  at: number;
}

const flowWire = z.object({
  provider: z.enum(IDENTITY_PROVIDERS),
  state: z.string().min(1).max(200),
  verifier: z.string().min(43).max(128),
  nonce: z.string().min(1).max(200).optional(),
  at: z.number().int(),
});

/** Why a sign-in with GitHub or Google failed: the console shows the code. */
export type SignInFailureCode =
  'oauth_state' | 'oauth_denied' | 'oauth_failed' | 'email_unverified' | SignInRefusal;

export class SignInFailure extends Error {
  constructor(
    readonly code: SignInFailureCode,
    /** A library's error code (never its message, which may quote claims or answers). */
    readonly detail?: string | undefined,
  ) {
    super(`sign-in failed: ${code}`);
    this.name = 'SignInFailure';
  }
}

const githubUser = z.object({
  id: z.number().int(),
  login: z.string().min(1).max(100),
  name: z.string().max(200).nullish(),
});
const githubEmails = z.array(
  z.object({ email: z.string().max(320), primary: z.boolean(), verified: z.boolean() }),
);
const email = z.email().max(320);

const same = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The library's code for what went wrong (`OAUTH_JWT_CLAIM_COMPARISON_FAILED`), if any. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,80}$/.test(code) ? code : undefined;
}

/**
 * The console's sign-in with GitHub (OAuth 2.0) and Google (OpenID Connect): authorization
 * code with PKCE (S256) and state, and for Google a nonce and an ID token checked against the
 * provider's keys (`openid-client`). The person is found, linked or made by the account
 * service (`signInWith`).
 */
export function createConsoleSignIn(deps: {
  options?: ConsoleSignInOptions | undefined;
  accounts: Pick<AccountService, 'signInWith'>;
  /** The server's token keys (current first): the flow's cookie is signed with keys drawn from them. */
  secrets: { current: string; previous?: readonly string[] | undefined };
}) {
  const options = deps.options ?? {};
  const configured = IDENTITY_PROVIDERS.filter((p) => options[p] !== undefined);
  const base = options.publicUrl?.replace(/\/+$/, '');
  if (configured.length > 0 && !base)
    throw new Error(
      'Sign-in with GitHub or Google needs the public URL (SINO_PUBLIC_URL): the providers send people back to it',
    );
  const timeout = Math.ceil((options.timeoutMs ?? 10_000) / 1000);
  // A key of its own for the cookie, drawn from each token key: a rotation keeps the flows
  // started before it, and no token key signs anything else as it is.
  const cookieKeys = [deps.secrets.current, ...(deps.secrets.previous ?? [])].map((secret) =>
    createHmac('sha256', secret).update('sino console sign-in flow').digest('base64url'),
  );

  // Loaded at the first sign-in: a server without providers never loads it, and no start waits.
  let library: Promise<typeof Client> | undefined;
  const openidClient = () => (library ??= import('openid-client'));

  const insecure = (...urls: string[]) => urls.some((u) => new URL(u).protocol === 'http:');

  const githubApi = (options.github?.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  // GitHub publishes no metadata: its endpoints, written down.
  let github: Promise<Client.Configuration> | undefined;
  const githubConfiguration = () =>
    (github ??= openidClient().then((client) => {
      const { clientId, clientSecret } = options.github!;
      const url = (options.github!.url ?? 'https://github.com').replace(/\/+$/, '');
      const config = new client.Configuration(
        {
          issuer: url,
          authorization_endpoint: `${url}/login/oauth/authorize`,
          token_endpoint: `${url}/login/oauth/access_token`,
        },
        clientId,
        undefined,
        client.ClientSecretPost(clientSecret),
      );
      config.timeout = timeout;
      if (insecure(url, githubApi)) client.allowInsecureRequests(config);
      return config;
    }));

  // Google's metadata and keys are read at the first sign-in, not at start; a failed read is
  // tried again at the next.
  let google: Promise<Client.Configuration> | undefined;
  const googleConfiguration = () => {
    const settings = options.google!;
    const issuer = settings.issuer ?? 'https://accounts.google.com';
    google ??= openidClient()
      .then((client) =>
        client.discovery(
          new URL(issuer),
          settings.clientId,
          undefined,
          client.ClientSecretPost(settings.clientSecret),
          {
            execute: [
              ...(insecure(issuer) ? [client.allowInsecureRequests] : []),
              // The ID token's signature is checked against the provider's published keys.
              client.enableNonRepudiationChecks,
            ],
            timeout,
          },
        ),
      )
      .then((config) => {
        config.timeout = timeout;
        return config;
      })
      .catch((error: unknown) => {
        google = undefined;
        throw new SignInFailure('oauth_failed', codeOf(error) ?? 'DISCOVERY_FAILED');
      });
    return google;
  };

  const redirectUri = (provider: IdentityProvider) => `${base}/v1/auth/${provider}/callback`;

  async function githubIdentity(
    client: typeof Client,
    config: Client.Configuration,
    tokens: Client.TokenEndpointResponse,
  ): Promise<VerifiedIdentity> {
    const read = async (path: string) => {
      const response = await client.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(`${githubApi}${path}`),
        'GET',
        undefined,
        new Headers({ accept: 'application/vnd.github+json' }),
      );
      if (!response.ok) throw new SignInFailure('oauth_failed', `GITHUB_API_${response.status}`);
      return response.json() as Promise<unknown>;
    };
    const user = githubUser.safeParse(await read('/user'));
    const emails = githubEmails.safeParse(await read('/user/emails'));
    if (!user.success || !emails.success)
      throw new SignInFailure('oauth_failed', 'GITHUB_API_ANSWER');
    const primary = emails.data.find((e) => e.primary && e.verified);
    if (!primary || !email.safeParse(primary.email).success)
      throw new SignInFailure('email_unverified');
    const [firstName, ...rest] = (user.data.name ?? '').trim().split(/\s+/);
    return {
      provider: 'github',
      providerUserId: String(user.data.id),
      email: primary.email,
      firstName: firstName || user.data.login,
      lastName: rest.join(' ') || null,
      displayName: user.data.name?.trim() || user.data.login,
    };
  }

  function googleIdentity(tokens: Client.TokenEndpointResponseHelpers): VerifiedIdentity {
    const claims = tokens.claims();
    if (!claims) throw new SignInFailure('oauth_failed', 'NO_ID_TOKEN');
    if (claims.email_verified !== true) throw new SignInFailure('email_unverified');
    const address = email.safeParse(claims.email);
    if (!address.success) throw new SignInFailure('email_unverified');
    const text = (v: unknown) =>
      typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null;
    const firstName = text(claims.given_name);
    return {
      provider: 'google',
      providerUserId: claims.sub,
      email: address.data,
      firstName,
      lastName: text(claims.family_name),
      displayName: text(claims.name) ?? firstName ?? address.data.split('@')[0]!,
    };
  }

  return {
    /** The providers an operator configured, for the console's sign-in page. */
    providers: () => configured.map((id) => ({ id, name: PROVIDER_NAMES[id] })),
    configured: (provider: string): provider is IdentityProvider =>
      (configured as string[]).includes(provider),
    /** The keys that sign the flow's cookie (HMAC-SHA256), the current one first. */
    cookieKeys,
    /** Where the console lives; a sign-in's outcome is told there. */
    consoleUrl: (path = '') => `${base}/console/${path}`,

    /** The provider's authorize URL, and what the callback will need to check its answer. */
    async start(provider: IdentityProvider): Promise<{ url: URL; flow: SignInFlow }> {
      const client = await openidClient();
      const config =
        provider === 'github' ? await githubConfiguration() : await googleConfiguration();
      const verifier = client.randomPKCECodeVerifier();
      const flow: SignInFlow = {
        provider,
        state: client.randomState(),
        verifier,
        ...(provider === 'google' && { nonce: client.randomNonce() }),
        at: Date.now(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(provider),
        scope: provider === 'github' ? 'read:user user:email' : 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        ...(flow.nonce && { nonce: flow.nonce }),
      });
      return { url, flow };
    },

    /** The flow's cookie value (signed by the caller), and back. */
    encode: (flow: SignInFlow) => Buffer.from(JSON.stringify(flow)).toString('base64url'),
    decode(value: string): SignInFlow | undefined {
      try {
        const parsed = flowWire.safeParse(
          JSON.parse(Buffer.from(value, 'base64url').toString('utf8')),
        );
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },

    /**
     * The provider's answer at the callback, checked against the flow its start kept: the
     * code exchanged with the PKCE verifier, the person found (or made), a session opened.
     */
    async finish(
      provider: IdentityProvider,
      query: URLSearchParams,
      flow: SignInFlow | undefined,
    ): Promise<SignedIn> {
      const state = query.get('state');
      if (
        !flow ||
        flow.provider !== provider ||
        (provider === 'google' && !flow.nonce) ||
        !(Date.now() - flow.at <= FLOW_SECONDS * 1000) ||
        !state ||
        !same(state, flow.state)
      )
        throw new SignInFailure('oauth_state');
      const error = query.get('error');
      if (error)
        throw new SignInFailure(
          error === 'access_denied' ? 'oauth_denied' : 'oauth_failed',
          'PROVIDER_ERROR',
        );
      const client = await openidClient();
      const config =
        provider === 'github' ? await githubConfiguration() : await googleConfiguration();
      // The callback's URL as the provider was told it, whatever Host the request came with.
      const currentUrl = new URL(redirectUri(provider));
      currentUrl.search = query.toString();
      let identity: VerifiedIdentity;
      try {
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          ...(provider === 'google' && { expectedNonce: flow.nonce!, idTokenExpected: true }),
        });
        identity =
          provider === 'github'
            ? await githubIdentity(client, config, tokens)
            : googleIdentity(tokens);
      } catch (error) {
        if (error instanceof SignInFailure) throw error;
        throw new SignInFailure('oauth_failed', codeOf(error) ?? 'TOKEN_EXCHANGE');
      }
      try {
        return await deps.accounts.signInWith(identity);
      } catch (error) {
        if (error instanceof SignInRefused) throw new SignInFailure(error.code);
        throw error;
      }
    },
  };
}

export type ConsoleSignIn = ReturnType<typeof createConsoleSignIn>;
