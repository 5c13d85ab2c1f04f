import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actingEnvironment } from '../../http/acting.js';
import { serverErrors } from '../../http/error-answers.js';
import type { SinoContext } from '../../context.js';
import { feedAnswer, workflowAnswer } from './present.js';
import {
  createFeedBody,
  createWorkflowBody,
  feedAnswer as feedAnswerSchema,
  feedIdParams,
  updateWorkflowBody,
  workflowAnswer as workflowAnswerSchema,
  workflowIdParams,
  workflowListAnswer,
  workflowListQuery,
  workflowStatusBody,
} from './schemas.js';

// The server API's ApiKey guard has run: the environment is there, and who acts.
const env = actingEnvironment;

const one = z.object({ data: workflowAnswerSchema });

/**
 * Workflows of the server API at `base`: `/v1/workflows`, and `/v1/notification-templates`,
 * Novu 0.24's older name for the same routes on the same store (deprecated there too).
 */
const workflowRoutesAt =
  (base: '/workflows' | '/notification-templates'): FastifyPluginAsync<SinoContext> =>
  async (app, ctx) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const workflows = ctx.services.workflows;
    const tags = base === '/workflows' ? ['Workflows'] : ['Notification templates'];
    const deprecated = base !== '/workflows';

    r.post(
      base,
      {
        preValidation: ctx.guards.development,
        schema: {
          tags,
          deprecated,
          summary: 'Creates a workflow (inactive unless `active` is true, as Novu)',
          body: createWorkflowBody,
          response: { 201: one, ...serverErrors(404) },
        },
      },
      async (request, reply) => {
        const created = await workflows.create(env(request), request.body);
        return reply.code(201).send({ data: workflowAnswer(created) });
      },
    );

    r.get(
      base,
      {
        schema: {
          tags,
          deprecated,
          summary: "A page of the environment's workflows, newest first",
          querystring: workflowListQuery,
          response: { 200: workflowListAnswer, ...serverErrors(404) },
        },
      },
      async (request) => {
        const { page, limit } = request.query;
        const { items, totalCount } = await workflows.list(env(request), request.query);
        return { data: items.map(workflowAnswer), totalCount, page, pageSize: limit };
      },
    );

    r.get(
      `${base}/:workflowId`,
      {
        schema: {
          tags,
          deprecated,
          summary: 'One workflow, by `_id` or by identifier',
          params: workflowIdParams,
          response: { 200: one, ...serverErrors(404) },
        },
      },
      async (request) => ({
        data: workflowAnswer(await workflows.get(env(request), request.params.workflowId)),
      }),
    );

    r.put(
      `${base}/:workflowId`,
      {
        preValidation: ctx.guards.development,
        schema: {
          tags,
          deprecated,
          summary: 'Updates the fields given; `steps` replaces the steps (ids given are kept)',
          params: workflowIdParams,
          body: updateWorkflowBody,
          response: { 200: one, ...serverErrors(404) },
        },
      },
      async (request) => ({
        data: workflowAnswer(
          await workflows.update(env(request), request.params.workflowId, request.body),
        ),
      }),
    );

    r.put(
      `${base}/:workflowId/status`,
      {
        preValidation: ctx.guards.development,
        schema: {
          tags,
          deprecated,
          summary: 'Activates or deactivates a workflow',
          params: workflowIdParams,
          body: workflowStatusBody,
          response: { 200: one, ...serverErrors(404) },
        },
      },
      async (request) => ({
        data: workflowAnswer(
          await workflows.setStatus(env(request), request.params.workflowId, request.body.active),
        ),
      }),
    );

    r.delete(
      `${base}/:workflowId`,
      {
        preValidation: ctx.guards.development,
        schema: {
          tags,
          deprecated,
          summary: 'Deletes a workflow (soft delete: past notifications keep it)',
          params: workflowIdParams,
          response: { 200: z.object({ data: z.literal(true) }), ...serverErrors(404) },
        },
      },
      async (request) => ({
        data: await workflows.remove(env(request), request.params.workflowId),
      }),
    );
  };

export const workflowRoutes = workflowRoutesAt('/workflows');
export const notificationTemplateRoutes = workflowRoutesAt('/notification-templates');

/** In-app feeds of the server API: `/v1/feeds`. */
export const feedRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const feeds = ctx.services.feeds;
  const list = z.object({ data: z.array(feedAnswerSchema) });

  r.post(
    '/feeds',
    {
      schema: {
        tags: ['Feeds'],
        summary: 'Creates a feed; its identifier is its name',
        body: createFeedBody,
        response: { 201: z.object({ data: feedAnswerSchema }), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      const e = env(request);
      const feed = await feeds.create(e, request.body.name);
      return reply.code(201).send({ data: feedAnswer(feed, e.organizationId) });
    },
  );

  r.get(
    '/feeds',
    {
      schema: {
        tags: ['Feeds'],
        summary: "The environment's feeds",
        response: { 200: list, ...serverErrors(404) },
      },
    },
    async (request) => {
      const e = env(request);
      return { data: (await feeds.list(e)).map((f) => feedAnswer(f, e.organizationId)) };
    },
  );

  r.delete(
    '/feeds/:feedId',
    {
      schema: {
        tags: ['Feeds'],
        summary: 'Deletes a feed and answers the feeds left',
        params: feedIdParams,
        response: { 200: list, ...serverErrors(404) },
      },
    },
    async (request) => {
      const e = env(request);
      const left = await feeds.remove(e, request.params.feedId);
      return { data: left.map((f) => feedAnswer(f, e.organizationId)) };
    },
  );
};
