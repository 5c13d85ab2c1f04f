import type { JobHandler, JobQueue } from '../queue/port.js';
import type { SinoMetrics } from './metrics.js';
import { SpanKind, contextOf, inSpan, traceCarrier, type TraceCarrier } from './tracing.js';

/** A task that may carry its producer's trace context. */
type Traceable = { kind?: unknown; trace?: TraceCarrier | undefined };

/**
 * The queue, with each job enqueued in a traced context carrying that context (unless the task
 * already carries one: a trigger gets its own where it is made, since admission enqueues many
 * triggers together, from the first one's context). Nothing is added when nothing is traced.
 */
export function carryingTraceContext<T extends Traceable>(queue: JobQueue<T>): JobQueue<T> {
  const withContext = (data: T): T => {
    if (data.trace) return data;
    const trace = traceCarrier();
    return trace ? { ...data, trace } : data;
  };
  return {
    get name() {
      return queue.name;
    },
    enqueue: (data, options) => queue.enqueue(withContext(data), options),
    enqueueMany: (jobs) =>
      queue.enqueueMany(jobs.map((job) => ({ ...job, data: withContext(job.data) }))),
    cancel: (jobId) => queue.cancel(jobId),
    getState: (jobId) => queue.getState(jobId),
    ping: () => queue.ping(),
    stats: () => queue.stats(),
    work: (handler, options) => queue.work(handler, options),
    // The stop's grace goes through: without it a closing node would wait for every handler.
    stop: (options) => queue.stop(options),
  };
}

/**
 * The handler, each attempt in a span joined to the trace its task carries (the trigger's), and
 * counted by outcome and timed: one count per job, whatever the handler does inside.
 */
export function observedHandler<T extends Traceable>(
  queueName: string,
  metrics: Pick<SinoMetrics, 'jobFinished'>,
  handler: JobHandler<T>,
): JobHandler<T> {
  return async (job) => {
    const kind = typeof job.data?.kind === 'string' ? job.data.kind : 'other';
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      await inSpan(
        `sino.job ${kind}`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextOf(job.data?.trace),
          attributes: {
            'messaging.destination.name': queueName,
            'messaging.message.id': job.id,
            'sino.job.kind': kind,
            'sino.job.attempt': job.attempt,
          },
        },
        () => handler(job),
      );
      metrics.jobFinished(queueName, kind, 'completed', seconds());
    } catch (error) {
      const outcome = job.attempt < job.maxAttempts ? 'retried' : 'failed';
      metrics.jobFinished(queueName, kind, outcome, seconds());
      throw error;
    }
  };
}
