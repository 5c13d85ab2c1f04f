import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';

// GET /v1/analytics/deliveries (decision 055), keyed by the session's token (a switch of
// organisation or environment reads again), the range and the filters.

export type Channel = 'in_app' | 'email' | 'sms' | 'chat' | 'push';

export interface Figures {
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

export interface Deliveries {
  from: string;
  to: string;
  granularity: 'hour' | 'day';
  series: (Figures & { at: string })[];
  providers: (Figures & { channel: Channel; providerId: string })[];
  totals: Figures;
}

/** What the server is asked: an interval and the size of its periods. */
export interface Range {
  from: Date;
  to: Date;
  granularity: 'hour' | 'day';
}

export interface Filters {
  channel?: Channel | undefined;
  providerId?: string | undefined;
}

export function useDeliveries(range: Range, filters: Filters = {}) {
  const { token } = useSignedIn();
  const query = new URLSearchParams({
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    granularity: range.granularity,
  });
  if (filters.channel) query.set('channel', filters.channel);
  if (filters.providerId) query.set('providerId', filters.providerId);
  return useQuery({
    queryKey: ['analytics', token, query.toString()],
    queryFn: () =>
      api<{ data: Deliveries }>(`/v1/analytics/deliveries?${query}`).then((r) => r.data),
    // A new period or filter keeps the last numbers shown (marked busy) until the new ones come.
    placeholderData: keepPreviousData,
  });
}
