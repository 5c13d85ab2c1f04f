import { Link } from 'react-router';
import { useRole } from '../../../lib/role';
import { ErrorState, Loading } from '../../../components/States';
import { ProviderLogo } from '../components/ProviderLogo';
import { CHANNELS, ORDERED_CHANNELS, isSandbox, providerOf } from '../lib/catalogue';
import { useIntegrations, type Integration } from '../lib/queries';

const ordinal = new Intl.PluralRules('en', { type: 'ordinal' });
const SUFFIX: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const nth = (n: number) => `${n}${SUFFIX[ordinal.select(n)] ?? 'th'}`;

/**
 * The place of each active integration in its channel's failover sequence. The server lists
 * them in delivery order (primary, priority, age); the sandbox is tried only when no real
 * provider is active, so it takes no place among them.
 */
function failoverPlaces(integrations: Integration[]): Map<string, number> {
  const places = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const i of integrations) {
    if (!i.active || !ORDERED_CHANNELS.includes(i.channel) || isSandbox(i.providerId)) continue;
    const n = (counts.get(i.channel) ?? 0) + 1;
    counts.set(i.channel, n);
    places.set(i._id, n);
  }
  return places;
}

/** The environment's integrations by channel, each with its status and place in the order. */
export function IntegrationList() {
  const integrations = useIntegrations();
  const role = useRole();
  if (integrations.isPending || role.isPending)
    return <Loading label="Loading the integrations…" />;
  if (integrations.isError)
    return (
      <ErrorState message={integrations.error.message} retry={() => void integrations.refetch()} />
    );
  if (role.isError)
    return <ErrorState message={role.error.message} retry={() => void role.refetch()} />;
  const isAdmin = role.data === 'admin';
  const places = failoverPlaces(integrations.data);
  return (
    <section className="integrations-panel" aria-labelledby="integrations-list">
      <div className="panel-heading">
        <h2 id="integrations-list">Integrations</h2>
        {isAdmin ? (
          <Link className="button button-primary" to="/integrations/new">
            Connect a provider
          </Link>
        ) : (
          <p className="muted">Only admins connect, change or remove integrations.</p>
        )}
      </div>
      {integrations.data.length === 0 && (
        <p className="muted">
          No integration yet.{' '}
          {isAdmin ? 'Connect a provider to start delivering.' : 'Ask an admin to connect one.'}
        </p>
      )}
      {CHANNELS.map(({ id, label }) => {
        const rows = integrations.data.filter((i) => i.channel === id);
        if (rows.length === 0) return null;
        return (
          <div key={id} className="channel-group">
            <h3>{label}</h3>
            <div className="table-wrap">
              <table className="integrations-table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Identifier</th>
                    <th scope="col">Status</th>
                    <th scope="col">Order</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((i) => {
                    const entry = providerOf(i.channel, i.providerId);
                    const place = places.get(i._id);
                    return (
                      <tr key={i._id}>
                        <th scope="row">
                          <span className="name-cell">
                            <ProviderLogo entry={entry} size={28} />
                            <Link to={`/integrations/${i._id}`}>{i.name}</Link>
                          </span>
                        </th>
                        <td data-label="Provider">{entry?.displayName ?? i.providerId}</td>
                        <td data-label="Identifier">
                          <code>{i.identifier}</code>
                        </td>
                        <td data-label="Status">
                          <span className="badge" data-state={i.active ? 'on' : 'off'}>
                            {i.active ? 'Active' : 'Inactive'}
                          </span>
                        </td>
                        <td data-label="Order">
                          {i.primary && <span className="badge badge-primary">Primary</span>}{' '}
                          {place !== undefined
                            ? `${nth(place)} tried`
                            : isSandbox(i.providerId) && i.active
                              ? 'When no other is active'
                              : '—'}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </div>
        );
      })}
    </section>
  );
}
