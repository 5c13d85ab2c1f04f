import type { FastifyInstance } from 'fastify';
import type { SinoMetrics } from '@sino/core';
import type { Configuracao } from './configuracao.js';
import { criarMetricas, rotaDeMetricas, type LeitorDoOutbox } from './metricas.js';
import { iniciarRastreamento } from './rastreamento.js';

/**
 * Metrics and traces of one process, whatever its role: GET /metrics (404 while
 * METRICS_ENABLED is off) with every request timed, and traces when an OTLP endpoint is set,
 * flushed when the app closes. Call it on the instance that listens, before any other plugin.
 * Answers what Sino's parts count into (give `metricasSino` to the Sino plugin of the role),
 * and where a role that delivers Locadora's outbox lets its backlog be read.
 */
export async function iniciarObservabilidade(
  app: FastifyInstance,
  config: Configuracao,
): Promise<{
  metricasSino: SinoMetrics | undefined;
  observarOutboxDaLocadora(leitor: LeitorDoOutbox): void;
}> {
  const metricas = config.METRICS_ENABLED ? criarMetricas(app.log) : undefined;
  await app.register(rotaDeMetricas, { metricas, token: config.METRICS_TOKEN });
  const pararRastreamento = await iniciarRastreamento(config);
  if (pararRastreamento) app.addHook('onClose', pararRastreamento);
  return {
    metricasSino: metricas?.sino,
    observarOutboxDaLocadora: (leitor) => metricas?.observarOutbox(leitor),
  };
}
