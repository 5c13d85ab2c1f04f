import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorState, Loading } from '../../../components/States';
import { ChannelChart, LatencyChart, OutcomesChart } from '../components/Charts';
import { ProviderTable } from '../components/ProviderTable';
import {
  CHANNEL_LABELS,
  duration,
  isEmpty,
  PERIODS,
  rangeOf,
  searchOf,
  viewOf,
  type View,
} from '../lib/periods';
import { useDeliveries, type Channel, type Figures } from '../lib/queries';
import '../analytics.css';

/**
 * Delivery analytics of the current environment (decision 055): sent, delivered, failed and
 * bounced messages, failovers, retries and delivery times, over a period, for every channel
 * and provider or one of them. The view is the URL's query, so it is a link.
 */
export default function Analytics() {
  const [search, setSearch] = useSearchParams();
  const view = viewOf(search);
  // The range is fixed when the period is chosen (not at every render), so its key is stable.
  const range = useMemo(() => rangeOf(view.period, new Date()), [view.period]);
  const all = useDeliveries(range);
  const filtered = Boolean(view.channel || view.providerId);
  const shown = useDeliveries(range, { channel: view.channel, providerId: view.providerId });
  const set = (next: Partial<View>) => setSearch(searchOf({ ...view, ...next }));
  const periodLabel = PERIODS.find((p) => p.value === view.period)!.label.toLowerCase();

  return (
    <div className="page analytics">
      <header className="page-header">
        <h1>Analytics</h1>
        <p className="muted">
          What this environment's providers did with its messages: sent, delivered, failed and
          bounced, failovers and retries, and how long delivery took.
        </p>
      </header>
      <Choices view={view} providers={all.data?.providers ?? []} onChange={set} />
      {shown.isPending ? (
        <Loading label="Loading the analytics…" />
      ) : shown.isError ? (
        <ErrorState message={shown.error.message} retry={() => void shown.refetch()} />
      ) : isEmpty(shown.data) ? (
        <div className="card analytics-empty">
          {filtered ? (
            <>
              <h2>Nothing matches these filters in the {periodLabel}</h2>
              <p className="muted">Choose another channel or provider, or a longer period.</p>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => set({ channel: undefined, providerId: undefined })}
              >
                Show every channel and provider
              </button>
            </>
          ) : (
            <>
              <h2>Nothing was sent in the {periodLabel}</h2>
              <p className="muted">
                Numbers appear here once a workflow is triggered and a provider takes its messages.{' '}
                <Link to="/get-started">Get started</Link> shows how to trigger one, or choose a
                longer period.
              </p>
            </>
          )}
        </div>
      ) : (
        <div className="analytics-body" aria-busy={shown.isPlaceholderData}>
          <Totals figures={shown.data.totals} />
          <OutcomesChart data={shown.data} />
          <LatencyChart data={shown.data} />
          {!view.channel && !view.providerId && <ChannelChart data={shown.data} />}
          <ProviderTable data={shown.data} />
        </div>
      )}
    </div>
  );
}

function Choices(props: {
  view: View;
  providers: { channel: Channel; providerId: string }[];
  onChange: (next: Partial<View>) => void;
}) {
  const id = useId();
  const { view } = props;
  // The providers seen in the period, and the one the link names even if it saw nothing.
  const providers = [...new Set(props.providers.map((p) => p.providerId))].sort();
  if (view.providerId && !providers.includes(view.providerId)) providers.push(view.providerId);
  return (
    <form className="analytics-choices" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-period`}>Period</label>
        <select
          id={`${id}-period`}
          value={view.period}
          onChange={(e) => props.onChange({ period: e.target.value as View['period'] })}
        >
          {PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-channel`}>Channel</label>
        <select
          id={`${id}-channel`}
          value={view.channel ?? ''}
          onChange={(e) => props.onChange({ channel: (e.target.value || undefined) as Channel })}
        >
          <option value="">All channels</option>
          {Object.entries(CHANNEL_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-provider`}>Provider</label>
        <select
          id={`${id}-provider`}
          value={view.providerId ?? ''}
          onChange={(e) => props.onChange({ providerId: e.target.value || undefined })}
        >
          <option value="">All providers</option>
          {providers.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

function Totals({ figures }: { figures: Figures }) {
  const tiles = [
    ['Sent', figures.sent],
    ['Delivered', figures.delivered],
    ['Failed', figures.failed],
    ['Bounced', figures.bounced],
    ['Failovers', figures.failovers],
    ['Retries', figures.retries],
    ['p50 to delivery', duration(figures.p50Ms)],
    ['p99 to delivery', duration(figures.p99Ms)],
  ] as const;
  return (
    <section aria-labelledby="totals-title">
      <h2 id="totals-title" className="visually-hidden">
        Totals
      </h2>
      <dl className="analytics-totals" data-testid="totals">
        {tiles.map(([label, value]) => (
          <div key={label} className="card">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
