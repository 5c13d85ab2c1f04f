import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { deliveriesAnswer, deliveriesQuery } from './schemas.js';

/**
 * Delivery analytics of the environment (`/v1/analytics/deliveries`, beyond Novu): for the
 * console's signed-in people and the environment's API key alike. Server API.
 */
export const analyticsRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/analytics/deliveries',
    {
      schema: {
        tags: ['Analytics'],
        summary:
          'Sent, delivered, failed and bounced messages, failovers, retries and delivery times',
        querystring: deliveriesQuery,
        response: { 200: deliveriesAnswer, ...serverErrors() },
      },
    },
    async (request) => {
      const query = request.query;
      const found = await ctx.services.analytics.deliveries(request.environment!.id, query);
      return {
        data: {
          from: query.from.toISOString(),
          to: query.to.toISOString(),
          granularity: query.granularity,
          series: found.series.map(({ at, ...figures }) => ({ at: at.toISOString(), ...figures })),
          providers: found.providers,
          totals: found.totals,
        },
      };
    },
  );
};
