import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import {
  actionBody,
  actionParams,
  countAnswer,
  countQuery,
  errors,
  feedAnswer,
  feedQuery,
  listOf,
  markAsBody,
  messageAnswer,
  messageIdParams,
  messagesAnswer,
  numberAnswer,
  pageQuery,
  snoozeBody,
} from './schemas.js';

const tags = ['Widget'];
// How @novu/client names its usage events: `[Widget] - ` and a few words.
const WIDGET_EVENT_NAME = /^\[Widget\] - [A-Za-z][A-Za-z ]{0,60}$/;

const feedIdsBody = z
  .object({
    feedId: z.union([z.string().max(2000), z.array(z.string().max(200)).max(100)]).nullish(),
  })
  .optional();

/** The subscriber's in-app inbox on the widget API (`/v1/widgets`), per WIDGET-WIRE.md. */
export const widgetMessageRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const messages = ctx.services.messages;
  const onRequest = ctx.guards.subscriber;

  r.get(
    '/notifications/feed',
    {
      onRequest,
      schema: {
        tags,
        summary: 'A page of the in-app feed, newest first',
        querystring: feedQuery,
        response: { 200: feedAnswer, ...errors(400, 401) },
      },
    },
    async (request) => {
      const q = request.query;
      return messages.feed(request.widget!.subscriber, {
        page: q.page,
        limit: q.limit,
        feedIdentifiers: listOf(q.feedIdentifier, q['feedIdentifier[]']),
        seen: q.seen,
        read: q.read,
        payload: q.payload,
      });
    },
  );

  for (const [path, summary, kind] of [
    [
      '/notifications/unseen',
      'Unseen in-app messages (`seen` defaults to false), up to `limit`',
      'unseen',
    ],
    [
      '/notifications/unread',
      'Unread in-app messages (`read` defaults to false), up to `limit`',
      'unread',
    ],
    [
      '/notifications/count',
      'In-app messages by `seen`/`read` (default unseen), up to `limit`',
      'count',
    ],
  ] as const) {
    r.get(
      path,
      {
        onRequest,
        schema: {
          tags,
          summary,
          querystring: countQuery,
          response: { 200: countAnswer, ...errors(400, 401) },
        },
      },
      async (request) => {
        const q = request.query;
        const count = await messages.count(request.widget!.subscriber, kind, {
          feedIdentifiers: listOf(q.feedIdentifier, q['feedIdentifier[]']),
          seen: q.seen,
          read: q.read,
          limit: q.limit,
        });
        return { data: { count } };
      },
    );
  }

  r.post(
    '/messages/markAs',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Marks messages seen and/or read (`mark` defaults to `{seen: true}`)',
        body: markAsBody,
        response: { 201: messagesAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const data = await messages.markAs(
        request.widget!.subscriber,
        request.body.messageId,
        request.body.mark ?? {},
      );
      return reply.code(201).send({ data });
    },
  );

  for (const [path, markAs] of [
    ['/messages/read', 'read'],
    ['/messages/seen', 'seen'],
  ] as const) {
    r.post(
      path,
      {
        onRequest,
        schema: {
          tags,
          summary: `Marks every message ${markAs} (of the given feed identifiers)`,
          body: feedIdsBody,
          response: { 201: numberAnswer, ...errors(400, 401) },
        },
      },
      async (request, reply) => {
        const data = await messages.markAll(
          request.widget!.subscriber,
          markAs,
          listOf(request.body?.feedId),
        );
        return reply.code(201).send({ data });
      },
    );
  }

  r.delete(
    '/messages/:messageId',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Removes one message',
        params: messageIdParams,
        response: { 200: messageAnswer, ...errors(400, 401) },
      },
    },
    async (request) => ({
      data: await messages.remove(request.widget!.subscriber, request.params.messageId),
    }),
  );

  r.delete(
    '/messages',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Removes every in-app message, or those of one feed (its id or identifier)',
        querystring: z.object({ feedId: z.string().max(200).optional() }),
        response: { 204: z.null(), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await messages.removeAll(request.widget!.subscriber, request.query.feedId || undefined);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/messages/bulk/delete',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Removes up to 100 messages; answers how many were removed',
        body: z.object({ messageIds: z.array(z.string().max(100)).min(1).max(100) }),
        response: { 200: numberAnswer, ...errors(400, 401) },
      },
    },
    async (request) => ({
      data: await messages.removeMany(request.widget!.subscriber, request.body.messageIds),
    }),
  );

  r.post(
    '/messages/:messageId/actions/:type',
    {
      onRequest,
      schema: {
        tags,
        summary: "Stores the outcome of a message's CTA button",
        params: actionParams,
        body: actionBody,
        response: { 201: messageAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const data = await messages.updateAction(
        request.widget!.subscriber,
        request.params.messageId,
        {
          type: request.params.type,
          status: request.body.status,
          payload: request.body.payload ?? undefined,
        },
      );
      return reply.code(201).send({ data });
    },
  );

  // ---- Sino's additions (not in Novu 0.24): archive and snooze ------------------------------

  for (const [path, summary, which] of [
    ['/notifications/archived', 'Archived in-app messages, newest archived first', 'archived'],
    ['/notifications/snoozed', 'Snoozed in-app messages, soonest back first', 'snoozed'],
  ] as const) {
    r.get(
      path,
      {
        onRequest,
        schema: {
          tags,
          summary,
          querystring: pageQuery,
          response: { 200: feedAnswer, ...errors(400, 401) },
        },
      },
      async (request) => messages[which](request.widget!.subscriber, request.query),
    );
  }

  for (const [path, summary, archived] of [
    ['/messages/:messageId/archive', 'Archives a message (out of the feed and counts)', true],
    ['/messages/:messageId/unarchive', 'Brings an archived message back to the feed', false],
  ] as const) {
    r.post(
      path,
      {
        onRequest,
        schema: {
          tags,
          summary,
          params: messageIdParams,
          response: { 201: messageAnswer, ...errors(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const data = await messages.setArchived(
          request.widget!.subscriber,
          request.params.messageId,
          archived,
        );
        return reply.code(201).send({ data });
      },
    );
  }

  r.post(
    '/messages/archive-read',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Archives every read message (of the given feed identifiers); answers how many',
        body: feedIdsBody,
        response: { 201: numberAnswer, ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const data = await messages.archiveRead(
        request.widget!.subscriber,
        listOf(request.body?.feedId),
      );
      return reply.code(201).send({ data });
    },
  );

  r.post(
    '/messages/:messageId/snooze',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Snoozes a message until a time; it comes back unseen and unread then',
        params: messageIdParams,
        body: snoozeBody,
        response: { 201: messageAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const data = await messages.snooze(
        request.widget!.subscriber,
        request.params.messageId,
        request.body.until,
      );
      return reply.code(201).send({ data });
    },
  );

  r.post(
    '/messages/:messageId/unsnooze',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Ends a snooze now: the message is back in the feed as it was',
        params: messageIdParams,
        response: { 201: messageAnswer, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const data = await messages.unsnooze(request.widget!.subscriber, request.params.messageId);
      return reply.code(201).send({ data });
    },
  );

  r.post(
    '/usage/log',
    {
      onRequest,
      schema: {
        tags,
        summary: "Records a widget usage event in the service's log",
        body: z.object({ name: z.string().min(1).max(200), payload: z.unknown().optional() }),
        response: {
          201: z.object({ data: z.object({ success: z.boolean() }) }),
          ...errors(400, 401),
        },
      },
    },
    async (request, reply) => {
      const { subscriber } = request.widget!;
      // The widget's own event names (`[Widget] - Notification Click`) are logged; what else
      // a client sends, and the payload, may be anything (personal data): never logged.
      const name = WIDGET_EVENT_NAME.test(request.body.name) ? request.body.name : '(other)';
      request.log.info(
        { subscriberId: subscriber.id, environmentId: subscriber.environmentId, name },
        'widget usage',
      );
      return reply.code(201).send({ data: { success: true } });
    },
  );
};
