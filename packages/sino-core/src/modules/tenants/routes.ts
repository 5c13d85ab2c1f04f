import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageAnswer } from '../../http/paging.js';
import type { SinoContext } from '../../context.js';
import type { Scope } from '../subscribers/service.js';
import { customData, pageQuery, serverErrors, text } from '../subscribers/schemas.js';
import type { Tenant } from './repository.js';

/** Identifiers travel in URL paths: letters, digits and `-_.:` only. */
const identifier = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must contain only letters, digits, "-", "_", "." and ":"');

const name = text(200).pipe(z.string().trim().min(1));

/** Novu's `GetTenantResponseDto`. */
const tenantWire = z.object({
  _id: z.string(),
  _environmentId: z.string(),
  identifier: z.string(),
  name: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const toTenantWire = (t: Tenant) => ({
  _id: t.id,
  _environmentId: t.environmentId,
  identifier: t.identifier,
  name: t.name,
  data: t.data ?? null,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

const one = z.object({ data: tenantWire });
const identifierParams = z.object({ identifier: z.string() });
const scopeOf = (request: FastifyRequest): Scope => request.environment!;

/** Tenants of the server API (`/v1/tenants`), as Novu 0.24 answers them. */
export const tenantRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = ctx.services.tenants;
  const tags = ['Tenants'];

  r.get(
    '/tenants',
    {
      schema: {
        tags,
        summary: "A page of the environment's tenants, oldest first",
        querystring: pageQuery,
        response: {
          200: pageAnswer(tenantWire),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, hasMore } = await service.page(scopeOf(request), page, limit);
      return { data: items.map(toTenantWire), page, pageSize: limit, hasMore };
    },
  );

  r.get(
    '/tenants/:identifier',
    {
      schema: {
        tags,
        summary: 'A tenant, by its identifier',
        params: identifierParams,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: toTenantWire(await service.get(scopeOf(request), request.params.identifier)),
    }),
  );

  r.post(
    '/tenants',
    {
      schema: {
        tags,
        summary: 'Creates a tenant; its identifier is unique in the environment',
        body: z.object({ identifier, name, data: customData.optional() }),
        response: { 201: one, ...serverErrors(409) },
      },
    },
    async (request, reply) => {
      const tenant = await service.create(scopeOf(request), request.body);
      return reply.code(201).send({ data: toTenantWire(tenant) });
    },
  );

  r.patch(
    '/tenants/:identifier',
    {
      schema: {
        tags,
        summary: 'Updates the given fields of a tenant (a new identifier must be free)',
        params: identifierParams,
        body: z.object({
          identifier: identifier.optional(),
          name: name.optional(),
          data: customData.optional(),
        }),
        response: { 200: one, ...serverErrors(404, 409) },
      },
    },
    async (request) => ({
      data: toTenantWire(
        await service.update(scopeOf(request), request.params.identifier, request.body),
      ),
    }),
  );

  r.delete(
    '/tenants/:identifier',
    {
      schema: {
        tags,
        summary: 'Deletes a tenant',
        params: identifierParams,
        response: { 204: z.null(), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      await service.remove(scopeOf(request), request.params.identifier);
      return reply.code(204).send(null);
    },
  );
};
