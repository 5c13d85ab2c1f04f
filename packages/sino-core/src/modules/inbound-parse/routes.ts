import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';

/**
 * `GET /v1/inbound-parse/mx/status`. Sino does not receive e-mail (Novu's inbound parse, which
 * turns replies into webhook calls, needs a mail server of its own): no environment has an
 * inbound-parse domain, so the answer is Novu 0.24's for an environment without one.
 */
export const inboundParseRoutes: FastifyPluginAsync<SinoContext> = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/inbound-parse/mx/status',
    {
      schema: {
        tags: ['Inbound parse'],
        summary: 'Whether the MX record of the inbound-parse domain is set up (never, in Sino)',
        response: {
          200: z.object({ data: z.object({ mxRecordConfigured: z.literal(false) }) }),
          ...serverErrors(),
        },
      },
    },
    async () => ({ data: { mxRecordConfigured: false as const } }),
  );
};
