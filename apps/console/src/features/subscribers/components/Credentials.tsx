import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Field } from '../../../components/Field';
import { TextAreaField } from '../../../components/TextAreaField';
import { FormAlert } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { credentialsBody, credentialsSchema, type CredentialsValues } from '../lib/credentials';
import {
  maskedSecret,
  subscriberPath,
  useMessagingProviders,
  type ChannelCredentials,
  type Subscriber,
} from '../lib/queries';

/**
 * The subscriber's chat and push credentials, per provider: webhook URLs and device tokens are
 * secrets (whoever has them can message the person), so they are shown masked until revealed.
 */
export function Credentials({ subscriber }: { subscriber: Subscriber }) {
  const [removing, setRemoving] = useState<ChannelCredentials | null>(null);
  return (
    <section className="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Channel credentials</h2>
      <p className="muted">
        Where chat and push messages reach this subscriber: a chat provider's webhook URL, a push
        provider's device tokens.
      </p>
      {subscriber.channels.length === 0 ? (
        <p className="records-empty">
          No chat or push provider has credentials yet: add some below.
        </p>
      ) : (
        <ul className="records-list">
          {subscriber.channels.map((channel) => (
            <CredentialRow
              key={`${channel.providerId}:${channel.integrationIdentifier ?? ''}`}
              channel={channel}
              onRemove={() => setRemoving(channel)}
            />
          ))}
        </ul>
      )}
      <AddCredentials subscriber={subscriber} />
      {removing && (
        <RemoveCredentials
          subscriber={subscriber}
          channel={removing}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}

function CredentialRow({
  channel,
  onRemove,
}: {
  channel: ChannelCredentials;
  onRemove: () => void;
}) {
  const [revealed, setRevealed] = useState(false);
  const { webhookUrl, channel: chatChannel, deviceTokens = [] } = channel.credentials;
  const show = (secret: string) => (revealed ? secret : maskedSecret(secret));
  const secret = Boolean(webhookUrl) || deviceTokens.length > 0;
  return (
    <li data-testid="credential-row">
      <div className="records-stack">
        <strong>
          {channel.providerId}
          {channel.integrationIdentifier && (
            <span className="muted"> · {channel.integrationIdentifier}</span>
          )}
        </strong>
        <dl className="credential-facts">
          {webhookUrl && (
            <div>
              <dt>Webhook URL</dt>
              <dd>
                <code>{show(webhookUrl)}</code>
              </dd>
            </div>
          )}
          {chatChannel && (
            <div>
              <dt>Channel</dt>
              <dd>{chatChannel}</dd>
            </div>
          )}
          {deviceTokens.length > 0 && (
            <div>
              <dt>
                {deviceTokens.length === 1
                  ? 'Device token'
                  : `${deviceTokens.length} device tokens`}
              </dt>
              {deviceTokens.map((token, index) => (
                <dd key={index}>
                  <code>{show(token)}</code>
                </dd>
              ))}
            </div>
          )}
        </dl>
      </div>
      <div className="records-actions">
        {secret && (
          <button
            type="button"
            className="button button-secondary"
            aria-pressed={revealed}
            aria-label={`${revealed ? 'Hide' : 'Reveal'} the credentials of ${channel.providerId}`}
            onClick={() => setRevealed((shown) => !shown)}
          >
            {revealed ? 'Hide' : 'Reveal'}
          </button>
        )}
        <button
          type="button"
          className="button button-secondary"
          aria-label={`Remove the credentials of ${channel.providerId}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </div>
    </li>
  );
}

/** Credentials are for a provider the environment has an active integration of (the server's rule). */
function AddCredentials({ subscriber }: { subscriber: Subscriber }) {
  const providers = useMessagingProviders();
  if (providers.isPending) return <Loading label="Loading the chat and push integrations…" />;
  if (providers.isError)
    return <ErrorState message={providers.error.message} retry={() => void providers.refetch()} />;
  if (providers.data.length === 0)
    return (
      <p className="records-empty add-credentials">
        This environment has no active chat or push integration: credentials can be set once an
        admin adds one in its integrations.
      </p>
    );
  const ids = [...new Set(providers.data.map((p) => p.providerId))];
  return <CredentialsForm subscriber={subscriber} providerIds={ids} />;
}

function CredentialsForm({
  subscriber,
  providerIds,
}: {
  subscriber: Subscriber;
  providerIds: string[];
}) {
  const { token } = useSignedIn();
  const providerId = useId();
  const queryClient = useQueryClient();
  const form = useForm<CredentialsValues>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { providerId: providerIds[0] ?? '', webhookUrl: '', deviceTokens: '' },
  });
  const save = useMutation({
    mutationFn: (values: CredentialsValues) =>
      api<{ data: Subscriber }>(`${subscriberPath(subscriber.subscriberId)}/credentials`, {
        method: 'PUT',
        body: credentialsBody(values),
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(['subscriber', token, subscriber.subscriberId], answer.data);
      form.reset({ providerId: form.getValues('providerId'), webhookUrl: '', deviceTokens: '' });
    },
  });
  const errors = form.formState.errors;
  return (
    <details className="add-credentials">
      <summary>Set a provider's credentials</summary>
      <form
        className="records-form"
        noValidate
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
      >
        <div className="field">
          <label htmlFor={providerId}>Provider</label>
          <select id={providerId} {...form.register('providerId')}>
            {providerIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Webhook URL"
          hint="Chat providers."
          type="url"
          autoComplete="off"
          error={errors.webhookUrl}
          {...form.register('webhookUrl')}
        />
        <div className="wide">
          <TextAreaField
            label="Device tokens"
            hint="Push providers: one a line. They replace the provider's stored tokens."
            spellCheck={false}
            error={errors.deviceTokens}
            {...form.register('deviceTokens')}
          />
        </div>
        <FormAlert message={save.error?.message} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save the credentials'}
          </button>
        </div>
      </form>
    </details>
  );
}

function RemoveCredentials({
  subscriber,
  channel,
  onClose,
}: {
  subscriber: Subscriber;
  channel: ChannelCredentials;
  onClose: () => void;
}) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      api(
        `${subscriberPath(subscriber.subscriberId)}/credentials/${encodeURIComponent(channel.providerId)}`,
        { method: 'DELETE' },
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({
        queryKey: ['subscriber', token, subscriber.subscriberId],
      });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Remove the credentials of ${channel.providerId}?`}
      confirmLabel="Remove"
      busyLabel="Removing…"
      busy={remove.isPending}
      error={remove.error?.message ?? null}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      <p>
        {channel.providerId} stops reaching this subscriber until their credentials are set again.
      </p>
    </ConfirmDialog>
  );
}
