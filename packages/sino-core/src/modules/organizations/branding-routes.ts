import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { brandingAnswer, brandingBody } from './schemas.js';

/** `PUT /v1/organizations/branding` (Novu 0.24's, API-key accessible). */
export const organizationBrandingRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/organizations/branding',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Organizations'],
        summary:
          "Replaces the organization's branding (logo, color, font, font color, content background), which email layouts read",
        body: brandingBody,
        response: { 200: z.object({ data: brandingAnswer }), ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: await ctx.services.organizations.updateBranding(request.environment!, request.body),
    }),
  );
};
