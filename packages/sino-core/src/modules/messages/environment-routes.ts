import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANNELS } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { serverErrors } from '../../http/error-answers.js';
import { listOf, messageDocument, messageIdParams } from './schemas.js';

const tags = ['Messages'];
const transactionIds = z.union([z.string().max(2000), z.array(z.string().max(200)).max(100)]);

/** The environment's messages on the server API: `@novu/node`'s `messages.list` and `deleteById`. */
export const environmentMessageRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const messages = ctx.services.messages;

  r.get(
    '/messages',
    {
      schema: {
        tags,
        summary: "The environment's messages of every channel, newest first",
        querystring: z.object({
          page: z.coerce.number().int().min(0).max(1_000_000).default(0),
          limit: z.coerce.number().int().min(1).max(1000).default(10),
          subscriberId: z.string().min(1).max(200).optional(),
          channel: z.enum(CHANNELS).optional(),
          transactionId: transactionIds.optional(),
          'transactionId[]': transactionIds.optional(),
        }),
        response: {
          200: z.object({
            data: z.array(messageDocument),
            totalCount: z.number().int(),
            hasMore: z.boolean(),
            pageSize: z.number().int(),
            page: z.number().int(),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const { items, hasMore } = await messages.listOfEnvironment(request.environment!.id, {
        subscriberId: q.subscriberId,
        channel: q.channel,
        transactionIds: listOf(q.transactionId, q['transactionId[]']),
        page: q.page,
        limit: q.limit,
      });
      // As the feed: the count of this page (Novu 0.24 answers no grand total either).
      return { data: items, totalCount: items.length, hasMore, pageSize: q.limit, page: q.page };
    },
  );

  r.delete(
    '/messages/:messageId',
    {
      schema: {
        tags,
        summary: 'Deletes a message of the environment',
        params: messageIdParams,
        response: {
          200: z.object({
            data: z.object({ acknowledged: z.literal(true), status: z.literal('deleted') }),
          }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      if (!(await messages.deleteInEnvironment(request.environment!.id, messageId)))
        throw notFound(`Message with id ${messageId} not found`);
      return { data: { acknowledged: true as const, status: 'deleted' as const } };
    },
  );
};
