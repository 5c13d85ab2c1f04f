import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageAnswer } from '../../http/paging.js';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { pageQuery } from '../subscribers/schemas.js';
import type { OverrideChanges } from './repository.js';
import { overrideAnswer } from './present.js';
import {
  createOverrideBody,
  overrideAnswer as overrideAnswerSchema,
  overrideIdParams,
  pairParams,
  updateOverrideBody,
} from './schemas.js';

// The server API's ApiKey guard has run: the environment is there.
const env = (request: FastifyRequest) => request.environment!;
const tags = ['Workflow overrides'];
const one = z.object({ data: overrideAnswerSchema });

/** `null` is "not given", as Novu's optional fields read it. */
const changesOf = (body: z.infer<typeof updateOverrideBody>): OverrideChanges => ({
  active: body.active ?? undefined,
  preferenceSettings: body.preferenceSettings ?? undefined,
});

/**
 * Tenants' overrides of workflows (`/v1/workflow-overrides`): whether a workflow runs for a
 * tenant's triggers, and its channel defaults there. Workflows and tenants by their `_id`s.
 */
export const workflowOverrideRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  // Novu 0.24 keeps tenants' overrides to Development (its RootEnvironmentGuard on each route).
  app.addHook('preValidation', ctx.guards.development);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const overrides = ctx.services.workflowOverrides;

  r.post(
    '/workflow-overrides',
    {
      schema: {
        tags,
        summary:
          "Creates a tenant's override of a workflow (not given, active is false: the workflow stops for the tenant); 409 when the pair has one",
        body: createOverrideBody,
        response: { 201: one, ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      const { workflowId, tenantId } = request.body;
      const created = await overrides.create(env(request), {
        workflowId,
        tenantId,
        ...changesOf(request.body),
      });
      return reply.code(201).send({ data: overrideAnswer(created) });
    },
  );

  r.get(
    '/workflow-overrides',
    {
      schema: {
        tags,
        summary: "A page of the environment's workflow overrides, newest first",
        querystring: pageQuery,
        response: {
          200: pageAnswer(overrideAnswerSchema),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, hasMore } = await overrides.page(env(request), page, limit);
      return { data: items.map(overrideAnswer), page, pageSize: limit, hasMore };
    },
  );

  r.get(
    '/workflow-overrides/:overrideId',
    {
      schema: {
        tags,
        summary: 'One workflow override, by its id',
        params: overrideIdParams,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: overrideAnswer(await overrides.get(env(request), request.params.overrideId)),
    }),
  );

  r.get(
    '/workflow-overrides/workflows/:workflowId/tenants/:tenantId',
    {
      schema: {
        tags,
        summary: "A tenant's override of a workflow (both by _id)",
        params: pairParams,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: overrideAnswer(await overrides.getByPair(env(request), request.params)),
    }),
  );

  r.put(
    '/workflow-overrides/:overrideId',
    {
      schema: {
        tags,
        summary:
          'Updates the given fields of a workflow override (the channels given are merged over its own)',
        params: overrideIdParams,
        body: updateOverrideBody,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: overrideAnswer(
        await overrides.update(env(request), request.params.overrideId, changesOf(request.body)),
      ),
    }),
  );

  r.put(
    '/workflow-overrides/workflows/:workflowId/tenants/:tenantId',
    {
      schema: {
        tags,
        summary:
          "Updates the given fields of a tenant's override of a workflow (both by _id; the channels given are merged over its own)",
        params: pairParams,
        body: updateOverrideBody,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: overrideAnswer(
        await overrides.updateByPair(env(request), request.params, changesOf(request.body)),
      ),
    }),
  );

  r.delete(
    '/workflow-overrides/:overrideId',
    {
      schema: {
        tags,
        summary: 'Deletes a workflow override: the workflow runs for the tenant as for any other',
        params: overrideIdParams,
        response: { 200: z.object({ data: z.literal(true) }), ...serverErrors(404) },
      },
    },
    async (request) => {
      await overrides.remove(env(request), request.params.overrideId);
      return { data: true as const };
    },
  );
};
