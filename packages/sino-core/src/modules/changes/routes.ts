import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { actingEnvironment } from '../../http/acting.js';
import { serverErrors } from '../../http/error-answers.js';
import { actorOf } from '../audit/service.js';
import type { Change } from './repository.js';

const tags = ['Changes'];
const CHANGE_TYPES = ['NotificationTemplate', 'NotificationGroup', 'Layout', 'Feed'] as const;

const changeAnswer = z.object({
  _id: z.string(),
  _creatorId: z.string().nullable(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _entityId: z.string(),
  enabled: z.boolean(),
  type: z.enum(CHANGE_TYPES),
  change: z
    .array(z.record(z.string(), z.unknown()))
    .describe("Novu's difference, from Production's state to Development's"),
  createdAt: z.string(),
  updatedAt: z.string(),
  templateName: z.string().optional(),
  templateId: z.string().optional(),
  appliedAt: z.string().nullable().describe('Beyond Novu: when it was promoted'),
  _appliedBy: z.string().nullable(),
  rolledBackAt: z.string().nullable().describe('Beyond Novu: when the promotion was rolled back'),
});
const changeIdParams = z.object({ changeId: z.string().min(1).max(100) });

/** Promotion from Development to Production (Novu's `/v1/changes`, decision 052). */
export const changeRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { changes, audit } = ctx.services;
  const author = (request: FastifyRequest) => ({
    userId: actingEnvironment(request).actorId ?? null,
  });

  async function answer(request: FastifyRequest, c: Change): Promise<z.infer<typeof changeAnswer>> {
    const name = await changes.nameOf(request.environment!, c);
    return {
      _id: c.id,
      _creatorId: c.creatorId,
      _environmentId: c.environmentId,
      _organizationId: c.organizationId,
      _entityId: c.entityId,
      enabled: c.enabled,
      type: c.entityType,
      change: c.diff as Record<string, unknown>[],
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      ...(name !== undefined && { templateName: name }),
      ...(c.entityType === 'NotificationTemplate' && { templateId: c.entityId }),
      appliedAt: c.appliedAt?.toISOString() ?? null,
      _appliedBy: c.appliedBy,
      rolledBackAt: c.rolledBackAt?.toISOString() ?? null,
    };
  }

  async function promoted(request: FastifyRequest, c: Change) {
    await audit.record({
      organizationId: c.organizationId,
      environmentId: c.environmentId,
      actor: actorOf(request.actor!),
      action: 'change.promoted',
      subject: { type: c.entityType, id: c.entityId },
      details: { changeId: c.id },
    });
  }

  r.get(
    '/changes',
    {
      schema: {
        tags,
        summary: 'Pending changes (promoted=false) or promoted ones, newest first',
        querystring: z.object({
          promoted: z.enum(['true', 'false']).default('false'),
          page: z.coerce.number().int().min(0).max(10_000).default(0),
          limit: z.coerce.number().int().min(1).max(100).default(10),
        }),
        response: {
          200: z.object({
            data: z.array(changeAnswer),
            totalCount: z.number(),
            page: z.number(),
            pageSize: z.number(),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { promoted: p, page, limit } = request.query;
      const { items, totalCount } = await changes.list(
        request.environment!,
        p === 'true',
        page,
        limit,
      );
      const data = [];
      for (const c of items) data.push(await answer(request, c));
      return { data, totalCount, page, pageSize: limit };
    },
  );

  r.get(
    '/changes/count',
    {
      schema: {
        tags,
        summary: 'How many changes wait to be promoted',
        response: { 200: z.object({ data: z.number() }), ...serverErrors() },
      },
    },
    async (request) => ({ data: await changes.count(request.environment!) }),
  );

  r.post(
    '/changes/bulk/apply',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: 'Promotes the changes named to Production, oldest first (admins)',
        body: z.object({ changeIds: z.array(z.string().min(1).max(100)).min(1).max(500) }),
        response: {
          201: z.object({ data: z.array(z.array(changeAnswer)) }),
          ...serverErrors(403, 404),
        },
      },
    },
    async (request, reply) => {
      const applied = await changes.applyMany(
        request.environment!,
        request.body.changeIds,
        author(request),
      );
      const data = [];
      for (const c of applied) {
        await promoted(request, c);
        data.push([await answer(request, c)]);
      }
      return reply.code(201).send({ data });
    },
  );

  r.post(
    '/changes/:changeId/apply',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: 'Promotes one change to Production (admins)',
        params: changeIdParams,
        response: { 201: z.object({ data: z.array(changeAnswer) }), ...serverErrors(403, 404) },
      },
    },
    async (request, reply) => {
      const c = await changes.apply(request.environment!, request.params.changeId, author(request));
      await promoted(request, c);
      return reply.code(201).send({ data: [await answer(request, c)] });
    },
  );

  r.post(
    '/changes/:changeId/rollback',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary:
          "Beyond Novu: puts back Production's state from before this promotion (admins; the latest promotion of its entity only)",
        params: changeIdParams,
        response: { 201: z.object({ data: changeAnswer }), ...serverErrors(403, 404) },
      },
    },
    async (request, reply) => {
      const c = await changes.rollback(
        request.environment!,
        request.params.changeId,
        author(request),
      );
      await audit.record({
        organizationId: c.organizationId,
        environmentId: c.environmentId,
        actor: actorOf(request.actor!),
        action: 'change.rolled_back',
        subject: { type: c.entityType, id: c.entityId },
        details: { changeId: c.id },
      });
      return reply.code(201).send({ data: await answer(request, c) });
    },
  );
};
