import cookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MEMBER_ROLES } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { errors, serverErrors } from '../../http/error-answers.js';
import { badRequest, unauthorized } from '../../errors.js';
import { actorOf } from '../audit/service.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './people.js';
import { clearRefresh, personOnly, sessionWire, signedInAnswer } from './session-answers.js';
import type { AccountToken } from './people-repository.js';

// Schemas are built inside the plugins: routes.ts and this file import each other.
const emailField = () =>
  z
    .string()
    .trim()
    .max(320)
    .pipe(z.email({ error: 'must be an email address' }));
const passwordField = () =>
  z
    .string()
    .min(PASSWORD_MIN_LENGTH, { error: `must have at least ${PASSWORD_MIN_LENGTH} characters` })
    .max(PASSWORD_MAX_LENGTH);
const nameField = () => z.string().trim().min(1).max(100);
/** A link's token: 32 random bytes, base64url (43 characters); anything else finds nothing. */
const tokenField = () => z.string().min(1).max(200);
const successWire = () => z.object({ data: z.object({ success: z.literal(true) }) });

const invitationWire = () =>
  z.object({
    _id: z.string(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    inviter: z.object({ _id: z.string().nullable(), firstName: z.string().nullable() }),
    createdAt: z.string(),
    expiresAt: z.string(),
  });
const invitationAnswer = (i: AccountToken, inviterFirstName: string | null) => ({
  _id: i.id,
  email: i.email,
  role: i.role ?? 'member',
  inviter: { _id: i.invitedBy, firstName: inviterFirstName },
  createdAt: i.createdAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
});

/**
 * Without credentials (registered inside `consoleAuthRoutes`, beside its cookie): an
 * invitation's accept page and its acceptance, sign-up, e-mail verification, password reset.
 */
export const consolePeopleRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, people } = ctx.services;
  const tags = ['Console'];
  const noStore = { 'cache-control': 'no-store' };

  /** A signed-in person accepting; `undefined` without credentials. */
  async function signedInPerson(request: FastifyRequest) {
    const header = request.headers.authorization;
    if (!header) return undefined;
    const [scheme, token] = header.split(' ');
    if (scheme !== 'Bearer' || !token) throw unauthorized('API endpoint not available');
    const context = await accounts.contextOf(token);
    if (context === undefined) throw unauthorized('API Key not found');
    if (context === null) throw unauthorized('Your session has ended: sign in again');
    return context.user;
  }

  r.get(
    '/invites/:inviteToken',
    {
      schema: {
        tags,
        summary: 'An invitation for its accept page: the organization, who invited, the address',
        params: z.object({ inviteToken: tokenField() }),
        response: {
          200: z.object({
            data: z.object({
              inviter: z.object({ firstName: z.string().nullable() }),
              organization: z.object({ _id: z.string(), name: z.string() }),
              email: z.string(),
            }),
          }),
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return { data: await people.invitation(request.params.inviteToken) };
    },
  );

  r.post(
    '/invites/:inviteToken/accept',
    {
      schema: {
        tags,
        summary:
          'Accepts an invitation: a new person (password and name), or the signed-in person it was sent to; answers a session',
        params: z.object({ inviteToken: tokenField() }),
        body: z
          .object({
            password: passwordField(),
            firstName: nameField(),
            lastName: nameField().optional(),
          })
          .nullish(),
        response: { 200: sessionWire, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const me = await signedInPerson(request);
      const body = request.body;
      if (!me && !body) throw badRequest('Give a password and a first name, or sign in first');
      const signedIn = await people.acceptInvitation(
        request.params.inviteToken,
        me ? { userId: me.id } : body!,
      );
      return signedInAnswer(request, reply, signedIn);
    },
  );

  r.post(
    '/auth/register',
    {
      schema: {
        tags,
        summary:
          'Sign-up (when the operator opens it, SINO_SIGNUP=open): a person with an organization of their own; answers a session',
        body: z.object({
          email: emailField(),
          password: passwordField(),
          firstName: nameField(),
          lastName: nameField().optional(),
          organizationName: nameField().optional(),
        }),
        response: { 201: sessionWire, ...errors(400, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const signedIn = await people.register({ ...request.body, address: request.ip });
      reply.code(201);
      return signedInAnswer(request, reply, signedIn);
    },
  );

  r.post(
    '/auth/verify-email',
    {
      schema: {
        tags,
        summary: "Confirms the person's e-mail address with the link's token",
        body: z.object({ token: tokenField() }),
        response: { 200: successWire(), ...errors(400, 404) },
      },
    },
    async (request) => {
      await people.verifyEmail(request.body.token);
      return { data: { success: true as const } };
    },
  );

  r.post(
    '/auth/reset/request',
    {
      schema: {
        tags,
        summary:
          'Mails a password reset link to the address if it has an account; answers the same either way',
        body: z.object({ email: emailField() }),
        response: { 200: successWire(), ...errors(400, 429) },
      },
    },
    async (request) => {
      await people.requestPasswordReset(request.body.email, request.ip);
      return { data: { success: true as const } };
    },
  );

  r.post(
    '/auth/reset',
    {
      schema: {
        tags,
        summary: "A new password with the reset link's token; every session of the account ends",
        body: z.object({ token: tokenField(), password: passwordField() }),
        response: { 200: successWire(), ...errors(400, 404) },
      },
    },
    async (request) => {
      await people.resetPassword(request.body.token, request.body.password);
      return { data: { success: true as const } };
    },
  );
};

/** Inside the server API (its guard has run): invitations for admins, the person's own. */
export const peopleRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { people } = ctx.services;
  const tags = ['Console'];
  // The erasure clears the browser's refresh cookie (its session is gone with the person).
  await app.register(cookie);

  r.post(
    '/invites',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary:
          'Invites an address to the organization with a role (admins); the link is e-mailed, or answered once when the installation has no mail',
        body: z.object({ email: emailField(), role: z.enum(MEMBER_ROLES).default('member') }),
        response: {
          201: z.object({
            data: z.object({
              success: z.literal(true),
              _id: z.string(),
              invitationLink: z.string().optional(),
            }),
          }),
          ...serverErrors(403, 502),
        },
      },
    },
    async (request, reply) => {
      const actor = personOnly(request);
      const made = await people.invite(
        { userId: actor.userId, organizationId: request.environment!.organizationId },
        request.body.email,
        request.body.role,
      );
      reply.code(201).header('cache-control', 'no-store');
      return {
        data: {
          success: true as const,
          _id: made.invitation.id,
          ...(made.invitationLink && { invitationLink: made.invitationLink }),
        },
      };
    },
  );

  r.get(
    '/invites',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: "The organization's pending invitations (admins)",
        response: { 200: z.object({ data: z.array(invitationWire()) }), ...serverErrors(403) },
      },
    },
    async (request) => {
      const pending = await people.pendingInvitations(request.environment!.organizationId);
      return { data: pending.map((p) => invitationAnswer(p.invitation, p.inviterFirstName)) };
    },
  );

  r.delete(
    '/invites/:invitationId',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: 'Revokes a pending invitation (admins): its link opens nothing after',
        params: z.object({ invitationId: z.string().max(100) }),
        response: { 200: z.object({ data: invitationWire() }), ...serverErrors(403, 404) },
      },
    },
    async (request) => {
      const revoked = await people.revokeInvitation(
        actorOf(request.actor!),
        request.environment!.organizationId,
        request.params.invitationId,
      );
      return { data: invitationAnswer(revoked, null) };
    },
  );

  r.post(
    '/auth/verify-email/resend',
    {
      schema: {
        tags,
        summary: 'Another verification mail for the signed-in person (at most one a minute)',
        response: { 200: successWire(), ...serverErrors(503) },
      },
    },
    async (request) => {
      await people.resendVerification(personOnly(request).userId);
      return { data: { success: true as const } };
    },
  );

  r.delete(
    '/users/me',
    {
      schema: {
        tags,
        summary:
          'Erases the signed-in person; refused (409) while they are the last admin of an organization with other members',
        response: { 204: z.null(), ...serverErrors() },
      },
    },
    async (request, reply) => {
      await people.erase(personOnly(request).userId);
      clearRefresh(request, reply);
      return reply.code(204).send(null);
    },
  );
};
