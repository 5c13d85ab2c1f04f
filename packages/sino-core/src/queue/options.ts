import { createHash } from 'node:crypto';
import type { Backoff, EnqueueOptions, RetryPolicy, WorkOptions } from './port.js';

/** What every adapter is told about the queue it serves. */
export interface QueueSettings {
  /** The queue's name: letters, digits, `_` and `-`. */
  name: string;
  /** Retries of jobs that do not set their own; `DEFAULT_RETRY` when absent. */
  retry?: RetryPolicy | undefined;
  /**
   * Errors no caller can be told about: polling, maintenance and connection failures.
   * Handler errors are not reported here; they fail the attempt.
   */
  onError(error: unknown): void;
}

/** An enqueue's options, checked and with the instance's defaults applied. */
export interface ResolvedEnqueue {
  delayMs: number;
  /** The job id derived from the dedupe key, when there is one. */
  jobId: string | undefined;
  retryLimit: number;
  backoff: Backoff;
}

const NAME = /^[A-Za-z0-9_-]{1,100}$/;

export function checkQueueName(name: string): string {
  if (!NAME.test(name)) {
    throw new TypeError(`queue name "${name}" must be 1-100 letters, digits, "_" or "-"`);
  }
  return name;
}

export function checkRetryPolicy(retry: RetryPolicy): RetryPolicy {
  return { retryLimit: checkRetryLimit(retry.retryLimit), backoff: checkBackoff(retry.backoff) };
}

export function resolveEnqueue(options: EnqueueOptions, defaults: RetryPolicy): ResolvedEnqueue {
  const delayMs = options.delayMs ?? 0;
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`delayMs must be a finite number >= 0, got ${delayMs}`);
  }
  if (options.dedupeKey !== undefined && options.dedupeKey.length === 0) {
    throw new TypeError('dedupeKey must not be empty');
  }
  return {
    delayMs,
    jobId: options.dedupeKey === undefined ? undefined : dedupeJobId(options.dedupeKey),
    retryLimit: checkRetryLimit(options.retryLimit ?? defaults.retryLimit),
    backoff: checkBackoff(options.backoff ?? defaults.backoff),
  };
}

export function checkConcurrency(options: WorkOptions): number {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
  }
  return concurrency;
}

function checkRetryLimit(retryLimit: number): number {
  if (!Number.isInteger(retryLimit) || retryLimit < 0) {
    throw new RangeError(`retryLimit must be an integer >= 0, got ${retryLimit}`);
  }
  return retryLimit;
}

function checkBackoff(backoff: Backoff): Backoff {
  if (backoff.type !== 'fixed' && backoff.type !== 'exponential') {
    throw new TypeError(
      `backoff type must be "fixed" or "exponential", got ${String(backoff.type)}`,
    );
  }
  if (!Number.isFinite(backoff.delayMs) || backoff.delayMs < 0) {
    throw new RangeError(`backoff delayMs must be a finite number >= 0, got ${backoff.delayMs}`);
  }
  return { type: backoff.type, delayMs: backoff.delayMs };
}

// Fixed namespace of Sino's dedupe ids: the same key gives the same id in every process.
const DEDUPE_NAMESPACE = Buffer.from('bda0155b9d614e82ab29de271b2a7382', 'hex');

/**
 * The job id a dedupe key stands for: a name-based UUID (RFC 9562 version 5). Both adapters
 * deduplicate by id, which is atomic in each store; a UUID is a valid id in both (the
 * database queue's ids are uuid, BullMQ's custom ids may not contain ":" nor look like
 * integers).
 */
export function dedupeJobId(key: string): string {
  const hash = createHash('sha1').update(DEDUPE_NAMESPACE).update(key, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether `settling` settled within `ms` (a stop's grace). */
export async function settledWithin(settling: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settling.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
