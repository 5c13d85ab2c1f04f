import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Channel, JobStatus } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { listOf } from '../messages/schemas.js';
import { serverErrors } from '../subscribers/schemas.js';
import {
  activityFeedAnswer,
  activityNotificationWire,
  activityQuery,
  executionDetailWire,
  executionDetailsQuery,
  notificationParams,
} from './schemas.js';

/**
 * Both query forms of a list, values kept whole: transaction and subscriber ids are the
 * customer's own strings and may hold commas.
 */
function whole(...values: (string | string[] | undefined)[]): string[] | undefined {
  const items = values.flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
  const kept = [...new Set(items.map((v) => v.trim()).filter((v) => v !== ''))];
  return kept.length > 0 ? kept : undefined;
}

/** The activity feed (`/v1/notifications`) and the execution log (`/v1/execution-details`). */
export const activityRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const activity = ctx.services.activity;

  r.get(
    '/notifications',
    {
      schema: {
        tags: ['Notifications'],
        summary:
          "The environment's notifications, newest first, with their jobs and execution log; " +
          'by transactionId, workflow, channel, subscriber or email',
        querystring: activityQuery,
        response: { 200: activityFeedAnswer, ...serverErrors() },
      },
    },
    async (request) => {
      const q = request.query;
      return activity.feed(request.environment!, {
        page: q.page,
        limit: q.limit,
        channels: listOf(q.channels, q['channels[]']) as Channel[] | undefined,
        templates: listOf(q.templates, q['templates[]']),
        emails: listOf(q.emails, q['emails[]']),
        subscriberIds: whole(q.subscriberIds, q['subscriberIds[]']),
        transactionIds: whole(q.transactionId, q['transactionId[]']),
        search: q.search || undefined,
        statuses: listOf(q.statuses, q['statuses[]']) as JobStatus[] | undefined,
        after: q.after,
        before: q.before,
      });
    },
  );

  r.get(
    '/notifications/:notificationId',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'One notification with its jobs and execution log',
        params: notificationParams,
        response: { 200: z.object({ data: activityNotificationWire }), ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: await activity.notification(request.environment!, request.params.notificationId),
    }),
  );

  r.get(
    '/execution-details',
    {
      schema: {
        tags: ['Execution Details'],
        summary: "A notification's execution log for one subscriber, oldest first",
        querystring: executionDetailsQuery,
        response: { 200: z.object({ data: z.array(executionDetailWire) }), ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: await activity.executionDetails(
        request.environment!,
        request.query.notificationId,
        request.query.subscriberId,
      ),
    }),
  );
};
