import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MEMBER_ROLES, USER_STATUSES } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Organization } from '../identity/repository.js';
import type { User } from '../accounts/repository.js';
import { actorOf } from '../audit/service.js';
import { brandingAnswer } from './schemas.js';

const organizationWire = z.object({
  _id: z.string(),
  name: z.string(),
  branding: brandingAnswer.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const organizationAnswer = (o: Organization) => ({
  _id: o.id,
  name: o.name,
  ...(o.branding && { branding: o.branding }),
  createdAt: o.createdAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
});

/**
 * A member as Novu 0.24 answers one (`MemberResponseDto`): `_id` is the member's, here the
 * person's own id (one membership per person and organization), `roles` holds their role.
 */
const memberWire = z.object({
  _id: z.string(),
  _userId: z.string(),
  _organizationId: z.string(),
  roles: z.array(z.enum(MEMBER_ROLES)),
  memberStatus: z.literal('active'),
  user: z.object({
    _id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string(),
    status: z.enum(USER_STATUSES),
  }),
});
const memberAnswer = (organizationId: string, m: { user: User; role: 'admin' | 'member' }) => ({
  _id: m.user.id,
  _userId: m.user.id,
  _organizationId: organizationId,
  roles: [m.role],
  memberStatus: 'active' as const,
  user: {
    _id: m.user.id,
    firstName: m.user.firstName,
    lastName: m.user.lastName,
    email: m.user.email,
    status: m.user.status,
  },
});

const nameBody = z.object({ name: z.string().trim().min(1).max(100) });
const memberParams = z.object({ memberId: z.string().max(100) });
const roleBody = z.object({ role: z.enum(MEMBER_ROLES) });

const organizationOf = (request: FastifyRequest) => request.environment!.organizationId;

/**
 * `/v1/organizations`: the caller's organizations, its own (`/me`), a new one, its name and its
 * members with their roles. Only admins rename, change roles and remove members; the last
 * admin is never demoted nor removed.
 */
export const organizationRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { identity, accounts, audit } = ctx.services;
  const tags = ['Organizations'];

  async function current(request: FastifyRequest) {
    const organization = await identity.organization(organizationOf(request));
    if (!organization) throw notFound('Organization not found');
    return organization;
  }

  r.get(
    '/organizations',
    {
      schema: {
        tags,
        summary: "A person's organizations; an API key's own",
        response: { 200: z.object({ data: z.array(organizationWire) }), ...serverErrors() },
      },
    },
    async (request) => {
      const actor = request.actor!;
      if (actor.type === 'api_key') return { data: [organizationAnswer(await current(request))] };
      const mine = await accounts.organizationsOf(actor.userId);
      return { data: mine.map((m) => organizationAnswer(m.organization)) };
    },
  );

  r.get(
    '/organizations/me',
    {
      schema: {
        tags,
        summary: 'The organization the caller works in',
        response: { 200: z.object({ data: organizationWire }), ...serverErrors(404) },
      },
    },
    async (request) => ({ data: organizationAnswer(await current(request)) }),
  );

  r.post(
    '/organizations',
    {
      schema: {
        tags,
        summary:
          "Creates an organization with Development and Production environments; its admin is the person signed in, or the API key's owner",
        body: nameBody.extend({ logo: z.string().max(2000).optional() }).loose(),
        response: { 201: z.object({ data: organizationWire }), ...serverErrors(403) },
      },
    },
    async (request, reply) => {
      const actor = request.actor!;
      // As in Novu, a key creates it for the person the key belongs to.
      const maker = actor.type === 'user' ? actor.userId : actor.ownerId;
      if (!maker)
        throw forbidden(
          'This API key belongs to no person: sign in to create an organization, or use a key an admin made',
        );
      const made = await identity.createOrganization(request.body.name, {
        requireSubscriberHash: true,
      });
      await accounts.addMember(made.organizationId, maker, 'admin');
      await accounts.claimOwnerlessKeys(made.organizationId, maker);
      const organization = await identity.organization(made.organizationId);
      return reply.code(201).send({ data: organizationAnswer(organization!) });
    },
  );

  r.patch(
    '/organizations',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: 'Renames the organization (admins)',
        body: nameBody,
        response: { 200: z.object({ data: z.object({ name: z.string() }) }), ...serverErrors(403) },
      },
    },
    async (request) => {
      const renamed = await identity.renameOrganization(organizationOf(request), request.body.name);
      if (!renamed) throw notFound('Organization not found');
      return { data: { name: renamed.name } };
    },
  );

  r.get(
    '/organizations/members',
    {
      schema: {
        tags,
        summary: "The organization's members and their roles",
        response: { 200: z.object({ data: z.array(memberWire) }), ...serverErrors() },
      },
    },
    async (request) => {
      const organizationId = organizationOf(request);
      const list = await accounts.membersOf(organizationId);
      return { data: list.map((m) => memberAnswer(organizationId, m)) };
    },
  );

  r.put(
    '/organizations/members/:memberId/roles',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: "Changes a member's role (admins); the last admin stays one (409)",
        params: memberParams,
        body: roleBody,
        response: { 200: z.object({ data: memberWire }), ...serverErrors(403, 404) },
      },
    },
    async (request) => {
      const organizationId = organizationOf(request);
      const { memberId } = request.params;
      const outcome = await accounts.setRole(organizationId, memberId, request.body.role);
      if (outcome === 'missing') throw notFound(`Member with id ${memberId} not found`);
      if (outcome === 'last-admin')
        throw conflict("The organization's last admin cannot stop being one: make another first");
      await audit.record({
        organizationId,
        actor: actorOf(request.actor!),
        action: 'member.role_changed',
        subject: { type: 'user', id: memberId },
        details: { role: request.body.role },
      });
      const member = (await accounts.membersOf(organizationId)).find((m) => m.user.id === memberId);
      return { data: memberAnswer(organizationId, member!) };
    },
  );

  r.delete(
    '/organizations/members/:memberId',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: 'Removes a member (admins); the last admin stays (409)',
        params: memberParams,
        response: { 200: z.object({ data: memberWire }), ...serverErrors(403, 404) },
      },
    },
    async (request) => {
      const organizationId = organizationOf(request);
      const { memberId } = request.params;
      const member = (await accounts.membersOf(organizationId)).find((m) => m.user.id === memberId);
      const outcome = await accounts.removeMember(organizationId, memberId);
      if (outcome === 'missing' || !member) throw notFound(`Member with id ${memberId} not found`);
      if (outcome === 'last-admin')
        throw conflict("The organization's last admin cannot be removed: make another first");
      await audit.record({
        organizationId,
        actor: actorOf(request.actor!),
        action: 'member.removed',
        subject: { type: 'user', id: memberId },
      });
      return { data: memberAnswer(organizationId, member) };
    },
  );
};
