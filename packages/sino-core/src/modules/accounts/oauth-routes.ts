import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IDENTITY_PROVIDERS, type IdentityProvider } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { errors } from '../../http/error-answers.js';
import { notFound } from '../../errors.js';
import { FLOW_SECONDS, SignInFailure, type SignInFlow } from './oauth.js';
import { setRefresh } from './session-answers.js';

/** The flow's cookie: state, PKCE verifier and nonce, signed, for the provider's routes only. */
const FLOW_COOKIE = 'sino_oauth';

const redirect = z.null().describe('A redirect (Location): to the provider, or to the console');

/**
 * Sign-in with GitHub and Google (`/v1/auth/providers`, `/v1/auth/<provider>` and its
 * `/callback`), beside the password sign-in: no credentials needed (decision 049).
 */
export const consoleSignInRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const signIn = ctx.services.consoleSignIn;
  // Signed with the first key, checked with each (a rotation keeps the flows under way).
  await app.register(cookie, { secret: signIn.cookieKeys });
  const r = app.withTypeProvider<ZodTypeProvider>();

  const flowCookie = (request: FastifyRequest, provider: IdentityProvider) => ({
    httpOnly: true,
    // The provider sends the browser back with a top-level GET from its own site: Strict
    // would leave the cookie behind.
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    path: `/v1/auth/${provider}`,
    signed: true,
  });

  const configured = (provider: IdentityProvider) => {
    if (!signIn.configured(provider))
      throw notFound(`Sign-in with ${provider} is not configured on this server`);
  };

  r.get(
    '/auth/providers',
    {
      schema: {
        tags: ['Console'],
        summary: 'The providers people may sign in with besides a password (GitHub, Google)',
        response: {
          200: z.object({
            data: z.array(z.object({ id: z.enum(IDENTITY_PROVIDERS), name: z.string() })),
          }),
        },
      },
    },
    async () => ({ data: signIn.providers() }),
  );

  for (const provider of IDENTITY_PROVIDERS) {
    r.get(
      `/auth/${provider}`,
      {
        schema: {
          tags: ['Console'],
          summary: `Starts a sign-in with ${provider === 'github' ? 'GitHub' : 'Google'}: a redirect to its authorization page`,
          response: { 302: redirect, ...errors(404) },
        },
      },
      async (request, reply) => {
        configured(provider);
        let started: Awaited<ReturnType<typeof signIn.start>>;
        try {
          started = await signIn.start(provider);
        } catch (error) {
          return failed(request, reply, provider, error);
        }
        const { url, flow } = started;
        reply.setCookie(FLOW_COOKIE, signIn.encode(flow), {
          ...flowCookie(request, provider),
          maxAge: FLOW_SECONDS,
        });
        reply.header('cache-control', 'no-store');
        return reply.redirect(url.href, 302);
      },
    );

    r.get(
      `/auth/${provider}/callback`,
      {
        schema: {
          tags: ['Console'],
          summary: `Where ${provider === 'github' ? 'GitHub' : 'Google'} sends people back: opens a session (the refresh cookie) and redirects to the console`,
          response: { 302: redirect, ...errors(404) },
        },
      },
      async (request, reply) => {
        configured(provider);
        reply.header('cache-control', 'no-store');
        // Used once, whatever happens next.
        reply.clearCookie(FLOW_COOKIE, flowCookie(request, provider));
        const flow = flowOf(request);
        const query = new URL(request.url, 'http://callback').searchParams;
        try {
          const signedIn = await signIn.finish(provider, query, flow);
          setRefresh(request, reply, signedIn.refreshToken);
          // The console asks /v1/auth/refresh for its access token: none travels in a URL.
          return reply.redirect(signIn.consoleUrl(), 302);
        } catch (error) {
          return failed(request, reply, provider, error);
        }
      },
    );
  }

  function flowOf(request: FastifyRequest): SignInFlow | undefined {
    const raw = request.cookies[FLOW_COOKIE];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value !== null ? signIn.decode(unsigned.value) : undefined;
  }

  /**
   * Back to the console's sign-in page with a short code, and one log line: neither the code,
   * the tokens nor the person's address, only what failed and why.
   */
  function failed(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: IdentityProvider,
    error: unknown,
  ) {
    if (error instanceof SignInFailure)
      request.log.warn(
        { provider, reason: error.code, ...(error.detail && { detail: error.detail }) },
        'console sign-in refused',
      );
    else request.log.error({ provider, err: error }, 'console sign-in failed');
    const code = error instanceof SignInFailure ? error.code : 'oauth_failed';
    return reply.redirect(signIn.consoleUrl(`sign-in?error=${encodeURIComponent(code)}`), 302);
  }
};
