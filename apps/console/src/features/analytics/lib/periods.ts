import type { Channel, Deliveries, Figures, Range } from './queries';

// Pure functions of the analytics section: the periods offered, the range each asks the server
// for, the view's filters in the URL, the series with its quiet periods filled in, and how
// numbers and durations read.

export const PERIODS = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export const CHANNEL_LABELS: Record<Channel, string> = {
  in_app: 'In-app',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
};
const CHANNELS = Object.keys(CHANNEL_LABELS) as Channel[];

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * The range of a period ending now: the last 24 whole hours and the current one, by hour; or
 * whole UTC days (the server's days) with today, by day. At most 90 days: the server allows 92.
 */
export function rangeOf(period: Period, now: Date): Range {
  const to = new Date(Math.ceil(now.getTime() / HOUR) * HOUR);
  if (period === '24h')
    return { from: new Date(to.getTime() - 24 * HOUR), to, granularity: 'hour' };
  const days = period === '7d' ? 7 : period === '30d' ? 30 : 90;
  const today = Math.floor(now.getTime() / DAY) * DAY;
  return { from: new Date(today - (days - 1) * DAY), to, granularity: 'day' };
}

export interface View {
  period: Period;
  channel: Channel | undefined;
  providerId: string | undefined;
}

/** The view a URL's query names; a value a hand-edited link gets wrong falls back, unsent. */
export function viewOf(search: URLSearchParams): View {
  const period = search.get('period');
  const channel = search.get('channel');
  const provider = search.get('provider')?.trim();
  return {
    period: PERIODS.some((p) => p.value === period) ? (period as Period) : '7d',
    channel: CHANNELS.includes(channel as Channel) ? (channel as Channel) : undefined,
    providerId: provider && provider.length <= 100 ? provider : undefined,
  };
}

export function searchOf(view: View): URLSearchParams {
  const search = new URLSearchParams();
  if (view.period !== '7d') search.set('period', view.period);
  if (view.channel) search.set('channel', view.channel);
  if (view.providerId) search.set('provider', view.providerId);
  return search;
}

const ZERO: Figures = {
  sent: 0,
  delivered: 0,
  failed: 0,
  bounced: 0,
  failovers: 0,
  retries: 0,
  p50Ms: null,
  p99Ms: null,
};

/** Every period of the range, oldest first; those the server left out (nothing happened) as zeros. */
export function filledSeries(data: Deliveries): (Figures & { at: string })[] {
  const size = data.granularity === 'day' ? DAY : HOUR;
  const byStart = new Map(data.series.map((p) => [new Date(p.at).getTime(), p]));
  const out: (Figures & { at: string })[] = [];
  const end = new Date(data.to).getTime();
  for (let t = Math.floor(new Date(data.from).getTime() / size) * size; t < end; t += size) {
    out.push(byStart.get(t) ?? { at: new Date(t).toISOString(), ...ZERO });
  }
  return out;
}

/** Per channel: the providers' figures added (percentiles are per provider, not added). */
export function byChannel(data: Deliveries) {
  const sums = new Map<Channel, Omit<Figures, 'p50Ms' | 'p99Ms'>>();
  for (const p of data.providers) {
    const sum = sums.get(p.channel) ?? {
      sent: 0,
      delivered: 0,
      failed: 0,
      bounced: 0,
      failovers: 0,
      retries: 0,
    };
    sum.sent += p.sent;
    sum.delivered += p.delivered;
    sum.failed += p.failed;
    sum.bounced += p.bounced;
    sum.failovers += p.failovers;
    sum.retries += p.retries;
    sums.set(p.channel, sum);
  }
  return [...sums.entries()].map(([channel, sum]) => ({
    channel,
    label: CHANNEL_LABELS[channel],
    ...sum,
  }));
}

/** Nothing happened in the range: no outcome at all. */
export const isEmpty = (data: Deliveries) =>
  data.series.length === 0 && data.providers.length === 0;

/** A duration as people read it: "850 ms", "1.2 s", "3.5 min", "2.1 h"; none: "—". */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

const hourLabel = new Intl.DateTimeFormat('en', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
});
const dayLabel = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A period's label: an hour in the viewer's time zone, or a UTC day (the server's days). */
export const periodLabel = (at: string, granularity: 'hour' | 'day') =>
  (granularity === 'day' ? dayLabel : hourLabel).format(new Date(at));
