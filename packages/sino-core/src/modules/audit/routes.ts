import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { badRequest } from '../../errors.js';
import type { AuditEntry } from './repository.js';

const entryWire = z.object({
  _id: z.string(),
  _environmentId: z.string().nullable(),
  actor: z.object({ type: z.enum(['user', 'api_key', 'system']), _id: z.string().nullable() }),
  action: z.string(),
  subject: z.object({ type: z.string(), _id: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
const entryAnswer = (e: AuditEntry) => ({
  _id: e.id,
  _environmentId: e.environmentId,
  actor: { type: e.actorType, _id: e.actorId },
  action: e.action,
  subject: e.subjectType && e.subjectId ? { type: e.subjectType, _id: e.subjectId } : null,
  details: e.details,
  createdAt: e.createdAt.toISOString(),
});

/** `before`: the `_id` of the last entry of the previous page. */
const query = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'must be the _id of an entry')
    .optional(),
});

/** `GET /v1/audit-logs`: the organization's audit log, newest first, for its admins. */
export const auditRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/audit-logs',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Audit log'],
        summary: "Who did what and when in the organization, newest first (Sino's; admins only)",
        querystring: query,
        response: {
          200: z.object({ data: z.array(entryWire), hasMore: z.boolean() }),
          ...serverErrors(403),
        },
      },
    },
    async (request) => {
      const organizationId = request.environment!.organizationId;
      const { limit, before } = request.query;
      let cursor: AuditEntry | undefined;
      if (before) {
        cursor = await ctx.services.audit.byId(organizationId, before);
        if (!cursor) throw badRequest('before must be the _id of an entry of this organization');
      }
      const page = await ctx.services.audit.page(organizationId, {
        limit: limit + 1,
        before: cursor && { createdAt: cursor.createdAt, id: cursor.id },
      });
      return { data: page.slice(0, limit).map(entryAnswer), hasMore: page.length > limit };
    },
  );
};
