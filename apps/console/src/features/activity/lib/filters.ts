import { JOB_STATUSES, type JobStatus } from './types';

// The feed's filters live in the URL's query (a filtered view is a link): these turn the query
// into the filters, the filters into the server's query (GET /v1/notifications), and back.

export interface ActivityFilters {
  /** A workflow's `_id`. */
  workflow?: string;
  channel?: string;
  status?: JobStatus;
  subscriberId?: string;
  transactionId?: string;
  /** Calendar days (YYYY-MM-DD) in the viewer's time zone, both included. */
  from?: string;
  to?: string;
  /** 1-based, as people count pages. */
  page: number;
}

export const PAGE_SIZE = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TEXT_KEYS = ['workflow', 'channel', 'subscriberId', 'transactionId'] as const;

export function filtersFromQuery(query: URLSearchParams): ActivityFilters {
  const filters: ActivityFilters = { page: 1 };
  for (const key of TEXT_KEYS) {
    const value = query.get(key)?.trim();
    if (value) filters[key] = value;
  }
  const status = query.get('status');
  if (status && (JOB_STATUSES as readonly string[]).includes(status))
    filters.status = status as JobStatus;
  for (const key of ['from', 'to'] as const) {
    const value = query.get(key);
    if (value && DAY.test(value) && !Number.isNaN(Date.parse(value))) filters[key] = value;
  }
  const page = Number(query.get('page'));
  if (Number.isInteger(page) && page > 1) filters.page = page;
  return filters;
}

/** The console's own URL query for these filters (empty ones and page 1 left out). */
export function queryFromFilters(filters: ActivityFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of [...TEXT_KEYS, 'status', 'from', 'to'] as const) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  if (filters.page > 1) query.set('page', String(filters.page));
  return query;
}

/** Local midnight of a YYYY-MM-DD day, `plusDays` later. */
function startOfDay(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays);
}

/** The server's query: its list names, 0-based page, and the days as instants. */
export function serverQuery(filters: ActivityFilters): string {
  const query = new URLSearchParams({
    page: String(filters.page - 1),
    limit: String(PAGE_SIZE),
  });
  if (filters.workflow) query.set('templates', filters.workflow);
  if (filters.channel) query.set('channels', filters.channel);
  if (filters.status) query.set('statuses', filters.status);
  if (filters.subscriberId) query.set('subscriberIds', filters.subscriberId);
  if (filters.transactionId) query.set('transactionId', filters.transactionId);
  if (filters.from) query.set('after', startOfDay(filters.from).toISOString());
  // The end day is included: before the next day's midnight.
  if (filters.to) query.set('before', startOfDay(filters.to, 1).toISOString());
  return query.toString();
}

/** Whether any filter narrows the feed (the empty state words it differently). */
export const isFiltered = (filters: ActivityFilters): boolean =>
  queryFromFilters({ ...filters, page: 1 }).size > 0;
