import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ErrorState, Loading } from '../../../components/States';
import { FormAlert } from '../../../components/FormAlert';
import {
  CHANNEL_LABEL,
  CHANNELS,
  useOverrides,
  type ChannelSettings,
  type Override,
  type Tenant,
  type Workflow,
} from '../lib/tenants';

type Change = { workflow: Workflow; override: Override | undefined } & (
  { active: boolean } | { channel: keyof ChannelSettings; enabled: boolean } | { reset: true }
);

const everyChannel = (settings: Partial<ChannelSettings> = {}): ChannelSettings =>
  Object.fromEntries(CHANNELS.map((c) => [c, settings[c] ?? true])) as ChannelSettings;

/**
 * The tenant's workflow overrides: whether each workflow runs for this tenant and on which
 * channels. A workflow without one runs as it does for everyone (the server keeps them in
 * Development only; Production gets them by promotion).
 */
export function Overrides({ tenant }: { tenant: Tenant }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const overrides = useOverrides(tenant._id);
  const change = useMutation({
    mutationFn: async (c: Change) => {
      if ('reset' in c) {
        await api(`/v1/workflow-overrides/${c.override!._id}`, { method: 'DELETE' });
        return;
      }
      const settings = 'channel' in c ? { [c.channel]: c.enabled } : undefined;
      const body = {
        ...('active' in c && { active: c.active }),
        ...(settings && { preferenceSettings: settings }),
      };
      if (c.override) {
        await api(`/v1/workflow-overrides/${c.override._id}`, { method: 'PUT', body });
      } else {
        await api('/v1/workflow-overrides', {
          method: 'POST',
          body: {
            workflowId: c.workflow._id,
            tenantId: tenant._id,
            // A new override starts as the workflow is: only what was changed differs.
            active: 'active' in c ? c.active : c.workflow.active,
            preferenceSettings: { ...everyChannel(c.workflow.preferenceSettings), ...settings },
          },
        });
      }
    },
    // Pending until the list is read again, so the boxes never show the old state in between.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['tenant-overrides', token, tenant._id] }),
  });

  return (
    <section className="card" aria-labelledby="overrides-title">
      <h2 id="overrides-title">Workflow overrides</h2>
      <p className="muted">
        Turn a workflow or some of its channels off for this tenant only. Workflows without an
        override run as they do for everyone.
      </p>
      {overrides.isPending ? (
        <Loading label="Loading the workflows…" />
      ) : overrides.isError ? (
        <ErrorState message={overrides.error.message} retry={() => void overrides.refetch()} />
      ) : overrides.data.workflows.length === 0 ? (
        <p className="records-empty">No workflow yet: overrides are set per workflow.</p>
      ) : (
        <>
          <FormAlert message={change.error?.message} />
          <ul className="records-list">
            {overrides.data.workflows.map((workflow) => {
              const override = overrides.data.overrides.find((o) => o._workflowId === workflow._id);
              return (
                <OverrideRow
                  key={workflow._id}
                  workflow={workflow}
                  override={override}
                  busy={change.isPending}
                  onChange={(c, done) =>
                    change.mutate({ workflow, override, ...c }, { onSettled: done })
                  }
                />
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

type RowChange =
  { active: boolean } | { channel: keyof ChannelSettings; enabled: boolean } | { reset: true };

function OverrideRow({
  workflow,
  override,
  busy,
  onChange,
}: {
  workflow: Workflow;
  override: Override | undefined;
  busy: boolean;
  onChange: (change: RowChange, done: () => void) => void;
}) {
  // The choice shows at once (set in the click itself) until the list is read again.
  const [draft, setDraft] = useState<{ active?: boolean; channels?: Partial<ChannelSettings> }>({});
  const send = (change: RowChange) => {
    if ('active' in change) setDraft((d) => ({ ...d, active: change.active }));
    if ('channel' in change)
      setDraft((d) => ({ ...d, channels: { ...d.channels, [change.channel]: change.enabled } }));
    onChange(change, () => setDraft({}));
  };
  const active = draft.active ?? override?.active ?? workflow.active;
  const channels = {
    ...(override?.preferenceSettings ?? everyChannel(workflow.preferenceSettings)),
    ...draft.channels,
  };
  return (
    <li data-testid="override-row">
      <div>
        <strong className="wrap-anywhere">{workflow.name}</strong>{' '}
        <span className="tag">{override ? 'Overridden' : 'As for everyone'}</span>
      </div>
      <fieldset className="override-channels">
        <legend className="visually-hidden">{workflow.name} for this tenant</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={active}
            disabled={busy}
            onChange={(e) => send({ active: e.target.checked })}
          />
          Active
        </label>
        {CHANNELS.map((channel) => (
          <label key={channel} className="check">
            <input
              type="checkbox"
              checked={channels[channel]}
              disabled={busy || !active}
              onChange={(e) => send({ channel, enabled: e.target.checked })}
            />
            {CHANNEL_LABEL[channel]}
          </label>
        ))}
      </fieldset>
      {override && (
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          aria-label={`Remove the override of ${workflow.name}`}
          onClick={() => send({ reset: true })}
        >
          Remove the override
        </button>
      )}
    </li>
  );
}
