import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { broadcastBody, bulkTriggerBody, triggerBody, triggerResult } from './schemas.js';

/** POST /v1/events/trigger, /bulk, /broadcast and DELETE /v1/events/trigger/:transactionId. */
export const eventRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const events = ctx.services.events;

  r.post(
    '/events/trigger',
    {
      schema: {
        tags: ['Events'],
        summary: 'Triggers a workflow for subscribers, inline subscribers or topics',
        body: triggerBody,
        response: { 201: z.object({ data: triggerResult }), ...serverErrors() },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await events.trigger(request.environment!, request.body) }),
  );

  r.post(
    '/events/trigger/bulk',
    {
      schema: {
        tags: ['Events'],
        summary: 'Triggers up to 100 events; each answers on its own',
        body: bulkTriggerBody,
        response: { 201: z.object({ data: z.array(triggerResult) }), ...serverErrors() },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        data: await events.bulk(request.environment!, request.body.events, request.log),
      }),
  );

  r.post(
    '/events/trigger/broadcast',
    {
      schema: {
        tags: ['Events'],
        summary: 'Triggers a workflow for every subscriber of the environment',
        body: broadcastBody,
        response: { 201: z.object({ data: triggerResult }), ...serverErrors() },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await events.broadcast(request.environment!, request.body) }),
  );

  r.delete(
    '/events/trigger/:transactionId',
    {
      schema: {
        tags: ['Events'],
        summary: "Cancels a transaction's pending delayed and digest jobs",
        params: z.object({ transactionId: z.string().min(1).max(200) }),
        response: { 200: z.object({ data: z.boolean() }), ...serverErrors() },
      },
    },
    async (request) => ({
      data: await events.cancel(request.environment!, request.params.transactionId),
    }),
  );
};
