import cookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MEMBER_ROLES } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { errors, serverErrors } from '../../http/error-answers.js';
import { unauthorized } from '../../errors.js';
import { consolePeopleRoutes } from './people-routes.js';
import {
  clearRefresh,
  personOnly,
  sessionWire,
  REFRESH_COOKIE,
  signedInAnswer,
  userAnswer,
  userWire,
} from './session-answers.js';

const tokenWire = z.object({ data: z.object({ token: z.string() }) });

const loginBody = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .pipe(z.email({ error: 'must be an email address' })),
  password: z.string().min(1).max(1000),
});

/**
 * The console's sign-in (`/v1/auth/login`, `/refresh`, `/logout`): no credentials needed.
 * Registered apart from the server API's key guard.
 */
export const consoleAuthRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  await app.register(cookie);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts } = ctx.services;
  const answer = signedInAnswer;

  r.post(
    '/auth/login',
    {
      schema: {
        tags: ['Console'],
        summary:
          'Signs a person in with e-mail and password: a 15-minute access token, and the refresh cookie',
        body: loginBody,
        response: { 200: sessionWire, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) =>
      answer(
        request,
        reply,
        await accounts.signIn({
          email: request.body.email,
          password: request.body.password,
          address: request.ip,
        }),
      ),
  );

  r.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['Console'],
        summary: 'A new access token for the refresh cookie, which is replaced',
        response: { 200: sessionWire, ...errors(401) },
      },
    },
    async (request, reply) => {
      const refreshToken = request.cookies[REFRESH_COOKIE];
      if (!refreshToken) throw unauthorized('Your session has ended: sign in again');
      try {
        return answer(request, reply, await accounts.refresh(refreshToken));
      } catch (error) {
        clearRefresh(request, reply);
        throw error;
      }
    },
  );

  r.post(
    '/auth/logout',
    {
      schema: {
        tags: ['Console'],
        summary: 'Ends the session of the refresh cookie; its access tokens stop at once',
        response: { 204: z.null(), ...errors(401) },
      },
    },
    async (request, reply) => {
      const refreshToken = request.cookies[REFRESH_COOKIE];
      if (refreshToken) await accounts.signOut(refreshToken);
      clearRefresh(request, reply);
      return reply.code(204).send(null);
    },
  );
  // Invitations' accept page, sign-up, verification and reset: no credentials either.
  await app.register(consolePeopleRoutes, ctx);
};

/** The signed-in person's own routes, inside the server API (its guard has run). */
export const consolePersonRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts } = ctx.services;

  r.get(
    '/users/me',
    {
      schema: {
        tags: ['Console'],
        summary: 'The person signed in, their organizations and where they work now',
        response: {
          200: z.object({
            data: userWire.extend({
              organizationId: z.string(),
              environmentId: z.string(),
              role: z.enum(MEMBER_ROLES),
              organizations: z.array(
                z.object({ _id: z.string(), name: z.string(), role: z.enum(MEMBER_ROLES) }),
              ),
            }),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const actor = personOnly(request);
      const user = await accounts.userOf(actor.userId);
      const organizations = await accounts.organizationsOf(actor.userId);
      return {
        data: {
          ...userAnswer(user),
          organizationId: request.environment!.organizationId,
          environmentId: request.environment!.id,
          role: actor.role,
          organizations: organizations.map((o) => ({
            _id: o.organization.id,
            name: o.organization.name,
            role: o.role,
          })),
        },
      };
    },
  );

  r.post(
    '/auth/environments/:environmentId/switch',
    {
      schema: {
        tags: ['Console'],
        summary: "An access token for another of the organization's environments",
        params: z.object({ environmentId: z.string().max(100) }),
        response: { 200: tokenWire, ...serverErrors(404) },
      },
    },
    async (request) => {
      const actor = personOnly(request);
      const session = { ...actor, organizationId: request.environment!.organizationId };
      return {
        data: { token: await accounts.switchEnvironment(session, request.params.environmentId) },
      };
    },
  );

  r.post(
    '/auth/organizations/:organizationId/switch',
    {
      schema: {
        tags: ['Console'],
        summary: 'An access token for another organization the person belongs to',
        params: z.object({ organizationId: z.string().max(100) }),
        response: { 200: tokenWire, ...serverErrors(404) },
      },
    },
    async (request) => {
      const actor = personOnly(request);
      const session = { ...actor, organizationId: request.environment!.organizationId };
      return {
        data: {
          token: await accounts.switchOrganization(session, request.params.organizationId),
        },
      };
    },
  );
};
