import { Link, useNavigate, useParams } from 'react-router';
import { useRole } from '../../../lib/role';
import { ErrorState, Loading } from '../../../components/States';
import { CredentialsForm } from '../components/CredentialsForm';
import { ProviderHeading } from '../components/ProviderHeading';
import { providerOf } from '../lib/catalogue';
import { createIntegration, useIntegrationChange } from '../lib/queries';

/** Connecting one provider: its credential form; saved, it opens the new integration. */
export function Connect() {
  const { channel = '', providerId = '' } = useParams();
  const entry = providerOf(channel, providerId);
  const role = useRole();
  const navigate = useNavigate();
  const create = useIntegrationChange(createIntegration);
  if (!entry)
    return (
      <section className="integrations-panel">
        <h2>Provider not found</h2>
        <p>
          The catalogue has no {channel} provider “{providerId}”.{' '}
          <Link to="/integrations/new">Choose one from the catalogue</Link>.
        </p>
      </section>
    );
  if (role.isPending) return <Loading />;
  if (role.isError)
    return <ErrorState message={role.error.message} retry={() => void role.refetch()} />;
  return (
    <section className="integrations-panel" aria-labelledby="connect-title">
      <p>
        <Link to="/integrations/new">← Catalogue</Link>
      </p>
      <ProviderHeading entry={entry} title={`Connect ${entry.displayName}`} id="connect-title" />
      {role.data === 'admin' ? (
        <div className="card">
          <CredentialsForm
            entry={entry}
            offerActive
            submitLabel="Connect"
            busyLabel="Connecting…"
            onSubmit={async (body) => {
              const created = await create.mutateAsync({
                providerId: entry.id,
                channel: entry.channel,
                ...body,
              });
              await navigate(`/integrations/${created._id}`);
            }}
          />
        </div>
      ) : (
        <p role="note" className="alert alert-error">
          Only admins can connect providers. Ask an admin of your organization.
        </p>
      )}
    </section>
  );
}
