import type { Channel } from '@sino/shared';
import { groupCommit } from '../../batching.js';
import type { Log } from '../../log.js';
import { HOUR_MS } from '../../hourly.js';
import { bucketOf } from './histogram.js';
import { emptyTally } from './counters.js';
import type { AnalyticsRepository, StatsIncrement } from './repository.js';

/** One delivery outcome, as the engine, the delivery service and the webhooks see it. */
export interface DeliveryOutcomeEvent {
  environmentId: string;
  channel: Channel;
  providerId: string;
  /**
   * `sent`: the provider accepted the message (or the in-app message was created); `failover`:
   * this provider failed and the next was asked; `retry`: every provider failed and the step
   * waits for another attempt; `failed`: the step gave up (or a webhook reported a failure);
   * `delivered` and `bounced`: a provider's webhook said so.
   */
  kind: 'sent' | 'delivered' | 'failed' | 'bounced' | 'failover' | 'retry';
  /** With `sent`: from the notification's creation to now. */
  latencyMs?: number | undefined;
}

/** How outcomes reach the analytics: never throws (a lost count must not fail a delivery). */
export interface DeliveryStats {
  count(...events: DeliveryOutcomeEvent[]): Promise<void>;
}

/** For parts built without analytics (unit tests of the engine and delivery). */
export const noDeliveryStats: DeliveryStats = { count: async () => {} };

const COUNTERS = {
  sent: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  bounced: 'bounced',
  failover: 'failovers',
  retry: 'retries',
} as const;

/**
 * Outcomes summed per row in this process and added to the database together: concurrent
 * deliveries share one statement (group commit, decision 036), so the cost per message is a
 * share of one round trip, not one.
 */
export function createDeliveryStats(deps: {
  repo: AnalyticsRepository;
  log: Log;
  now?: () => number;
}): DeliveryStats {
  const now = deps.now ?? Date.now;
  const flush = groupCommit(
    async (batches: readonly DeliveryOutcomeEvent[][]) => {
      const rows = new Map<string, StatsIncrement>();
      for (const event of batches.flat()) {
        const hour = Math.floor(now() / HOUR_MS) * HOUR_MS;
        const key = `${event.environmentId}\u0000${hour}\u0000${event.channel}\u0000${event.providerId}`;
        let row = rows.get(key);
        if (!row) {
          row = {
            environmentId: event.environmentId,
            hour: new Date(hour),
            channel: event.channel,
            providerId: event.providerId,
            ...emptyTally(),
          };
          rows.set(key, row);
        }
        row[COUNTERS[event.kind]]++;
        if (event.latencyMs !== undefined) row.latency[bucketOf(Math.max(0, event.latencyMs))]!++;
      }
      await deps.repo.add([...rows.values()]);
      return batches.map(() => undefined);
    },
    { maxBatch: 200 },
  );
  return {
    async count(...events) {
      if (events.length === 0) return;
      try {
        await flush(events);
      } catch (err) {
        deps.log.warn({ err }, 'delivery analytics: outcomes not counted');
      }
    },
  };
}
