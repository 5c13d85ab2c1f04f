import { Link } from 'react-router';
import { useRole } from '../../../lib/role';
import { ErrorState, Loading } from '../../../components/States';
import { ProviderLogo } from '../components/ProviderLogo';
import { CHANNELS, providersOf } from '../lib/catalogue';

/** The provider catalogue by channel: choosing one opens its connection form. */
export function Catalogue() {
  const role = useRole();
  if (role.isPending) return <Loading label="Loading the catalogue…" />;
  if (role.isError)
    return <ErrorState message={role.error.message} retry={() => void role.refetch()} />;
  return (
    <section className="integrations-panel" aria-labelledby="catalogue-title">
      <p>
        <Link to="/integrations">← All integrations</Link>
      </p>
      <h2 id="catalogue-title">Connect a provider</h2>
      {role.data !== 'admin' && (
        <p role="note" className="alert alert-error">
          Only admins can connect providers. Ask an admin of your organization.
        </p>
      )}
      <nav aria-label="Channels" className="channel-jump">
        {CHANNELS.map(({ id, label }) => (
          <a key={id} href={`#channel-${id}`}>
            {label}
          </a>
        ))}
      </nav>
      {CHANNELS.map(({ id, label }) => (
        <div key={id} className="channel-group">
          <h3 id={`channel-${id}`} tabIndex={-1}>
            {label}
          </h3>
          <ul className="provider-grid">
            {providersOf(id).map((entry) => (
              <li key={entry.id}>
                {role.data === 'admin' ? (
                  <Link className="provider-card" to={`/integrations/new/${id}/${entry.id}`}>
                    <ProviderLogo entry={entry} />
                    <span>{entry.displayName}</span>
                    {entry.betaVersion && <span className="badge badge-beta">Beta</span>}
                  </Link>
                ) : (
                  <span className="provider-card">
                    <ProviderLogo entry={entry} />
                    <span>{entry.displayName}</span>
                    {entry.betaVersion && <span className="badge badge-beta">Beta</span>}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
