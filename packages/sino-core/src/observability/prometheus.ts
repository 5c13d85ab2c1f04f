import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { CHANNELS, STEP_TYPES } from '@sino/shared';
import { providers } from '@sino/providers';
import type { QueueStats } from '../queue/port.js';
import { IN_APP_PROVIDER, type SinoMetrics } from './metrics.js';

/** The task kinds of Sino's queue (src/tasks.ts); anything else is `other`. */
const TASK_KINDS = new Set(['trigger', 'step', 'wake-snoozed', 'purge-sandbox', 'purge-messages']);
const KNOWN_PROVIDERS = new Set([...providers.map((p) => p.id), IN_APP_PROVIDER]);
const KNOWN_CHANNELS = new Set<string>(CHANNELS);
const KNOWN_STEP_TYPES = new Set<string>(STEP_TYPES);

// Label values come from fixed sets: a value outside them (a provider added to the database by
// hand, a task of a newer version) is counted as `other`, so no label can grow without bound.
const bounded = (known: Set<string>, value: string) => (known.has(value) ? value : 'other');

/** Adds `item` to `list` until the answered function takes it out. */
function watch<T>(list: T[], item: T): () => void {
  list.push(item);
  return () => {
    const at = list.indexOf(item);
    if (at >= 0) list.splice(at, 1);
  };
}

/** A scrape reads the queues once for both of their gauges; a stuck store is given up on. */
const STATS_TIMEOUT_MS = 2_000;

/**
 * Sino's metric families on `registry` (Prometheus conventions: base units, `_total` counters,
 * `_seconds` histograms). Register once per registry.
 */
export function createSinoMetrics(
  registry: Registry,
  options: { onStatsError?: (error: unknown) => void } = {},
): SinoMetrics {
  const registers = [registry];
  const triggers = new Counter({
    name: 'sino_triggers_accepted_total',
    help: 'Triggers that passed their checks and were queued, by kind (event or broadcast)',
    labelNames: ['kind'] as const,
    registers,
  });
  const jobs = new Counter({
    name: 'sino_queue_jobs_processed_total',
    help: "Queue jobs' attempts by outcome: completed, retried (failed, retry to come) or failed (for good)",
    labelNames: ['queue', 'kind', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'sino_queue_job_duration_seconds',
    help: "Time a queue job's handler ran, per attempt",
    labelNames: ['queue', 'kind'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const steps = new Counter({
    name: 'sino_workflow_steps_total',
    help: 'Workflow step jobs that reached a final status, by step type and status',
    labelNames: ['type', 'status'] as const,
    registers,
  });
  const deliveries = new Counter({
    name: 'sino_deliveries_total',
    help: 'Delivery attempts per channel and provider: sent, or failed with the error class (retryable, permanent, recipient)',
    labelNames: ['channel', 'provider', 'outcome', 'error_class'] as const,
    registers,
  });
  const deliveryDuration = new Histogram({
    name: 'sino_delivery_duration_seconds',
    help: "Time a provider took to answer a delivery attempt (in-app: Sino's own write)",
    labelNames: ['channel', 'provider'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const failovers = new Counter({
    name: 'sino_delivery_failovers_total',
    help: 'Failovers from a failing provider to the next integration of the channel',
    labelNames: ['channel', 'from_provider', 'to_provider'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'sino_delivery_retries_total',
    help: 'Deliveries every integration failed, queued for a later attempt',
    labelNames: ['channel'] as const,
    registers,
  });

  const queues: { name: string; stats(): Promise<QueueStats> }[] = [];
  /** One read per scrape, shared by the two queue gauges (a scrape collects them together). */
  let reading: Promise<{ queue: string; stats?: QueueStats }[]> | undefined;
  const readQueues = () =>
    (reading ??= Promise.all(
      queues.map(async (queue) => ({ queue: queue.name, stats: await statsOf(queue) })),
    ).finally(() => (reading = undefined)));
  const statsOf = async (queue: (typeof queues)[number]): Promise<QueueStats | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        queue.stats(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the queue did not answer for its stats in time')),
            STATS_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      // The scrape goes on without this queue's series: a gap, not a made-up zero.
      options.onStatsError?.(error);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
  new Gauge({
    name: 'sino_queue_jobs',
    help: 'Jobs in the queue now by state: waiting (due), delayed (not due yet), active',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      const all = await readQueues();
      this.reset();
      for (const { queue, stats } of all) {
        if (!stats) continue;
        for (const state of ['waiting', 'delayed', 'active'] as const)
          this.set({ queue, state }, stats[state]);
      }
    },
  });
  new Gauge({
    name: 'sino_queue_oldest_waiting_job_age_seconds',
    help: 'Seconds the oldest waiting job has been due (0 when none waits): the backlog lag',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const all = await readQueues();
      this.reset();
      for (const { queue, stats } of all)
        if (stats) this.set({ queue }, stats.oldestWaitingSeconds);
    },
  });

  const sockets: (() => number)[] = [];
  new Gauge({
    name: 'sino_socket_connections',
    help: 'Widget sockets open on this node now',
    registers,
    collect() {
      this.set(sockets.reduce((sum, count) => sum + count(), 0));
    },
  });

  return {
    triggerAccepted: (kind) => triggers.inc({ kind }),
    jobFinished(queue, kind, outcome, seconds) {
      const labels = { queue, kind: bounded(TASK_KINDS, kind) };
      jobs.inc({ ...labels, outcome });
      jobDuration.observe(labels, seconds);
    },
    stepFinished: (type, status) => steps.inc({ type: bounded(KNOWN_STEP_TYPES, type), status }),
    delivery(channel, provider, result, seconds) {
      const labels = {
        channel: bounded(KNOWN_CHANNELS, channel),
        provider: bounded(KNOWN_PROVIDERS, provider),
      };
      deliveries.inc({
        ...labels,
        outcome: result.outcome,
        error_class: result.outcome === 'failed' ? result.errorClass : 'none',
      });
      deliveryDuration.observe(labels, seconds);
    },
    failover: (channel, fromProvider, toProvider) =>
      failovers.inc({
        channel: bounded(KNOWN_CHANNELS, channel),
        from_provider: bounded(KNOWN_PROVIDERS, fromProvider),
        to_provider: bounded(KNOWN_PROVIDERS, toProvider),
      }),
    retryScheduled: (channel) => retries.inc({ channel: bounded(KNOWN_CHANNELS, channel) }),
    watchQueue: (queue) => watch(queues, queue),
    watchSockets: (count) => watch(sockets, count),
  };
}
