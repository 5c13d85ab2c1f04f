import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '@locadora/db';

const saudeSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ status: z.enum(['up', 'down']), driver: z.enum(['pglite', 'postgres']) }),
});

/** GET /health: 200 when the database answers, 503 otherwise (load balancers read the status). */
export const rotaDeSaude: FastifyPluginAsyncZod<{ banco: DatabaseHandle }> = async (
  app,
  { banco },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Service health with database status',
        response: { 200: saudeSchema, 503: saudeSchema },
      },
    },
    async (_request, reply) => {
      const up = await banco.ping();
      return reply.code(up ? 200 : 503).send({
        status: up ? 'ok' : 'degraded',
        database: { status: up ? 'up' : 'down', driver: banco.driver },
      });
    },
  );
};
