import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK } from 'jose/key/export';
import { generateKeyPair } from 'jose/key/generate/keypair';
import { SignJWT } from 'jose/jwt/sign';

/** A person as the identity provider knows them. */
export interface ProviderPerson {
  /** GitHub's numeric id, Google's `sub`. */
  id: string;
  login?: string;
  name?: string;
  email: string;
  emailVerified: boolean;
}

interface Grant {
  person: ProviderPerson;
  redirectUri: string;
  challenge: string;
  nonce: string | undefined;
}

/**
 * A local identity provider, a real peer over HTTP, in one of two shapes:
 *
 * - `oidc` (Google): discovery, JWKS, `/authorize` and `/token`, the ID token signed RS256;
 * - `github`: `/login/oauth/authorize`, `/login/oauth/access_token` and the REST API's
 *   `/api/user` and `/api/user/emails`.
 *
 * Like the real ones it checks what a client sends: the client id and secret, the redirect
 * URI, S256 PKCE (a code is exchanged only with the verifier of its challenge), each code once.
 * `/authorize` signs in `person` at once and redirects back with the code and the state.
 */
export async function startIdentityProvider(options: {
  shape: 'oidc' | 'github';
  clientId: string;
  clientSecret: string;
}) {
  const keys = await generateKeyPair('RS256', { extractable: true });
  // A key the JWKS does not publish: what it signs must be refused.
  const stranger = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, ProviderPerson>();
  const issued: string[] = [];
  const peer = {
    url: '',
    /** Who the next `/authorize` signs in. */
    person: undefined as ProviderPerson | undefined,
    /** Changes the next ID token's claims (once). */
    claims: undefined as ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined,
    /** Signs the next ID token with a key the JWKS does not publish (once). */
    signWithStranger: false,
    /** Token requests refused, and why (the test's evidence the peer checked). */
    refusals: [] as string[],
    /** Every code, access token and ID token it gave out (the run's secrets). */
    issued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const readForm = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  };
  const secret = () => randomBytes(24).toString('base64url');

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    if (
      q.get('client_id') !== options.clientId ||
      !redirectUri ||
      q.get('response_type') !== 'code' ||
      q.get('code_challenge_method') !== 'S256' ||
      !q.get('code_challenge') ||
      !peer.person
    )
      return json(res, 400, { error: 'invalid_request' });
    const code = secret();
    issued.push(code);
    grants.set(code, {
      person: peer.person,
      redirectUri,
      challenge: q.get('code_challenge')!,
      nonce: q.get('nonce') ?? undefined,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    if (q.get('state')) back.searchParams.set('state', q.get('state')!);
    res.writeHead(302, { location: back.href }).end();
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    const refuse = (why: string) => {
      peer.refusals.push(why);
      return json(res, 400, { error: 'invalid_grant' });
    };
    if (
      form.get('client_id') !== options.clientId ||
      form.get('client_secret') !== options.clientSecret
    )
      return refuse('client');
    if (form.get('grant_type') !== 'authorization_code') return refuse('grant_type');
    const grant = grants.get(form.get('code') ?? '');
    grants.delete(form.get('code') ?? '');
    if (!grant) return refuse('code');
    if (form.get('redirect_uri') !== grant.redirectUri) return refuse('redirect_uri');
    const verifier = form.get('code_verifier');
    if (!verifier) return refuse('no verifier');
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
      return refuse('wrong verifier');
    const accessToken = secret();
    issued.push(accessToken);
    accessTokens.set(accessToken, grant.person);
    if (options.shape === 'github')
      return json(res, 200, {
        access_token: accessToken,
        token_type: 'bearer',
        scope: 'read:user,user:email',
      });
    const now = Math.floor(Date.now() / 1000);
    let claims: Record<string, unknown> = {
      iss: peer.url,
      aud: options.clientId,
      sub: grant.person.id,
      email: grant.person.email,
      email_verified: grant.person.emailVerified,
      name: grant.person.name,
      given_name: grant.person.name?.split(' ')[0],
      family_name: grant.person.name?.split(' ').slice(1).join(' '),
      iat: now,
      exp: now + 3600,
      ...(grant.nonce && { nonce: grant.nonce }),
    };
    if (peer.claims) claims = peer.claims(claims);
    peer.claims = undefined;
    const signer = peer.signWithStranger ? stranger.privateKey : keys.privateKey;
    peer.signWithStranger = false;
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1', typ: 'JWT' })
      .sign(signer);
    issued.push(idToken);
    return json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid email profile',
      id_token: idToken,
    });
  }

  function api(req: IncomingMessage, url: URL, res: ServerResponse) {
    const person = accessTokens.get(
      /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '',
    );
    if (!person) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/api/user')
      return json(res, 200, {
        id: Number(person.id),
        login: person.login,
        name: person.name ?? null,
      });
    return json(res, 200, [
      { email: `old.${person.email}`, primary: false, verified: true, visibility: null },
      { email: person.email, primary: true, verified: person.emailVerified, visibility: 'private' },
    ]);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', peer.url);
    const route = `${req.method} ${url.pathname}`;
    void (async () => {
      if (options.shape === 'oidc') {
        if (route === 'GET /.well-known/openid-configuration')
          return json(res, 200, {
            issuer: peer.url,
            authorization_endpoint: `${peer.url}/authorize`,
            token_endpoint: `${peer.url}/token`,
            jwks_uri: `${peer.url}/jwks`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
          });
        if (route === 'GET /jwks') return json(res, 200, { keys: [jwk] });
        if (route === 'GET /authorize') return authorize(url, res);
        if (route === 'POST /token') return token(req, res);
      } else {
        if (route === 'GET /login/oauth/authorize') return authorize(url, res);
        if (route === 'POST /login/oauth/access_token') return token(req, res);
        if (route === 'GET /api/user' || route === 'GET /api/user/emails')
          return api(req, url, res);
      }
      json(res, 404, { error: 'not_found' });
    })().catch(() => json(res, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return peer;
}

export type IdentityProviderPeer = Awaited<ReturnType<typeof startIdentityProvider>>;
