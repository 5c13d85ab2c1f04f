import {
  ROOT_CONTEXT,
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * Sino's spans, through the OpenTelemetry API only: until the server registers an SDK (when an
 * exporter is configured, apps/server), every span here is a no-op and nothing is exported.
 * Asked for at each span, not kept: a tracer kept would stay bound to the first SDK registered,
 * even after it was shut down and another took its place.
 */
const tracer = () => trace.getTracer('sino');

/** The W3C trace context (`traceparent`, `tracestate`) a queue job carries to its worker. */
export type TraceCarrier = Record<string, string>;

/** The active span's context as a carrier, or undefined when nothing is traced. */
export function traceCarrier(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/**
 * The context a job's carrier names (its trigger's), on a blank context: a job runs wherever a
 * worker took it, sometimes inside the request that enqueued it (the database queue runs a job
 * claimed at enqueue at once), whose context is not the job's. No carrier, a trace of its own.
 */
export function contextOf(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

/**
 * Runs `work` in a span named `name`, child of `parent` (the active context by default); the
 * span records a thrown error and ends when `work` settles. Attributes are fixed-set values and
 * ids of Sino's own records, never a payload, an address or a credential.
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes && { attributes: options.attributes }),
    },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        // The error's class only: its message may quote a store or a provider, and traces
        // leave the process.
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.name : 'error',
        });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export { SpanKind, SpanStatusCode };
