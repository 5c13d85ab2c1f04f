import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANNELS, PREFERENCE_SOURCES } from '@sino/shared';
import type { SinoContext } from '../../context.js';
import { triggerAnswer } from '../workflows/schemas.js';

const channel = z.enum(CHANNELS);

const workflowChangeBody = z.object({
  channel: z.object({ type: channel, enabled: z.boolean() }).optional(),
  enabled: z.boolean().optional(),
});

// The widget also sends `channelType` in each item: accepted and ignored.
const globalChangeBody = z.object({
  enabled: z.boolean().optional(),
  preferences: z
    .array(z.object({ type: channel, enabled: z.boolean() }))
    .max(CHANNELS.length * 2)
    .optional(),
});

const someChannels = z.object(
  Object.fromEntries(CHANNELS.map((c) => [c, z.boolean().optional()])) as Record<
    (typeof CHANNELS)[number],
    z.ZodOptional<z.ZodBoolean>
  >,
);
const everyChannel = z.object(
  Object.fromEntries(CHANNELS.map((c) => [c, z.boolean()])) as Record<
    (typeof CHANNELS)[number],
    z.ZodBoolean
  >,
);

const workflowPreference = z.object({
  template: z.object({
    _id: z.string(),
    name: z.string(),
    tags: z.array(z.string()),
    critical: z.boolean(),
    triggers: z.array(triggerAnswer),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  preference: z.object({
    enabled: z.boolean(),
    channels: someChannels,
    overrides: z.array(z.object({ channel, source: z.enum(PREFERENCE_SOURCES) })),
  }),
});
const globalPreference = z.object({
  preference: z.object({ enabled: z.boolean(), channels: everyChannel }),
});

const list = z.object({ data: z.array(workflowPreference) });
const one = z.object({ data: workflowPreference });
const globalList = z.object({ data: z.array(globalPreference) });
const globalOne = z.object({ data: globalPreference });

const templateParams = z.object({ templateId: z.string().max(200) });
const subscriberParams = z.object({ subscriberId: z.string().min(1).max(200) });

/** The subscriber's own preferences: `/v1/widgets/preferences`. */
export const widgetPreferenceRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preferences = ctx.services.preferences;
  const tags = ['Widget'];

  r.get(
    '/preferences',
    {
      onRequest: ctx.guards.subscriber,
      schema: {
        tags,
        summary: "Preferences for each of the environment's active workflows",
        response: { 200: list },
      },
    },
    async (request) => ({ data: await preferences.list(request.widget!.subscriber) }),
  );

  r.get(
    '/preferences/global',
    {
      onRequest: ctx.guards.subscriber,
      schema: { tags, summary: 'The global preference', response: { 200: globalList } },
    },
    async (request) => ({ data: [await preferences.global(request.widget!.subscriber)] }),
  );

  r.patch(
    '/preferences/:templateId',
    {
      onRequest: ctx.guards.subscriber,
      schema: {
        tags,
        summary: "Changes a workflow's preference (a channel, or the whole workflow)",
        params: templateParams,
        body: workflowChangeBody,
        response: { 200: one },
      },
    },
    async (request) => ({
      data: await preferences.changeWorkflow(
        request.widget!.subscriber,
        request.params.templateId,
        request.body,
      ),
    }),
  );

  r.patch(
    '/preferences',
    {
      onRequest: ctx.guards.subscriber,
      schema: {
        tags,
        summary: 'Changes the global preference',
        body: globalChangeBody,
        response: { 200: globalOne },
      },
    },
    async (request) => ({
      data: await preferences.changeGlobal(request.widget!.subscriber, request.body),
    }),
  );
};

/** A subscriber's preferences through the server API: `/v1/subscribers/:id/preferences`. */
export const subscriberPreferenceRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preferences = ctx.services.preferences;
  const tags = ['Subscribers'];
  const subscriberOf = (environmentId: string, subscriberId: string) =>
    preferences.subscriber(environmentId, subscriberId);

  r.get(
    '/subscribers/:subscriberId/preferences',
    {
      schema: {
        tags,
        summary: "The subscriber's preference for each active workflow",
        params: subscriberParams,
        response: { 200: list },
      },
    },
    async (request) => {
      const subscriber = await subscriberOf(request.environment!.id, request.params.subscriberId);
      return { data: await preferences.list(subscriber) };
    },
  );

  r.get(
    '/subscribers/:subscriberId/preferences/:level',
    {
      schema: {
        tags,
        summary: "The subscriber's global preference, or its workflow preferences",
        params: subscriberParams.extend({ level: z.enum(['global', 'template']) }),
        response: { 200: z.union([list, globalList]) },
      },
    },
    async (request) => {
      const subscriber = await subscriberOf(request.environment!.id, request.params.subscriberId);
      return request.params.level === 'global'
        ? { data: [await preferences.global(subscriber)] }
        : { data: await preferences.list(subscriber) };
    },
  );

  r.patch(
    '/subscribers/:subscriberId/preferences/:templateId',
    {
      schema: {
        tags,
        summary: "Changes the subscriber's preference for a workflow",
        params: subscriberParams.extend(templateParams.shape),
        body: workflowChangeBody,
        response: { 200: one },
      },
    },
    async (request) => {
      const subscriber = await subscriberOf(request.environment!.id, request.params.subscriberId);
      return {
        data: await preferences.changeWorkflow(subscriber, request.params.templateId, request.body),
      };
    },
  );

  r.patch(
    '/subscribers/:subscriberId/preferences',
    {
      schema: {
        tags,
        summary: "Changes the subscriber's global preference",
        params: subscriberParams,
        body: globalChangeBody,
        response: { 200: globalOne },
      },
    },
    async (request) => {
      const subscriber = await subscriberOf(request.environment!.id, request.params.subscriberId);
      return { data: await preferences.changeGlobal(subscriber, request.body) };
    },
  );
};
