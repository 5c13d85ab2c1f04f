import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';

/**
 * Novu 0.24's `EnvironmentResponseDto` as `GET /v1/environments/me` answers it: the
 * environment without its API keys (Novu reads it with `-apiKeys`, so no key, masked or not,
 * is answered here). `_parentId` is answered when the environment has a parent (Novu's
 * Development environment names its Production one); Sino's environments have none yet.
 */
const environmentWire = z.object({
  _id: z.string(),
  name: z.string(),
  _organizationId: z.string(),
  identifier: z.string(),
  _parentId: z.string().optional(),
  widget: z.object({
    /**
     * Novu's name for "widget sessions must carry the subscriber's HMAC hash"; Sino reads it
     * from the environment's active in-app integration, where Novu 0.24 enforces it.
     */
    notificationCenterEncryption: z.boolean(),
  }),
  createdAt: z.string(),
});

/** GET /v1/environments/me: the environment the request's API key opens. */
export const environmentRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/environments/me',
    {
      schema: {
        tags: ['Environments'],
        summary: "The API key's environment: its application identifier and widget settings",
        response: { 200: z.object({ data: environmentWire }), ...serverErrors() },
      },
    },
    async (request) => {
      const environment = request.environment!;
      const inApp = await ctx.services.identity.inAppIntegration(environment.id);
      return {
        data: {
          _id: environment.id,
          name: environment.name,
          _organizationId: environment.organizationId,
          identifier: environment.identifier,
          widget: { notificationCenterEncryption: inApp?.hmac === true },
          createdAt: environment.createdAt.toISOString(),
        },
      };
    },
  );
};
