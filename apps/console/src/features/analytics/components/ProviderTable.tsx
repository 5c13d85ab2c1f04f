import { CHANNEL_LABELS, duration } from '../lib/periods';
import type { Deliveries } from '../lib/queries';

/** Every channel and provider over the period, with its failovers, retries and delivery times. */
export function ProviderTable({ data }: { data: Deliveries }) {
  return (
    <section className="card" aria-labelledby="providers-title">
      <h2 id="providers-title">By provider</h2>
      <p className="muted">
        A failover is counted on the provider that failed; a retry on the last one asked.
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="By provider, table">
        <table className="data-table" data-testid="providers-table">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col" className="text-column">
                Provider
              </th>
              <th scope="col">Sent</th>
              <th scope="col">Delivered</th>
              <th scope="col">Failed</th>
              <th scope="col">Bounced</th>
              <th scope="col">Failovers</th>
              <th scope="col">Retries</th>
              <th scope="col">p50</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            {data.providers.map((p) => (
              <tr key={`${p.channel}/${p.providerId}`}>
                <td>{CHANNEL_LABELS[p.channel]}</td>
                <th scope="row">
                  <code>{p.providerId}</code>
                </th>
                <td>{p.sent}</td>
                <td>{p.delivered}</td>
                <td>{p.failed}</td>
                <td>{p.bounced}</td>
                <td>{p.failovers}</td>
                <td>{p.retries}</td>
                <td>{duration(p.p50Ms)}</td>
                <td>{duration(p.p99Ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
