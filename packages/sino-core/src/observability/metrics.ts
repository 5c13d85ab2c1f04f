import type { Channel } from '@sino/shared';
import type { FailureKind } from '@sino/providers';
import type { QueueStats } from '../queue/port.js';

/** How a queue job's attempt ended: done, failed with a retry to come, or failed for good. */
export type JobOutcome = 'completed' | 'retried' | 'failed';

/** One provider's answer to one delivery attempt. */
export type DeliveryResult = { outcome: 'sent' } | { outcome: 'failed'; errorClass: FailureKind };

/**
 * What Sino tells its metrics, whatever records them (Prometheus: `prometheus.ts`). Services
 * receive it as a port and call it once per trigger, job, step or provider attempt, never per
 * statement, so that batching the work changes nothing here. No argument is free text: each is
 * one of a fixed set (channels, step types, catalogue provider ids, outcomes), so no subscriber,
 * payload or secret can reach a label.
 */
export interface SinoMetrics {
  /** A trigger passed its checks and its task is queued (`broadcast`: to every subscriber). */
  triggerAccepted(kind: 'event' | 'broadcast'): void;
  /** A queue job's attempt ended; `kind` is the task's kind (trigger, step, ...). */
  jobFinished(queue: string, kind: string, outcome: JobOutcome, seconds: number): void;
  /** A workflow step job (its step's type: email, delay, ...) reached a final status. */
  stepFinished(type: string, status: 'completed' | 'failed' | 'skipped'): void;
  /** A provider (or, for in-app, Sino itself) was asked to deliver one message. */
  delivery(channel: Channel, provider: string, result: DeliveryResult, seconds: number): void;
  /** A provider failed and the next integration of the channel is tried at once. */
  failover(channel: Channel, fromProvider: string, toProvider: string): void;
  /** Every integration failed and the step waits in the queue for its next attempt. */
  retryScheduled(channel: Channel): void;
  /** Reads the queue's depth and lag at each scrape, until the answered function is called. */
  watchQueue(queue: { name: string; stats(): Promise<QueueStats> }): () => void;
  /** Reads the open widget sockets of this node at each scrape, until told to stop. */
  watchSockets(count: () => number): () => void;
}

/** Provider label of in-app messages: Sino stores and pushes them itself. */
export const IN_APP_PROVIDER = 'sino';

const ignore = () => {};

/** Metrics off: every call does nothing. */
export const noMetrics: SinoMetrics = {
  triggerAccepted: ignore,
  jobFinished: ignore,
  stepFinished: ignore,
  delivery: ignore,
  failover: ignore,
  retryScheduled: ignore,
  watchQueue: () => ignore,
  watchSockets: () => ignore,
};
