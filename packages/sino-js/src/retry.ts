import { RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from './constants.js';
import { SinoApiError } from './http.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Delay before retry number `attempt` (0-based): base, doubled each time, capped. */
export function retryDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = {
    baseDelayMs: RETRY_BASE_DELAY_MS,
    maxDelayMs: RETRY_MAX_DELAY_MS,
  },
): number {
  return Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
}

/**
 * Whether another attempt can succeed: network failures, time-outs, 429 and 5xx can pass; any
 * other 4xx (bad input, no session) would only be refused again.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof SinoApiError)) return true;
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

/** Runs `attempt` until it succeeds, the error is final, retries run out, or `signal` aborts. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal?: { readonly aborted: boolean },
): Promise<T> {
  for (let tried = 0; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= policy.retries || !isRetryable(error) || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(tried, policy)));
      if (signal?.aborted) throw error;
    }
  }
}
