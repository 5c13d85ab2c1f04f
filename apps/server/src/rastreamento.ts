import { context, propagation, trace } from '@opentelemetry/api';
import type { Configuracao } from './configuracao.js';

/** Ends tracing: the spans still buffered are sent, then the process's tracer is let go. */
export type PararRastreamento = () => Promise<void>;

/** True while this process's tracer is registered. */
let registrado = false;

/** Where traces go: the signal's own URL, or `/v1/traces` under the collector's endpoint. */
export function destinoDosRastros(config: Configuracao): string | undefined {
  if (config.OTEL_SDK_DISABLED) return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Registers OpenTelemetry's trace SDK for this process when an OTLP endpoint is configured, so
 * that Sino's spans (trigger, job, delivery: @sino/core's `observability/tracing.ts`) are
 * recorded and exported over OTLP/HTTP. Otherwise nothing is loaded: the SDK and its exporter
 * are imported here, on demand, and the API's spans stay no-ops. Other OTEL_* variables
 * (OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_*) are read by the SDK itself.
 *
 * One per process: the tracer is global. A second call while one runs registers nothing.
 */
export async function iniciarRastreamento(
  config: Configuracao,
): Promise<PararRastreamento | undefined> {
  const url = destinoDosRastros(config);
  if (!url || registrado) return undefined;
  registrado = true;
  let provedor;
  try {
    const [
      { NodeTracerProvider, BatchSpanProcessor },
      { defaultResource, resourceFromAttributes },
      { OTLPTraceExporter },
    ] = await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/resources'),
      config.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
    provedor = new NodeTracerProvider({
      resource: defaultResource().merge(
        resourceFromAttributes({
          'service.name': config.OTEL_SERVICE_NAME,
          'locadora.role': config.ROLE,
        }),
      ),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
    });
    // The context of async work (AsyncLocalStorage) and W3C trace context on queue jobs.
    provedor.register();
  } catch (erro) {
    registrado = false;
    throw erro;
  }
  return async () => {
    try {
      await provedor.shutdown();
    } finally {
      trace.disable();
      context.disable();
      propagation.disable();
      registrado = false;
    }
  };
}
