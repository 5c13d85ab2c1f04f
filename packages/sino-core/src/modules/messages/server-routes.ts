import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { badRequest, notFound, type SinoError } from '../../errors.js';
import {
  actionBody,
  actionParams,
  countAnswer,
  errors,
  feedAnswer,
  feedQuery,
  listOf,
  markAllBody,
  markAsBody,
  messageAnswer,
  messagesAnswer,
  numberAnswer,
  countQuery,
} from './schemas.js';

const tags = ['Subscribers'];
const subscriberParams = z.object({ subscriberId: z.string().min(1).max(200) });

/**
 * A subscriber's in-app inbox on the server API (`Authorization: ApiKey`), by its
 * `subscriberId`: the same service as the widget's, for the subscriber found in the key's
 * environment.
 */
export const serverMessageRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const messages = ctx.services.messages;

  /** The named subscriber of the key's environment, or the error Novu answers on that route. */
  async function subscriberOf(
    request: FastifyRequest,
    subscriberId: string,
    missing: (id: string) => SinoError,
  ) {
    const subscriber = await messages.subscriberOf(request.environment!.id, subscriberId);
    if (!subscriber) throw missing(subscriberId);
    return subscriber;
  }
  const feedMissing = (id: string) =>
    badRequest(
      `Subscriber not found for this environment with the id: ${id}. ` +
        'Make sure to create a subscriber before fetching the feed.',
    );
  const countMissing = (id: string) =>
    badRequest(
      `Subscriber ${id} does not exist in this environment, please provide a valid subscriber identifier`,
    );
  const markMissing = (id: string) => notFound(`Subscriber ${id} not found`);

  r.get(
    '/subscribers/:subscriberId/notifications/feed',
    {
      schema: {
        tags,
        summary: "A page of the subscriber's in-app feed, newest first",
        params: subscriberParams,
        querystring: feedQuery,
        response: { 200: feedAnswer, ...errors(400, 401) },
      },
    },
    async (request) => {
      const q = request.query;
      const subscriber = await subscriberOf(request, request.params.subscriberId, feedMissing);
      return messages.feed(subscriber, {
        page: q.page,
        limit: q.limit,
        feedIdentifiers: listOf(q.feedIdentifier, q['feedIdentifier[]']),
        seen: q.seen,
        read: q.read,
        payload: q.payload,
      });
    },
  );

  r.get(
    '/subscribers/:subscriberId/notifications/unseen',
    {
      schema: {
        tags,
        summary: "The subscriber's unseen in-app messages, counted up to `limit`",
        params: subscriberParams,
        querystring: countQuery,
        response: { 200: countAnswer, ...errors(400, 401) },
      },
    },
    async (request) => {
      const q = request.query;
      const subscriber = await subscriberOf(request, request.params.subscriberId, countMissing);
      const count = await messages.count(subscriber, 'unseen', {
        feedIdentifiers: listOf(q.feedIdentifier, q['feedIdentifier[]']),
        seen: q.seen,
        limit: q.limit,
      });
      return { data: { count } };
    },
  );

  r.post(
    '/subscribers/:subscriberId/messages/markAs',
    {
      schema: {
        tags,
        summary: "Marks some of the subscriber's messages seen and/or read",
        params: subscriberParams,
        body: markAsBody,
        response: { 201: messagesAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const subscriber = await subscriberOf(request, request.params.subscriberId, markMissing);
      const data = await messages.markAs(
        subscriber,
        request.body.messageId,
        request.body.mark ?? {},
      );
      return reply.code(201).send({ data });
    },
  );

  r.post(
    '/subscribers/:subscriberId/messages/mark-all',
    {
      schema: {
        tags,
        summary:
          "Marks all the subscriber's messages (of the given feeds) read, seen, unread or unseen",
        params: subscriberParams,
        body: markAllBody,
        response: { 201: numberAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const subscriber = await subscriberOf(request, request.params.subscriberId, markMissing);
      const data = await messages.markAll(
        subscriber,
        request.body.markAs,
        listOf(request.body.feedIdentifier),
      );
      return reply.code(201).send({ data });
    },
  );

  r.post(
    '/subscribers/:subscriberId/messages/:messageId/actions/:type',
    {
      schema: {
        tags,
        summary: "Stores the outcome of a message's CTA button",
        params: subscriberParams.extend(actionParams.shape),
        body: actionBody,
        response: { 201: messageAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const subscriber = await subscriberOf(request, request.params.subscriberId, markMissing);
      const data = await messages.updateAction(subscriber, request.params.messageId, {
        type: request.params.type,
        status: request.body.status,
        payload: request.body.payload ?? undefined,
      });
      return reply.code(201).send({ data });
    },
  );
};
