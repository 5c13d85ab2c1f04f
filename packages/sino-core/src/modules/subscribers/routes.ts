import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageAnswer } from '../../http/paging.js';
import type { SinoContext } from '../../context.js';
import type { Scope } from './service.js';
import {
  bulkSubscribersBody,
  createSubscriberBody,
  credentialsBody,
  onlineStatusBody,
  pageQuery,
  serverErrors,
  subscriberIdField,
  subscriberParams,
  subscriberWire,
  toSubscriberWire,
  updateSubscriberBody,
} from './schemas.js';

const one = z.object({ data: subscriberWire });

/** The environment the API key opened (the server API's guard ran before). */
const scopeOf = (request: FastifyRequest): Scope => request.environment!;

/** Subscribers of the server API (`/v1/subscribers`), as Novu 0.24 answers them. */
export const subscriberRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = ctx.services.subscriberService;
  const tags = ['Subscribers'];

  r.get(
    '/subscribers',
    {
      schema: {
        tags,
        summary:
          "A page of the environment's subscribers, oldest first; search (beyond Novu) keeps those whose subscriberId, name, e-mail or phone holds it",
        querystring: pageQuery.extend({
          /** Beyond Novu: the console's search, any case. */
          search: z.string().trim().max(200).optional(),
        }),
        response: {
          200: pageAnswer(subscriberWire),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query;
      const { items, hasMore } = await service.page(scopeOf(request), page, limit, search);
      return { data: items.map(toSubscriberWire), page, pageSize: limit, hasMore };
    },
  );

  r.get(
    '/subscribers/:subscriberId',
    {
      schema: {
        tags,
        summary: 'A subscriber, by the subscriberId the customer chose',
        params: subscriberParams,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: toSubscriberWire(await service.get(scopeOf(request), request.params.subscriberId)),
    }),
  );

  r.post(
    '/subscribers',
    {
      schema: {
        tags,
        summary: 'Creates a subscriber, or updates the given fields of an existing one',
        body: createSubscriberBody,
        response: { 201: one, ...serverErrors() },
      },
    },
    async (request, reply) => {
      const { subscriberId, ...input } = request.body;
      const subscriber = await service.createOrUpdate(scopeOf(request), subscriberId, input);
      return reply.code(201).send({ data: toSubscriberWire(subscriber) });
    },
  );

  r.post(
    '/subscribers/bulk',
    {
      schema: {
        tags,
        summary: 'Creates or updates up to 500 subscribers',
        body: bulkSubscribersBody,
        response: {
          201: z.object({
            data: z.object({
              updated: z.array(z.object({ subscriberId: z.string() })),
              created: z.array(z.object({ subscriberId: z.string() })),
              failed: z.array(z.object({ subscriberId: z.string(), message: z.string() })),
            }),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request, reply) => {
      const result = await service.bulk(scopeOf(request), request.body.subscribers, request.log);
      return reply.code(201).send({ data: result });
    },
  );

  r.put(
    '/subscribers/:subscriberId',
    {
      schema: {
        tags,
        summary: 'Updates the given fields of a subscriber',
        params: subscriberParams,
        body: updateSubscriberBody,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: toSubscriberWire(
        await service.update(scopeOf(request), request.params.subscriberId, request.body),
      ),
    }),
  );

  r.delete(
    '/subscribers/:subscriberId',
    {
      schema: {
        tags,
        summary: 'Deletes a subscriber with its messages, preferences and topic memberships',
        params: subscriberParams,
        response: {
          200: z.object({
            data: z.object({ acknowledged: z.boolean(), status: z.literal('deleted') }),
          }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => {
      await service.remove(scopeOf(request), request.params.subscriberId);
      return { data: { acknowledged: true, status: 'deleted' as const } };
    },
  );

  r.post(
    '/subscribers/:subscriberId/erase',
    {
      schema: {
        tags,
        summary:
          'Erases a subscriber for good (beyond Novu): its data goes, and the id is never created again',
        description:
          'Deletes the subscriber with its channel credentials, messages of every channel, ' +
          "preferences, topic memberships and the sandbox outbox's copies; cancels its steps " +
          'not yet run; keeps its notifications and execution details without payloads or ' +
          'personal data. The id stays blocked: a widget session for it is refused (403), an ' +
          'identify answers 409, and a trigger naming it is acknowledged and sends nothing. ' +
          'Its widget tokens stop working at once. Answers the same for an id never seen and ' +
          "when asked again. DELETE keeps Novu 0.24's meaning: the id may come back.",
        params: z.object({ subscriberId: subscriberIdField }),
        response: {
          200: z.object({
            data: z.object({ acknowledged: z.boolean(), status: z.literal('erased') }),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      await ctx.services.erasure.erase(scopeOf(request), request.params.subscriberId, request.log);
      return { data: { acknowledged: true, status: 'erased' as const } };
    },
  );

  for (const [method, mode, summary] of [
    [
      'PUT',
      'replace',
      "Sets a provider's credentials; the device tokens sent replace the stored ones",
    ],
    [
      'PATCH',
      'append',
      "Sets a provider's credentials; the device tokens sent join the stored ones",
    ],
  ] as const) {
    r.route({
      method,
      url: '/subscribers/:subscriberId/credentials',
      schema: {
        tags,
        summary,
        params: subscriberParams,
        body: credentialsBody,
        response: { 200: one, ...serverErrors(404) },
      },
      handler: async (request) => ({
        data: toSubscriberWire(
          await service.setCredentials(
            scopeOf(request),
            request.params.subscriberId,
            request.body,
            mode,
          ),
        ),
      }),
    });
  }

  r.delete(
    '/subscribers/:subscriberId/credentials/:providerId',
    {
      schema: {
        tags,
        summary: "Removes a subscriber's credentials of one provider",
        params: z.object({ subscriberId: z.string(), providerId: z.string() }),
        response: { 204: z.null(), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      await service.deleteCredentials(
        scopeOf(request),
        request.params.subscriberId,
        request.params.providerId,
      );
      return reply.code(204).send(null);
    },
  );

  r.patch(
    '/subscribers/:subscriberId/online-status',
    {
      schema: {
        tags,
        summary: 'Marks a subscriber online, or offline since now',
        params: subscriberParams,
        body: onlineStatusBody,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => {
      const isOnline = (request.body.isOnline ?? request.body.online)!;
      const subscriber = await service.setOnlineStatus(
        scopeOf(request),
        request.params.subscriberId,
        isOnline,
      );
      return { data: toSubscriberWire(subscriber) };
    },
  );
};
