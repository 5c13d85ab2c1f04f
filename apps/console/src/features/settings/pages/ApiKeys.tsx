import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { CopyButton } from '../../../components/CopyButton';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { AdminsOnly } from '../components/AdminsOnly';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { isForbidden, useApiKeys, when, type ApiKey } from '../lib/queries';
import { masked } from '../lib/format';

/** How long a regeneration keeps the replaced keys working (the server's `graceSeconds`). */
const GRACE_CHOICES = [
  { value: 'default', label: "The installation's grace period (24 hours unless changed)" },
  { value: String(60 * 60), label: '1 hour' },
  { value: String(7 * 24 * 60 * 60), label: '7 days' },
  { value: '0', label: 'None: they stop at once' },
] as const;

/** The current environment's API keys (admins): shown masked, revealed, copied, made, retired. */
export function ApiKeys() {
  const keys = useApiKeys();
  const [notice, setNotice] = useState<string | null>(null);
  const [regenerating, setRegenerating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => api('/v1/environments/api-keys', { method: 'POST' }),
    onSuccess: () => {
      setNotice('A new API key was added.');
      void queryClient.invalidateQueries({ queryKey: ['api-keys', token] });
    },
  });

  if (keys.isPending) return <Loading label="Loading the API keys…" />;
  if (isForbidden(keys.error)) return <AdminsOnly what="the API keys" />;
  if (keys.isError)
    return <ErrorState message={keys.error.message} retry={() => void keys.refetch()} />;

  return (
    <section aria-labelledby="keys-title" className="settings-panel">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        The keys of the current environment. A key is a secret: use it from your servers only.
      </p>
      <div className="card">
        <div className="settings-actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={create.isPending}
            onClick={() => {
              setNotice(null);
              create.mutate();
            }}
          >
            {create.isPending ? 'Adding…' : 'Add a key'}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setNotice(null);
              setRegenerating(true);
            }}
          >
            Regenerate
          </button>
        </div>
        <FormAlert message={create.error?.message} />
        <FormNotice message={notice} />
        {keys.data.length === 0 ? (
          <p className="settings-empty">This environment has no API key: add one.</p>
        ) : (
          <ul className="settings-list">
            {keys.data.map((key, index) => (
              <KeyRow
                key={key._id}
                apiKey={key}
                number={index + 1}
                onRevoke={() => setRevoking(key)}
              />
            ))}
          </ul>
        )}
      </div>
      {regenerating && (
        <Regenerate
          onClose={() => setRegenerating(false)}
          onDone={(message) => {
            setNotice(message);
            setRegenerating(false);
          }}
        />
      )}
      {revoking && (
        <Revoke
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          onDone={() => {
            setNotice('The key was revoked.');
            setRevoking(null);
          }}
        />
      )}
    </section>
  );
}

function KeyRow({
  apiKey,
  number,
  onRevoke,
}: {
  apiKey: ApiKey;
  number: number;
  onRevoke: () => void;
}) {
  const [revealed, setRevealed] = useState(false);
  const label = `API key ${number}`;
  return (
    <li className="key-item" data-testid="api-key-row">
      <div className="key-value">
        <strong>{label}</strong>
        <code data-testid="api-key-value">{revealed ? apiKey.key : masked(apiKey.key)}</code>
        <p className="hint">
          Made {when(apiKey.createdAt)}.{' '}
          {apiKey.expiresAt ? (
            <span className="badge badge-warning">Stops {when(apiKey.expiresAt)}</span>
          ) : (
            <span className="badge">Active</span>
          )}
        </p>
      </div>
      <div className="settings-actions">
        <button
          type="button"
          className="button button-secondary"
          aria-pressed={revealed}
          aria-label={`${revealed ? 'Hide' : 'Reveal'} ${label}`}
          onClick={() => setRevealed((shown) => !shown)}
        >
          {revealed ? 'Hide' : 'Reveal'}
        </button>
        <CopyButton value={apiKey.key} label={`Copy ${label}`} />
        <button
          type="button"
          className="button button-secondary"
          aria-label={`Revoke ${label}`}
          onClick={onRevoke}
        >
          Revoke
        </button>
      </div>
    </li>
  );
}

function Regenerate({ onClose, onDone }: { onClose: () => void; onDone: (m: string) => void }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const graceId = useId();
  const [grace, setGrace] = useState<string>('default');
  const regenerate = useMutation({
    mutationFn: () =>
      api('/v1/environments/api-keys/regenerate', {
        method: 'POST',
        body: grace === 'default' ? {} : { graceSeconds: Number(grace) },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['api-keys', token] });
      onDone(
        grace === '0'
          ? 'A new key was made; the old keys stopped working.'
          : 'A new key was made; the old keys stop at the time shown beside them.',
      );
    },
  });
  return (
    <ConfirmDialog
      title="Regenerate the API key?"
      confirmLabel="Regenerate"
      busyLabel="Regenerating…"
      busy={regenerate.isPending}
      error={regenerate.error?.message ?? null}
      onConfirm={() => regenerate.mutate()}
      onClose={onClose}
    >
      <p>
        A new key is made, and every current key of this environment stops working after the grace
        period you choose. Put the new key in your servers before then.
      </p>
      <div className="field">
        <label htmlFor={graceId}>The old keys keep working for</label>
        <select id={graceId} value={grace} onChange={(event) => setGrace(event.target.value)}>
          {GRACE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
    </ConfirmDialog>
  );
}

function Revoke({
  apiKey,
  onClose,
  onDone,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onDone: () => void;
}) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      api(`/v1/environments/api-keys/${encodeURIComponent(apiKey._id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['api-keys', token] });
      onDone();
    },
  });
  return (
    <ConfirmDialog
      title="Revoke this API key?"
      confirmLabel="Revoke"
      busyLabel="Revoking…"
      busy={revoke.isPending}
      error={revoke.error?.message ?? null}
      onConfirm={() => revoke.mutate()}
      onClose={onClose}
    >
      <p>
        The key <code>{masked(apiKey.key)}</code> stops working at once, with no grace period.
        Anything still using it is refused.
      </p>
    </ConfirmDialog>
  );
}
