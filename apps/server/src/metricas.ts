import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createSinoMetrics, type SinoMetrics } from '@sino/core';

/** The backlog of Locadora's outbox, as its deliverer reads it. */
export type LeitorDoOutbox = () => Promise<{
  quantidade: number;
  maisAntigoSegundos: number;
  /** Sino refuses Locadora's API key (401): the backlog waits for the operator. */
  chaveRecusada: boolean;
}>;

/** This process's metrics: one registry, Sino's and Locadora's families on it. */
export interface Metricas {
  registro: Registry;
  /** Given to Sino's plugin (or the part of it a role runs). */
  sino: SinoMetrics;
  /** Reads the outbox's backlog at each scrape (where the outbox is delivered); call once. */
  observarOutbox(leitor: LeitorDoOutbox): void;
}

/** The registry with the process's default metrics (CPU, memory, event loop, GC) and Sino's. */
export function criarMetricas(log: FastifyBaseLogger): Metricas {
  const registro = new Registry();
  collectDefaultMetrics({ register: registro });
  const sino = createSinoMetrics(registro, {
    onStatsError: (err) => log.warn({ err }, 'metrics: the queue did not give its stats'),
  });
  /** Registered with the first reader: a role that delivers no outbox shows no backlog. */
  const observarOutbox = (leitor: LeitorDoOutbox) => {
    /** One read per scrape for both gauges, as Sino's queue gauges do. */
    let leitura: Promise<Awaited<ReturnType<LeitorDoOutbox>> | undefined> | undefined;
    const ler = () =>
      (leitura ??= leitor()
        .catch((err: unknown) => {
          // The gauges keep their last value; the warning says why they did not move.
          log.warn({ err }, "metrics: the outbox's backlog could not be read");
          return undefined;
        })
        .finally(() => (leitura = undefined)));
    new Gauge({
      name: 'locadora_outbox_pending_events',
      help: "Locadora's business events not yet delivered to Sino (those awaiting a retry included)",
      registers: [registro],
      async collect() {
        const pendencias = await ler();
        if (pendencias) this.set(pendencias.quantidade);
      },
    });
    new Gauge({
      name: 'locadora_outbox_sino_key_refused',
      help: "1 while Sino refuses Locadora's API key (SINO_API_KEY): events wait until it is set right",
      registers: [registro],
      async collect() {
        const pendencias = await ler();
        if (pendencias) this.set(pendencias.chaveRecusada ? 1 : 0);
      },
    });
    new Gauge({
      name: 'locadora_outbox_oldest_pending_event_age_seconds',
      help: 'Seconds since the oldest event not yet delivered to Sino was written (0 when none)',
      registers: [registro],
      async collect() {
        const pendencias = await ler();
        if (pendencias) this.set(pendencias.maisAntigoSegundos);
      },
    });
  };
  return { registro, sino, observarOutbox };
}

const METODOS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const resumo = (texto: string) => createHash('sha256').update(texto).digest();

/**
 * GET /metrics in Prometheus's text format, for whoever sends `Authorization: Bearer
 * <METRICS_TOKEN>` (401 otherwise); 404 when metrics are off (`metricas` absent). With metrics
 * on, every answer of the server is timed per route pattern (`/v1/subscribers/:subscriberId`,
 * never the URL itself), method and status class. Register it before the other plugins: their
 * routes inherit the timing hook only from then on.
 */
export const rotaDeMetricas = fp<{ metricas: Metricas | undefined; token: string | undefined }>(
  async (app, { metricas, token }) => {
    if (!metricas || !token) {
      app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
        reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Metrics are off' }),
      );
      return;
    }
    const duracao = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, per route pattern, method and status class',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metricas.registro],
    });
    app.addHook('onResponse', async (request, reply) => {
      duracao.observe(
        {
          method: METODOS.has(request.method) ? request.method : 'other',
          // The pattern the router matched; a request no route matched has none.
          route: request.routeOptions.url ?? 'unmatched',
          status_class: `${Math.floor(reply.statusCode / 100)}xx`,
        },
        reply.elapsedTime / 1000,
      );
    });

    // Compared as digests: equal lengths, in constant time.
    const esperado = resumo(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const enviado = request.headers.authorization;
      if (!enviado || !timingSafeEqual(resumo(enviado), esperado))
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({
          statusCode: 401,
          error: 'Unauthorized',
          message: 'A valid bearer token is required',
        });
      return reply
        .header('content-type', metricas.registro.contentType)
        .header('cache-control', 'no-store')
        .send(await metricas.registro.metrics());
    });
  },
  { name: 'metricas' },
);
