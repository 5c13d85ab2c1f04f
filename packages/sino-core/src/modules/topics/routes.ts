import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import type { Environment } from '../identity/repository.js';
import { serverErrors, subscriberIdField, text } from '../subscribers/schemas.js';
import type { TopicWithSubscribers } from './service.js';

/** Keys travel in URL paths: letters, digits and `-_.:` only. */
const topicKey = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must contain only letters, digits, "-", "_", "." and ":"');

const topicName = text(200).pipe(z.string().trim().min(1));

/** Novu's `TopicDto`. */
const topicWire = z.object({
  _id: z.string(),
  _organizationId: z.string(),
  _environmentId: z.string(),
  key: z.string(),
  name: z.string(),
  subscribers: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const toTopicWire = (environment: Environment, t: TopicWithSubscribers) => ({
  _id: t.id,
  _organizationId: environment.organizationId,
  _environmentId: t.environmentId,
  key: t.key,
  name: t.name,
  subscribers: t.subscribers,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

const keyParams = z.object({ topicKey: z.string() });
const subscribersBody = z.object({ subscribers: z.array(subscriberIdField).max(10_000) });

const environmentOf = (request: FastifyRequest): Environment => request.environment!;

/** Topics of the server API (`/v1/topics`), as Novu 0.24 answers them. */
export const topicRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = ctx.services.topics;
  const tags = ['Topics'];

  r.post(
    '/topics',
    {
      schema: {
        tags,
        summary: 'Creates a topic; its key is unique in the environment',
        body: z.object({ key: topicKey, name: topicName }),
        response: {
          201: z.object({ data: z.object({ _id: z.string(), key: z.string() }) }),
          ...serverErrors(409),
        },
      },
    },
    async (request, reply) => {
      const topic = await service.create(
        environmentOf(request),
        request.body.key,
        request.body.name,
      );
      return reply.code(201).send({ data: { _id: topic.id, key: topic.key } });
    },
  );

  r.get(
    '/topics',
    {
      schema: {
        tags,
        summary: "A page of the environment's topics, optionally only the one of a key",
        querystring: z.object({
          page: z.coerce.number().int().min(0).default(0),
          pageSize: z.coerce.number().int().min(1).max(100).default(10),
          key: z.string().optional(),
        }),
        response: {
          200: z.object({
            data: z.array(topicWire),
            page: z.number().int(),
            pageSize: z.number().int(),
            totalCount: z.number().int(),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { page, pageSize, key } = request.query;
      const environment = environmentOf(request);
      const { items, totalCount } = await service.page(environment, page, pageSize, key);
      return { data: items.map((t) => toTopicWire(environment, t)), page, pageSize, totalCount };
    },
  );

  r.get(
    '/topics/:topicKey',
    {
      schema: {
        tags,
        summary: 'A topic with the subscriberIds of its subscribers',
        params: keyParams,
        response: { 200: z.object({ data: topicWire }), ...serverErrors(404) },
      },
    },
    async (request) => {
      const environment = environmentOf(request);
      return {
        data: toTopicWire(environment, await service.get(environment, request.params.topicKey)),
      };
    },
  );

  r.patch(
    '/topics/:topicKey',
    {
      schema: {
        tags,
        summary: 'Renames a topic',
        params: keyParams,
        body: z.object({ name: topicName }),
        response: { 200: z.object({ data: topicWire }), ...serverErrors(404) },
      },
    },
    async (request) => {
      const environment = environmentOf(request);
      const topic = await service.rename(environment, request.params.topicKey, request.body.name);
      return { data: toTopicWire(environment, topic) };
    },
  );

  r.delete(
    '/topics/:topicKey',
    {
      schema: {
        tags,
        summary: 'Deletes a topic that has no subscribers left',
        params: keyParams,
        response: { 204: z.null(), ...serverErrors(404, 409) },
      },
    },
    async (request, reply) => {
      await service.remove(environmentOf(request), request.params.topicKey);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/topics/:topicKey/subscribers',
    {
      schema: {
        tags,
        summary: 'Subscribes existing subscribers; unknown subscriberIds are reported',
        params: keyParams,
        body: subscribersBody,
        response: {
          200: z.object({
            data: z.object({
              succeeded: z.array(z.string()),
              failed: z.object({ notFound: z.array(z.string()) }).optional(),
            }),
          }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => {
      const { succeeded, notFound } = await service.addSubscribers(
        environmentOf(request),
        request.params.topicKey,
        request.body.subscribers,
      );
      // As Novu: `failed` only when some subscriberId matched nobody.
      return { data: { succeeded, ...(notFound.length > 0 && { failed: { notFound } }) } };
    },
  );

  r.post(
    '/topics/:topicKey/subscribers/removal',
    {
      schema: {
        tags,
        summary: 'Unsubscribes subscribers from a topic',
        params: keyParams,
        body: subscribersBody,
        response: { 204: z.null(), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      await service.removeSubscribers(
        environmentOf(request),
        request.params.topicKey,
        request.body.subscribers,
      );
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/topics/:topicKey/subscribers/:externalSubscriberId',
    {
      schema: {
        tags,
        summary: 'Whether a subscriber belongs to a topic (404 when not)',
        params: z.object({ topicKey: z.string(), externalSubscriberId: z.string() }),
        response: {
          200: z.object({
            data: z.object({
              _organizationId: z.string(),
              _environmentId: z.string(),
              _subscriberId: z.string(),
              _topicId: z.string(),
              topicKey: z.string(),
              externalSubscriberId: z.string(),
            }),
          }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => {
      const environment = environmentOf(request);
      const m = await service.membership(
        environment,
        request.params.topicKey,
        request.params.externalSubscriberId,
      );
      return {
        data: {
          _organizationId: environment.organizationId,
          _environmentId: environment.id,
          _subscriberId: m.subscriberId,
          _topicId: m.topic.id,
          topicKey: m.topic.key,
          externalSubscriberId: m.externalSubscriberId,
        },
      };
    },
  );
};
