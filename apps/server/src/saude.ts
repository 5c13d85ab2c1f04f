import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '@locadora/db';

const estado = z.enum(['up', 'down']);
const vivoSchema = z.object({ status: z.literal('ok') });
const prontoSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.object({ status: estado, driver: z.enum(['pglite', 'postgres']) }),
  redis: z.object({ status: estado }).optional(),
});

/** A readiness check waits at most this long for a store, whatever its own timeouts. */
const ESPERA_MAXIMA_MS = 2_000;

/** True when `verificar` answers true in time; a check that hangs or fails is false. */
async function respondeAtempo(verificar: () => Promise<boolean>): Promise<boolean> {
  let limite: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      verificar().catch(() => false),
      new Promise<boolean>((r) => (limite = setTimeout(() => r(false), ESPERA_MAXIMA_MS))),
    ]);
  } finally {
    clearTimeout(limite);
  }
}

/**
 * GET /health, liveness: the process is up and serving, with no store asked (an orchestrator
 * restarts a process that fails it, and restarting does not bring a database back).
 * GET /ready, readiness: the stores this process uses answer (the database; Redis when
 * `REDIS_URL` is set, which every role then uses: the API enqueues, workers consume, socket
 * nodes fan out); 503 naming the one that does not, without its address.
 */
export const rotaDeSaude: FastifyPluginAsyncZod<{
  banco: DatabaseHandle;
  /** Pings the Redis of Sino's queue; absent without Redis. */
  redis?: (() => Promise<boolean>) | undefined;
}> = async (app, { banco, redis }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Liveness: the process answers (no store is asked)',
        response: { 200: vivoSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['Operations'],
        summary: "Readiness: the stores this process's role uses answer",
        response: { 200: prontoSchema, 503: prontoSchema },
      },
    },
    async (_request, reply) => {
      const [bancoOk, redisOk] = await Promise.all([
        respondeAtempo(() => banco.ping()),
        redis ? respondeAtempo(redis) : undefined,
      ]);
      const pronto = bancoOk && redisOk !== false;
      if (!pronto) reply.header('retry-after', 5);
      return reply.code(pronto ? 200 : 503).send({
        status: pronto ? 'ok' : 'unavailable',
        database: { status: bancoOk ? 'up' : 'down', driver: banco.driver },
        ...(redisOk !== undefined && { redis: { status: redisOk ? 'up' : 'down' } }),
      });
    },
  );
};
