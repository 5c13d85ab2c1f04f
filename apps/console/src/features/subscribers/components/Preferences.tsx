import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ErrorState, Loading } from '../../../components/States';
import { FormAlert } from '../../../components/FormAlert';
import {
  CHANNEL_LABEL,
  CHANNELS,
  subscriberPath,
  usePreferences,
  type Channel,
  type WorkflowPreference,
} from '../lib/queries';

type Change = { templateId: string } & (
  { channel: { type: Channel; enabled: boolean } } | { enabled: boolean }
);

/** What the subscriber receives of each active workflow, per channel; each box saves at once. */
export function Preferences({ subscriberId }: { subscriberId: string }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const preferences = usePreferences(subscriberId);
  const change = useMutation({
    mutationFn: ({ templateId, ...body }: Change) =>
      api(`${subscriberPath(subscriberId)}/preferences/${encodeURIComponent(templateId)}`, {
        method: 'PATCH',
        body,
      }),
    // The box shows the choice at once; the read after the answer shows what the server kept.
    onMutate: (change) => {
      queryClient.setQueryData<WorkflowPreference[]>(
        ['subscriber-preferences', token, subscriberId],
        (list) =>
          list?.map((item) =>
            item.template._id !== change.templateId
              ? item
              : {
                  ...item,
                  preference:
                    'channel' in change
                      ? {
                          ...item.preference,
                          channels: {
                            ...item.preference.channels,
                            [change.channel.type]: change.channel.enabled,
                          },
                        }
                      : { ...item.preference, enabled: change.enabled },
                },
          ),
      );
    },
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: ['subscriber-preferences', token, subscriberId],
      }),
  });

  return (
    <section className="card" aria-labelledby="preferences-title">
      <h2 id="preferences-title">Preferences</h2>
      <p className="muted">
        What this subscriber receives of each active workflow. Critical workflows are always sent.
      </p>
      {preferences.isPending ? (
        <Loading label="Loading the preferences…" />
      ) : preferences.isError ? (
        <ErrorState message={preferences.error.message} retry={() => void preferences.refetch()} />
      ) : preferences.data.length === 0 ? (
        <p className="records-empty">
          No active workflow yet: the preferences of each appear here once one is active.
        </p>
      ) : (
        <>
          <FormAlert message={change.error?.message} />
          <ul className="records-list">
            {preferences.data.map((item) => (
              <PreferenceRow
                key={item.template._id}
                item={item}
                busy={change.isPending}
                onChange={(c, done) =>
                  change.mutate({ templateId: item.template._id, ...c }, { onSettled: done })
                }
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function PreferenceRow({
  item,
  busy,
  onChange,
}: {
  item: WorkflowPreference;
  busy: boolean;
  onChange: (
    change: { channel: { type: Channel; enabled: boolean } } | { enabled: boolean },
    done: () => void,
  ) => void;
}) {
  const { template } = item;
  // The choice shows at once (set in the click itself) until the list is read again.
  const [draft, setDraft] = useState<{
    enabled?: boolean;
    channels?: Partial<Record<Channel, boolean>>;
  }>({});
  const preference = {
    enabled: draft.enabled ?? item.preference.enabled,
    channels: { ...item.preference.channels, ...draft.channels },
  };
  const channels = CHANNELS.filter((c) => preference.channels[c] !== undefined);
  const locked = template.critical || busy;
  return (
    <li data-testid="preference-row">
      <div>
        <strong className="wrap-anywhere">{template.name}</strong>
        {template.critical && <span className="tag"> Critical</span>}
      </div>
      <fieldset className="preference-channels">
        <legend className="visually-hidden">Channels of {template.name}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={preference.enabled}
            disabled={locked}
            onChange={(event) => {
              const enabled = event.target.checked;
              setDraft((d) => ({ ...d, enabled }));
              onChange({ enabled }, () => setDraft({}));
            }}
          />
          All
        </label>
        {channels.map((channel) => (
          <label key={channel} className="check">
            <input
              type="checkbox"
              checked={preference.channels[channel] ?? false}
              disabled={locked || !preference.enabled}
              onChange={(event) => {
                const enabled = event.target.checked;
                setDraft((d) => ({ ...d, channels: { ...d.channels, [channel]: enabled } }));
                onChange({ channel: { type: channel, enabled } }, () => setDraft({}));
              }}
            />
            {CHANNEL_LABEL[channel]}
          </label>
        ))}
      </fieldset>
    </li>
  );
}
