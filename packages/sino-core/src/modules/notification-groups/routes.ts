import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { actingEnvironment } from '../../http/acting.js';
import { serverErrors } from '../../http/error-answers.js';
import { groupAnswer } from './present.js';
import { groupAnswer as groupAnswerSchema, groupBody, groupIdParams } from './schemas.js';

// The server API's ApiKey guard has run: the environment is there.
const env = actingEnvironment;
const tags = ['Workflow groups'];
const one = z.object({ data: groupAnswerSchema });

/** Workflow groups (Novu's notification groups): `/v1/notification-groups`. */
export const notificationGroupRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const groups = ctx.services.notificationGroups;

  r.post(
    '/notification-groups',
    {
      schema: {
        tags,
        summary: 'Creates a workflow group',
        body: groupBody,
        response: { 201: one, ...serverErrors() },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ data: groupAnswer(await groups.create(env(request), request.body.name)) }),
  );

  r.get(
    '/notification-groups',
    {
      schema: {
        tags,
        summary: "The environment's workflow groups, oldest first",
        response: { 200: z.object({ data: z.array(groupAnswerSchema) }), ...serverErrors() },
      },
    },
    async (request) => ({ data: (await groups.list(env(request))).map(groupAnswer) }),
  );

  r.get(
    '/notification-groups/:id',
    {
      schema: {
        tags,
        summary: 'One workflow group',
        params: groupIdParams,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({ data: groupAnswer(await groups.get(env(request), request.params.id)) }),
  );

  r.patch(
    '/notification-groups/:id',
    {
      schema: {
        tags,
        summary: 'Renames a workflow group',
        params: groupIdParams,
        body: groupBody,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: groupAnswer(await groups.rename(env(request), request.params.id, request.body.name)),
    }),
  );

  r.delete(
    '/notification-groups/:id',
    {
      schema: {
        tags,
        summary: 'Deletes a workflow group that holds no workflow (409 otherwise)',
        params: groupIdParams,
        response: {
          200: z.object({
            data: z.object({ acknowledged: z.literal(true), status: z.literal('deleted') }),
          }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => {
      await groups.remove(env(request), request.params.id);
      return { data: { acknowledged: true as const, status: 'deleted' as const } };
    },
  );
};
