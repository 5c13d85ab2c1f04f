import type { Channel } from '@sino/shared';
import { quantileOf } from './histogram.js';
import { addTally, emptyTally, type Counters, type Tally } from './counters.js';
import type { AnalyticsRepository } from './repository.js';

/** What the analytics answer per period, per provider and in total. */
export interface DeliveryFigures extends Counters {
  /** From the notification's creation to its delivery, in ms; null when nothing was timed. */
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface DeliveryAnalyticsQuery {
  from: Date;
  to: Date;
  granularity: 'hour' | 'day';
  channel?: Channel | undefined;
  providerId?: string | undefined;
}

const figuresOf = ({ latency, ...counts }: Tally): DeliveryFigures => ({
  ...counts,
  p50Ms: quantileOf(latency, 0.5),
  p99Ms: quantileOf(latency, 0.99),
});

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Delivery analytics of an environment (decision 055): its hourly rows summed into periods
 * of an hour or a UTC day, per channel and provider, and in total. Percentiles come from the
 * summed histograms, never from averaging percentiles.
 */
export function createAnalyticsService(deps: { repo: AnalyticsRepository }) {
  return {
    async deliveries(environmentId: string, query: DeliveryAnalyticsQuery) {
      const rows = await deps.repo.rows(environmentId, query);
      const size = query.granularity === 'day' ? DAY_MS : HOUR_MS;
      const periods = new Map<number, Tally>();
      const providers = new Map<string, { channel: Channel; providerId: string; sum: Tally }>();
      const total = emptyTally();
      for (const row of rows) {
        const start = Math.floor(row.hour.getTime() / size) * size;
        let period = periods.get(start);
        if (!period) periods.set(start, (period = emptyTally()));
        addTally(period, row);
        const key = `${row.channel}\u0000${row.providerId}`;
        let provider = providers.get(key);
        if (!provider)
          providers.set(
            key,
            (provider = { channel: row.channel, providerId: row.providerId, sum: emptyTally() }),
          );
        addTally(provider.sum, row);
        addTally(total, row);
      }
      return {
        series: [...periods.entries()]
          .sort(([a], [b]) => a - b)
          .map(([start, sum]) => ({ at: new Date(start), ...figuresOf(sum) })),
        providers: [...providers.values()]
          .sort((a, b) =>
            a.channel === b.channel
              ? a.providerId.localeCompare(b.providerId)
              : a.channel.localeCompare(b.channel),
          )
          .map(({ channel, providerId, sum }) => ({ channel, providerId, ...figuresOf(sum) })),
        totals: figuresOf(total),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
