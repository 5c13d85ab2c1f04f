import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError } from '../../../lib/api';
import { useRole } from '../../../lib/role';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { CopyButton } from '../../../components/CopyButton';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { CredentialsForm } from '../components/CredentialsForm';
import { ProviderHeading } from '../components/ProviderHeading';
import { TestSend } from '../components/TestSend';
import { ORDERED_CHANNELS, isSandbox, providerOf, type ProviderEntry } from '../lib/catalogue';
import {
  saveIntegration,
  useIntegrationChange,
  useIntegrations,
  type Integration,
} from '../lib/queries';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'The request failed.';

/** One integration: its state, test, webhook URL and credentials; an admin's controls. */
export function IntegrationDetail() {
  const { integrationId = '' } = useParams();
  const integrations = useIntegrations();
  const role = useRole();
  if (integrations.isPending || role.isPending) return <Loading label="Loading the integration…" />;
  if (integrations.isError)
    return (
      <ErrorState message={integrations.error.message} retry={() => void integrations.refetch()} />
    );
  if (role.isError)
    return <ErrorState message={role.error.message} retry={() => void role.refetch()} />;
  const integration = integrations.data.find((i) => i._id === integrationId);
  const entry = integration && providerOf(integration.channel, integration.providerId);
  if (!integration || !entry)
    return (
      <section className="integrations-panel">
        <h2>Integration not found</h2>
        <p>
          It may have been deleted. <Link to="/integrations">See all integrations</Link>.
        </p>
      </section>
    );
  return (
    <Detail
      key={integration._id}
      integration={integration}
      entry={entry}
      isAdmin={role.data === 'admin'}
    />
  );
}

function Detail({
  integration,
  entry,
  isAdmin,
}: {
  integration: Integration;
  entry: ProviderEntry;
  isAdmin: boolean;
}) {
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const id = encodeURIComponent(integration._id);
  const toggle = useIntegrationChange((active: boolean) =>
    saveIntegration(integration._id, { active }),
  );
  const makePrimary = useIntegrationChange(() =>
    api(`/v1/integrations/${id}/set-primary`, { method: 'POST' }),
  );
  const remove = useIntegrationChange(() => api(`/v1/integrations/${id}`, { method: 'DELETE' }));
  const save = useIntegrationChange((body: Record<string, unknown>) =>
    saveIntegration(integration._id, body),
  );
  const canBePrimary =
    ORDERED_CHANNELS.includes(integration.channel) && !isSandbox(integration.providerId);
  const actionError = toggle.error ?? makePrimary.error;

  return (
    <section className="integrations-panel" aria-labelledby="integration-title">
      <p>
        <Link to="/integrations">← All integrations</Link>
      </p>
      <ProviderHeading entry={entry} title={integration.name} id="integration-title" />
      <div className="state-line">
        <span className="badge" data-state={integration.active ? 'on' : 'off'}>
          {integration.active ? 'Active' : 'Inactive'}
        </span>
        {integration.primary && <span className="badge badge-primary">Primary</span>}
        <span className="muted">
          Identifier <code>{integration.identifier}</code>
        </span>
      </div>
      {integration.credentialsError && (
        <div role="alert" className="alert alert-error">
          The stored credentials cannot be read: {integration.credentialsError}. Enter them again.
        </div>
      )}

      {isAdmin && (
        <div className="card integration-actions">
          <h3>State</h3>
          <p className="muted">
            {ORDERED_CHANNELS.includes(integration.channel)
              ? 'Active integrations of a channel are tried in order: the primary first, then the others; a failure moves on to the next.'
              : 'Each active integration of this channel is used.'}
          </p>
          <div className="actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={toggle.isPending}
              onClick={() => {
                setNotice(null);
                makePrimary.reset();
                toggle.mutate(!integration.active, {
                  onSuccess: (saved) => setNotice(saved.active ? 'Activated.' : 'Deactivated.'),
                });
              }}
            >
              {integration.active ? 'Deactivate' : 'Activate'}
            </button>
            {canBePrimary && !(integration.primary && integration.active) && (
              <button
                type="button"
                className="button button-secondary"
                disabled={makePrimary.isPending}
                onClick={() => {
                  setNotice(null);
                  toggle.reset();
                  makePrimary.mutate(undefined, {
                    onSuccess: () => setNotice('It is now the primary: tried first.'),
                  });
                }}
              >
                Make primary
              </button>
            )}
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
            >
              Delete
            </button>
          </div>
          <FormAlert message={actionError ? messageOf(actionError) : null} />
          <FormNotice message={notice} />
        </div>
      )}

      {isAdmin && <TestSend integration={integration} />}

      <div className="card">
        <h3>Delivery webhook</h3>
        {integration.webhookUrl ? (
          <>
            <p className="muted">
              Paste this address into {entry.displayName}'s webhook settings so Sino learns what
              happened to each message.
            </p>
            <div className="webhook-url">
              <code>{integration.webhookUrl}</code>
              <CopyButton value={integration.webhookUrl} label="Copy the webhook URL" />
            </div>
            <p>
              {integration.webhookSigning === 'verified'
                ? 'Signed: Sino checks the provider’s signature on every call.'
                : 'Not signed: the provider does not sign its calls.'}
            </p>
          </>
        ) : (
          <p className="muted">
            No webhook to set: Sino reads no delivery webhook of {entry.displayName}, gives its
            address with each message, or knows no public address of its own.
          </p>
        )}
      </div>

      <div className="card">
        <h3>Credentials</h3>
        {isAdmin ? (
          <CredentialsForm
            entry={entry}
            initial={{ name: integration.name, credentials: integration.credentials }}
            offerActive={false}
            submitLabel="Save changes"
            busyLabel="Saving…"
            onSubmit={async (body) => {
              setNotice(null);
              await save.mutateAsync(body);
              setNotice('Saved.');
            }}
          />
        ) : (
          <StoredCredentials entry={entry} credentials={integration.credentials} />
        )}
      </div>

      {confirming && (
        <ConfirmDialog
          title={`Delete ${integration.name}?`}
          confirmLabel="Delete"
          busyLabel="Deleting…"
          busy={remove.isPending}
          error={remove.error ? messageOf(remove.error) : null}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => void navigate('/integrations'),
            })
          }
        >
          <p>
            Messages of its channel will no longer go through it. Its credentials are removed and
            cannot be recovered.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** A member's view of the credentials: as the server answers them, secrets masked. */
function StoredCredentials({
  entry,
  credentials,
}: {
  entry: ProviderEntry;
  credentials: Record<string, unknown>;
}) {
  if (entry.credentials.length === 0) return <p className="muted">No credentials.</p>;
  return (
    <dl className="stored-credentials">
      {entry.credentials.map((field) => {
        const value = credentials[field.key];
        return (
          <div key={field.key}>
            <dt>{field.displayName}</dt>
            <dd>
              {value === undefined || value === null || value === '' ? (
                <span className="muted">Not set</span>
              ) : (
                <code>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</code>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
