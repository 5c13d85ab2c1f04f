import type { RetrySchedule } from '../engine/ports.js';
import type { ProviderSettings } from './directory.js';

/** Delivery settings of the Sino plugin (filled from the server's configuration). */
export interface DeliveryOptions extends ProviderSettings {
  /**
   * Where providers reach this server (`SINO_PUBLIC_URL`, e.g. `https://sino.example.com`,
   * with the path a proxy strips, if any): the callback URLs given with messages start with
   * it (Plivo's statuses come only there), and webhooks' signatures are checked against it.
   */
  publicUrl?: string | undefined;
  /** Waits before each retry of a failed delivery, in milliseconds; `[]` retries never. */
  retryDelaysMs?: readonly number[] | undefined;
  /** Each wait is drawn within ±this fraction of its value (0.2 when absent). */
  retryJitter?: number | undefined;
}

/**
 * The default schedule: 8 attempts, the waits doubling from 15 s (15 s, 30 s, 1 min, 2 min,
 * 4 min, 8 min, 16 min), about 32 minutes from the first attempt to the last.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [15, 30, 60, 120, 240, 480, 960].map(
  (s) => s * 1000,
);

export const retryScheduleOf = (options: DeliveryOptions | undefined): RetrySchedule => ({
  delaysMs: options?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  jitter: options?.retryJitter ?? 0.2,
});
