import { useState } from 'react';
import { Link } from 'react-router';
import { api, failureMessage } from '../../../lib/api';
import { useRole } from '../../../lib/role';
import { FormAlert } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { ProviderLogo } from '../components/ProviderLogo';
import { CHANNELS, ORDERED_CHANNELS, isSandbox, providerOf } from '../lib/catalogue';
import { useIntegrationChange, useIntegrations, type Integration } from '../lib/queries';

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

/** A change of a channel's failover sequence: the whole sequence, and what moved where. */
interface Reorder {
  channel: string;
  integrationIds: string[];
  announce: string;
}

/**
 * The environment's integrations by channel, each with its status and place in the order;
 * admins move an active one earlier or later in its channel's sequence.
 */
export function IntegrationList() {
  const integrations = useIntegrations();
  const role = useRole();
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const reorder = useIntegrationChange(({ channel, integrationIds }: Reorder) =>
    api('/v1/integrations/failover-order', { method: 'PUT', body: { channel, integrationIds } }),
  );
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
  const placeOf = (i: Integration) => places.get(i._id) ?? Number.MAX_SAFE_INTEGER;
  // Until the list is read again after a move, another move would start from a stale order.
  const busy = reorder.isPending || integrations.isFetching;
  const move = (channelLabel: string, sequence: Integration[], from: number, to: number) => {
    if (busy || to < 0 || to >= sequence.length) return;
    const ids = sequence.map((i) => i._id);
    const [moved] = ids.splice(from, 1);
    ids.splice(to, 0, moved!);
    setAnnouncement(null);
    reorder.mutate(
      {
        channel: sequence[0]!.channel,
        integrationIds: ids,
        announce: `${sequence[from]!.name} is now ${nth(to + 1)} tried for ${channelLabel}.`,
      },
      { onSuccess: (_, variables) => setAnnouncement(variables.announce) },
    );
  };
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
      <FormAlert message={failureMessage(reorder.error)} />
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {integrations.data.length === 0 && (
        <p className="muted">
          No integration yet.{' '}
          {isAdmin ? 'Connect a provider to start delivering.' : 'Ask an admin to connect one.'}
        </p>
      )}
      {CHANNELS.map(({ id, label }) => {
        // The sequence first, in its order; then the sandbox and the inactive ones.
        const rows = integrations.data
          .filter((i) => i.channel === id)
          .sort((x, y) => placeOf(x) - placeOf(y));
        if (rows.length === 0) return null;
        const sequence = rows.filter((i) => places.has(i._id));
        const movable = isAdmin && sequence.length > 1;
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
                          {movable && place !== undefined && (
                            <span className="order-moves">
                              <MoveButton
                                direction="earlier"
                                name={i.name}
                                unavailable={busy || place === 1}
                                onMove={() => move(label, sequence, place - 1, place - 2)}
                              />
                              <MoveButton
                                direction="later"
                                name={i.name}
                                unavailable={busy || place === sequence.length}
                                onMove={() => move(label, sequence, place - 1, place)}
                              />
                            </span>
                          )}
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

/**
 * One step of a move. Unavailable, it stays focusable (aria-disabled, not disabled): the
 * button pressed keeps the focus when its row reaches the end of the sequence.
 */
function MoveButton({
  direction,
  name,
  unavailable,
  onMove,
}: {
  direction: 'earlier' | 'later';
  name: string;
  unavailable: boolean;
  onMove: () => void;
}) {
  return (
    <button
      type="button"
      className="button button-secondary button-small"
      aria-label={`Move ${name} ${direction}`}
      title={`Move ${direction} in the failover order`}
      aria-disabled={unavailable}
      onClick={() => {
        if (!unavailable) onMove();
      }}
    >
      <span aria-hidden="true">{direction === 'earlier' ? '↑' : '↓'}</span>
    </button>
  );
}
