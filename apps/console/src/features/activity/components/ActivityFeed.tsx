import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ErrorState, Loading } from '../../../components/States';
import {
  filtersFromQuery,
  isFiltered,
  queryFromFilters,
  serverQuery,
  type ActivityFilters,
} from '../lib/filters';
import type { LiveState } from '../lib/live';
import {
  CHANNELS,
  JOB_STATUSES,
  formatTime,
  overallStatus,
  statusLabel,
  stepLabel,
  subscriberName,
  type ActivityPage,
} from '../lib/types';
import { LiveBadge, StatusBadge } from './LiveBadge';

interface WorkflowSummary {
  _id: string;
  name: string;
}

/** The environment's triggers, newest first, paged and filtered; new ones appear by themselves. */
export function ActivityFeed({ live }: { live: LiveState }) {
  const { token } = useSignedIn();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromQuery(search);
  const query = serverQuery(filters);
  const feed = useQuery({
    queryKey: ['activity-feed', token, query],
    queryFn: ({ signal }) => api<ActivityPage>(`/v1/notifications?${query}`, { signal }),
    // A new page or filter keeps the old list on screen until the new one is read.
    placeholderData: keepPreviousData,
  });
  const announcement = useNewItemsAnnouncement(feed.data, query);
  const show = (next: ActivityFilters) => setSearch(queryFromFilters(next));

  return (
    <div className="page activity-page">
      <div className="page-header activity-header">
        <div>
          <h1>Activity feed</h1>
          <p className="muted">Every trigger of this environment and what each step did.</p>
        </div>
        <LiveBadge state={live} />
      </div>
      <Filters key={search.toString()} filters={filters} onApply={show} />
      {/* Polite: read when the reader is idle, and focus stays where it is. */}
      <p className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </p>
      {feed.isPending ? (
        <Loading label="Loading activity…" />
      ) : feed.isError ? (
        <ErrorState message={feed.error.message} retry={() => void feed.refetch()} />
      ) : feed.data.data.length === 0 ? (
        <div className="card empty-state">
          {isFiltered(filters) ? (
            <>
              <h2>No activity matches these filters</h2>
              <p className="muted">Change or clear the filters to see more.</p>
            </>
          ) : filters.page > 1 ? (
            <>
              <h2>No activity on this page</h2>
              <Link to="?">Go to the newest activity</Link>
            </>
          ) : (
            <>
              <h2>No activity yet</h2>
              <p className="muted">
                Trigger a workflow with the server API and it shows here as it happens.
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          <ul className="activity-list" aria-label="Notifications, newest first">
            {feed.data.data.map((n) => {
              const status = overallStatus(n.jobs);
              return (
                <li key={n._id} className="activity-item">
                  <Link
                    to={n._id}
                    state={{ feed: search.size > 0 ? `?${search.toString()}` : '' }}
                    className="activity-link"
                  >
                    <span className="activity-main">
                      <span className="activity-workflow">
                        {n.template?.name ?? 'Deleted workflow'}
                      </span>
                      <StatusBadge
                        status={status}
                        label={status === 'running' ? 'In progress' : statusLabel(status)}
                      />
                    </span>
                    <span className="activity-meta muted">
                      <span>{subscriberName(n)}</span>
                      <span>
                        <span className="visually-hidden">Transaction </span>
                        <code>{n.transactionId}</code>
                      </span>
                      <time dateTime={n.createdAt}>{formatTime(n.createdAt)}</time>
                    </span>
                    <span className="activity-steps">
                      {n.jobs
                        .filter((j) => j.type !== 'trigger')
                        .map((j) => (
                          <span key={j._id} className="step-chip" data-status={j.status}>
                            {stepLabel(j.type)}: {statusLabel(j.status)}
                          </span>
                        ))}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              className="button button-secondary"
              disabled={filters.page <= 1}
              onClick={() => show({ ...filters, page: filters.page - 1 })}
            >
              Newer
            </button>
            <span>Page {filters.page}</span>
            <button
              type="button"
              className="button button-secondary"
              disabled={!feed.data.hasMore}
              onClick={() => show({ ...filters, page: filters.page + 1 })}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </div>
  );
}

/**
 * Words for screen readers when notifications appear at the top of the same view (the socket's
 * refetch), not when the reader changes page or filters.
 */
function useNewItemsAnnouncement(data: ActivityPage | undefined, query: string): string {
  const seen = useRef<{ query: string; ids: Set<string> } | null>(null);
  const [words, setWords] = useState('');
  useEffect(() => {
    if (!data) return;
    const ids = new Set(data.data.map((n) => n._id));
    const before = seen.current;
    seen.current = { query, ids };
    if (!before || before.query !== query) return;
    const added = data.data.filter((n) => !before.ids.has(n._id));
    if (added.length === 0) return;
    const names = added.map((n) => n.template?.name ?? 'Deleted workflow').join(', ');
    setWords(
      added.length === 1
        ? `New notification: ${names}`
        : `${added.length} new notifications: ${names}`,
    );
  }, [data, query]);
  return words;
}

function Filters({
  filters,
  onApply,
}: {
  filters: ActivityFilters;
  onApply: (filters: ActivityFilters) => void;
}) {
  const { token } = useSignedIn();
  const workflows = useQuery({
    queryKey: ['activity-workflows', token],
    queryFn: () => api<{ data: WorkflowSummary[] }>('/v1/workflows?limit=100').then((r) => r.data),
  });
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const field = (name: string) => `${id}-${name}`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const next: ActivityFilters = {
      workflow: text('workflow'),
      channel: text('channel'),
      status: text('status') as ActivityFilters['status'],
      subscriberId: text('subscriberId'),
      transactionId: text('transactionId'),
      from: text('from'),
      to: text('to'),
      page: 1,
    };
    if (next.from && next.to && next.to < next.from) {
      setError('The end date must be on or after the start date.');
      return;
    }
    setError(null);
    onApply(next);
  };

  return (
    <form
      role="search"
      aria-label="Filter activity"
      className="card activity-filters"
      onSubmit={submit}
    >
      <div className="filter-grid">
        <div className="field">
          <label htmlFor={field('workflow')}>Workflow</label>
          {/* Mounted again once the workflows arrive, so a linked one shows as chosen. */}
          <select
            key={workflows.data ? 'listed' : 'listing'}
            id={field('workflow')}
            name="workflow"
            defaultValue={filters.workflow ?? ''}
          >
            <option value="">All workflows</option>
            {(workflows.data ?? []).map((w) => (
              <option key={w._id} value={w._id}>
                {w.name}
              </option>
            ))}
            {/* A linked workflow not in the first hundred still shows as chosen. */}
            {filters.workflow && workflows.data?.every((w) => w._id !== filters.workflow) && (
              <option value={filters.workflow}>Workflow {filters.workflow}</option>
            )}
          </select>
        </div>
        <div className="field">
          <label htmlFor={field('channel')}>Channel</label>
          <select id={field('channel')} name="channel" defaultValue={filters.channel ?? ''}>
            <option value="">All channels</option>
            {CHANNELS.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={field('status')}>Step status</label>
          <select id={field('status')} name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any status</option>
            {JOB_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={field('subscriberId')}>Subscriber ID</label>
          <input
            id={field('subscriberId')}
            name="subscriberId"
            defaultValue={filters.subscriberId ?? ''}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor={field('transactionId')}>Transaction ID</label>
          <input
            id={field('transactionId')}
            name="transactionId"
            defaultValue={filters.transactionId ?? ''}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor={field('from')}>From</label>
          <input id={field('from')} name="from" type="date" defaultValue={filters.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor={field('to')}>To</label>
          <input
            id={field('to')}
            name="to"
            type="date"
            defaultValue={filters.to ?? ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? field('error') : undefined}
          />
        </div>
      </div>
      {error && (
        <p id={field('error')} role="alert" className="field-error">
          {error}
        </p>
      )}
      {workflows.isError && (
        <p className="muted">The workflows could not be listed: {workflows.error.message}</p>
      )}
      <div className="filter-actions">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        {isFiltered(filters) && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => onApply({ page: 1 })}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
