import { CopyButton } from '../../../components/CopyButton';
import { ErrorState, Loading } from '../../../components/States';
import { useSignedIn } from '../../../lib/session';
import { useEnvironments, when } from '../lib/queries';

/** The organisation's environments and their identifiers (the switcher on top changes the current one). */
export function Environments() {
  const environments = useEnvironments();
  const { environmentId } = useSignedIn();
  if (environments.isPending) return <Loading label="Loading the environments…" />;
  if (environments.isError)
    return (
      <ErrorState message={environments.error.message} retry={() => void environments.refetch()} />
    );
  const names = new Map(environments.data.map((e) => [e._id, e.name]));
  return (
    <section aria-labelledby="environments-title" className="settings-panel">
      <h2 id="environments-title">Environments</h2>
      <p className="muted">
        Each environment has its own workflows, integrations and keys. Changes made in one are
        promoted to the one that names it as its source. Switch environment from the top bar.
      </p>
      {environments.data.length === 0 ? (
        <p className="settings-empty card">This organization has no environment.</p>
      ) : (
        <div className="card">
          <ul className="settings-list">
            {environments.data.map((environment) => (
              <li key={environment._id} data-testid="environment-row">
                <div className="environment-item">
                  <h3>
                    {environment.name}
                    {environment._id === environmentId && <span className="badge">Current</span>}
                  </h3>
                  <dl className="environment-facts">
                    <div>
                      <dt>Application identifier</dt>
                      <dd>
                        <code>{environment.identifier}</code>
                        <CopyButton
                          value={environment.identifier}
                          label={`Copy the identifier of ${environment.name}`}
                        />
                      </dd>
                    </div>
                    <div>
                      <dt>Environment ID</dt>
                      <dd>
                        <code>{environment._id}</code>
                        <CopyButton
                          value={environment._id}
                          label={`Copy the ID of ${environment.name}`}
                        />
                      </dd>
                    </div>
                    {environment._parentId && (
                      <div>
                        <dt>Promoted from</dt>
                        <dd>{names.get(environment._parentId) ?? environment._parentId}</dd>
                      </div>
                    )}
                    <div>
                      <dt>Created</dt>
                      <dd>{when(environment.createdAt)}</dd>
                    </div>
                  </dl>
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
