import { useId, type ReactElement, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { byChannel, duration, filledSeries, periodLabel } from '../lib/periods';
import type { Deliveries } from '../lib/queries';

// The section's charts (recharts, in this chunk only). A chart is a picture for sighted
// readers, hidden from assistive technology; each figure says what it shows in words and
// carries its numbers as a table, which is what a screen reader reads.

const OUTCOMES = [
  { key: 'sent', label: 'Sent', color: 'var(--chart-sent)' },
  { key: 'delivered', label: 'Delivered', color: 'var(--chart-delivered)' },
  { key: 'failed', label: 'Failed', color: 'var(--chart-failed)' },
  { key: 'bounced', label: 'Bounced', color: 'var(--chart-bounced)' },
] as const;

const axis = { fill: 'var(--muted)', fontSize: 12 };
const tooltipStyle = {
  contentStyle: {
    background: 'var(--surface)',
    border: '1px solid var(--border)',
    color: 'var(--text)',
  },
  labelStyle: { color: 'var(--text)' },
};

function Figure(props: { title: string; summary: string; chart: ReactElement; table: ReactNode }) {
  const id = useId();
  return (
    <figure className="card chart" aria-labelledby={`${id}-title`}>
      <figcaption>
        <h2 id={`${id}-title`}>{props.title}</h2>
        <p className="muted">{props.summary}</p>
      </figcaption>
      <div className="chart-area" aria-hidden="true">
        <ResponsiveContainer width="100%" height={260}>
          {props.chart}
        </ResponsiveContainer>
      </div>
      <details className="chart-table">
        <summary>{props.title}: the numbers</summary>
        <div
          className="table-scroll"
          tabIndex={0}
          role="region"
          aria-label={`${props.title}, table`}
        >
          {props.table}
        </div>
      </details>
    </figure>
  );
}

/** Sent, delivered, failed and bounced per hour or day. */
export function OutcomesChart({ data }: { data: Deliveries }) {
  const series = filledSeries(data).map((p) => ({
    ...p,
    label: periodLabel(p.at, data.granularity),
  }));
  const busiest = series.reduce((a, b) => (b.sent > a.sent ? b : a), series[0]!);
  const per = data.granularity === 'day' ? 'day (UTC)' : 'hour';
  return (
    <Figure
      title="Deliveries over time"
      summary={`Per ${per}: ${data.totals.sent} sent, ${data.totals.delivered} delivered, ${data.totals.failed} failed and ${data.totals.bounced} bounced in all; the busiest ${data.granularity} was ${busiest.label} with ${busiest.sent} sent.`}
      chart={
        <LineChart data={series} accessibilityLayer={false} margin={{ left: -16, right: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} minTickGap={24} />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip {...tooltipStyle} />
          <Legend />
          {OUTCOMES.map((o) => (
            <Line
              key={o.key}
              type="linear"
              dataKey={o.key}
              name={o.label}
              stroke={o.color}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      }
      table={
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{data.granularity === 'day' ? 'Day (UTC)' : 'Hour'}</th>
              {OUTCOMES.map((o) => (
                <th key={o.key} scope="col">
                  {o.label}
                </th>
              ))}
              <th scope="col">Failovers</th>
              <th scope="col">Retries</th>
            </tr>
          </thead>
          <tbody>
            {series
              .filter((p) => p.sent + p.delivered + p.failed + p.bounced + p.failovers + p.retries)
              .map((p) => (
                <tr key={p.at}>
                  <th scope="row">{p.label}</th>
                  <td>{p.sent}</td>
                  <td>{p.delivered}</td>
                  <td>{p.failed}</td>
                  <td>{p.bounced}</td>
                  <td>{p.failovers}</td>
                  <td>{p.retries}</td>
                </tr>
              ))}
          </tbody>
        </table>
      }
    />
  );
}

/** p50 and p99 of the time from trigger to delivery, per period. */
export function LatencyChart({ data }: { data: Deliveries }) {
  const series = filledSeries(data).map((p) => ({
    ...p,
    label: periodLabel(p.at, data.granularity),
  }));
  return (
    <Figure
      title="Time from trigger to delivery"
      summary={`Half of the messages were delivered within ${duration(data.totals.p50Ms)} and 99 in 100 within ${duration(data.totals.p99Ms)} of their trigger (periods without deliveries have no point).`}
      chart={
        <LineChart data={series} accessibilityLayer={false} margin={{ left: 0, right: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} minTickGap={24} />
          <YAxis tick={axis} tickFormatter={(v: number) => duration(v)} width={64} />
          <Tooltip {...tooltipStyle} formatter={(v) => duration(Number(v))} />
          <Legend />
          <Line
            type="linear"
            dataKey="p50Ms"
            name="p50"
            stroke="var(--chart-sent)"
            strokeWidth={2}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            type="linear"
            dataKey="p99Ms"
            name="p99"
            stroke="var(--chart-failed)"
            strokeWidth={2}
            connectNulls
            isAnimationActive={false}
          />
        </LineChart>
      }
      table={
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{data.granularity === 'day' ? 'Day (UTC)' : 'Hour'}</th>
              <th scope="col">p50</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            {series
              .filter((p) => p.p50Ms !== null)
              .map((p) => (
                <tr key={p.at}>
                  <th scope="row">{p.label}</th>
                  <td>{duration(p.p50Ms)}</td>
                  <td>{duration(p.p99Ms)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      }
    />
  );
}

/** The outcomes of each channel over the whole period. */
export function ChannelChart({ data }: { data: Deliveries }) {
  const channels = byChannel(data);
  return (
    <Figure
      title="By channel"
      summary={channels
        .map(
          (c) =>
            `${c.label}: ${c.sent} sent, ${c.delivered} delivered, ${c.failed} failed, ${c.bounced} bounced`,
        )
        .join('; ')
        .concat('.')}
      chart={
        <BarChart data={channels} accessibilityLayer={false} margin={{ left: -16, right: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} />
          <YAxis allowDecimals={false} tick={axis} />
          <Tooltip {...tooltipStyle} cursor={{ fill: 'var(--code-bg)' }} />
          <Legend />
          {OUTCOMES.map((o) => (
            <Bar
              key={o.key}
              dataKey={o.key}
              name={o.label}
              fill={o.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      }
      table={
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              {OUTCOMES.map((o) => (
                <th key={o.key} scope="col">
                  {o.label}
                </th>
              ))}
              <th scope="col">Failovers</th>
              <th scope="col">Retries</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.channel}>
                <th scope="row">{c.label}</th>
                <td>{c.sent}</td>
                <td>{c.delivered}</td>
                <td>{c.failed}</td>
                <td>{c.bounced}</td>
                <td>{c.failovers}</td>
                <td>{c.retries}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
