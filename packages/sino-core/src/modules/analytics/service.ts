import type { Channel } from '@sino/shared';
import { addInto, emptyHistogram, quantileOf } from './histogram.js';
import type { AnalyticsRepository, StatsRow } from './repository.js';

/** What the analytics answer per period, per provider and in total. */
export interface DeliveryFigures {
  sent: number;
  delivered: number;
  failed: number;
  bounced: number;
  failovers: number;
  retries: number;
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

/** Counters and histogram being summed. */
interface Sum {
  sent: number;
  delivered: number;
  failed: number;
  bounced: number;
  failovers: number;
  retries: number;
  latency: number[];
}

const emptySum = (): Sum => ({
  sent: 0,
  delivered: 0,
  failed: 0,
  bounced: 0,
  failovers: 0,
  retries: 0,
  latency: emptyHistogram(),
});

function addRow(sum: Sum, row: StatsRow): void {
  sum.sent += row.sent;
  sum.delivered += row.delivered;
  sum.failed += row.failed;
  sum.bounced += row.bounced;
  sum.failovers += row.failovers;
  sum.retries += row.retries;
  addInto(sum.latency, row.latency);
}

const figuresOf = ({ latency, ...counts }: Sum): DeliveryFigures => ({
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
      const periods = new Map<number, Sum>();
      const providers = new Map<string, { channel: Channel; providerId: string; sum: Sum }>();
      const total = emptySum();
      for (const row of rows) {
        const start = Math.floor(row.hour.getTime() / size) * size;
        let period = periods.get(start);
        if (!period) periods.set(start, (period = emptySum()));
        addRow(period, row);
        const key = `${row.channel}\u0000${row.providerId}`;
        let provider = providers.get(key);
        if (!provider)
          providers.set(
            key,
            (provider = { channel: row.channel, providerId: row.providerId, sum: emptySum() }),
          );
        addRow(provider.sum, row);
        addRow(total, row);
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
