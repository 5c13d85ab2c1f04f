import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, failureMessage } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import type { Integration, TestOutcome } from '../lib/queries';

const E164 = /^\+[1-9][0-9]{7,14}$/;

/**
 * A real test message through this integration, active or not (decision 054): an e-mail to the
 * signed-in person's own address, an SMS to a number typed here. The provider's answer is
 * shown as it came.
 */
export function TestSend({ integration }: { integration: Integration }) {
  const { user } = useSignedIn();
  const id = useId();
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (to: string | undefined) =>
      api<{ data: TestOutcome }>(`/v1/integrations/${encodeURIComponent(integration._id)}/test`, {
        method: 'POST',
        ...(to !== undefined && { body: { to } }),
      }).then((r) => r.data),
    // A sandbox integration's test lands in the outbox: read it again when next shown.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sandbox-outbox'] }),
  });
  const { channel } = integration;
  if (channel !== 'email' && channel !== 'sms')
    return (
      <div className="card">
        <h3>Test</h3>
        <p className="muted">
          An {channel === 'in_app' ? 'in-app' : channel} message goes to a subscriber’s own
          {channel === 'chat' ? ' webhook' : channel === 'push' ? ' devices' : ' inbox'}, not to an
          address: trigger a workflow to a test subscriber to try it.
        </p>
        {channel !== 'in_app' && <CredentialCheck integration={integration} />}
      </div>
    );

  const outcome = send.data;
  return (
    <div className="card">
      <h3>Test</h3>
      <form
        className="test-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (channel === 'sms') {
            if (!E164.test(phone.trim())) {
              setPhoneError('Enter a phone number in E.164 form, such as +5511999990000');
              return;
            }
            setPhoneError(null);
            send.mutate(phone.trim());
          } else send.mutate(undefined);
        }}
      >
        {channel === 'email' ? (
          <p>
            Sends a short test e-mail to your own address, <strong>{user.email}</strong>.
          </p>
        ) : (
          <div className="field">
            <label htmlFor={id}>Phone number</label>
            <input
              id={id}
              type="tel"
              autoComplete="tel"
              value={phone}
              aria-invalid={phoneError ? true : undefined}
              aria-describedby={phoneError ? `${id}-error` : `${id}-hint`}
              onChange={(event) => setPhone(event.target.value)}
            />
            {phoneError ? (
              <p id={`${id}-error`} className="field-error">
                {phoneError}
              </p>
            ) : (
              <p id={`${id}-hint`} className="hint">
                The test SMS goes to this number, in E.164 form (+ and country code).
              </p>
            )}
          </div>
        )}
        <div>
          <button type="submit" className="button button-secondary" disabled={send.isPending}>
            {send.isPending
              ? 'Sending…'
              : channel === 'email'
                ? 'Send a test e-mail'
                : 'Send a test SMS'}
          </button>
        </div>
      </form>
      <FormAlert message={failureMessage(send.error)} />
      {outcome &&
        !send.isPending &&
        (outcome.ok ? (
          <FormNotice
            message={`Sent. The provider accepted it${outcome.providerMessageId ? ` as ${outcome.providerMessageId}` : ''}.`}
          />
        ) : (
          <FormAlert
            message={`Not sent${outcome.status !== null ? ` (${outcome.status})` : ''}: ${outcome.message}`}
          />
        ))}
      <CredentialCheck integration={integration} />
    </div>
  );
}

/**
 * Asks the provider whether the stored credentials work, sending nothing
 * (`POST /v1/integrations/:id/check`): for a key or a relay set up before any message is due.
 */
function CredentialCheck({ integration }: { integration: Integration }) {
  const check = useMutation({
    mutationFn: () =>
      api<{ data: { ok: boolean; message: string } }>(
        `/v1/integrations/${encodeURIComponent(integration._id)}/check`,
        { method: 'POST' },
      ).then((r) => r.data),
  });
  const outcome = check.data;
  return (
    <div className="credential-check">
      <button
        type="button"
        className="button button-secondary"
        disabled={check.isPending}
        onClick={() => check.mutate()}
      >
        {check.isPending ? 'Checking…' : 'Check the credentials'}
      </button>
      <p className="hint">Asks the provider whether they work; nothing is sent.</p>
      <FormAlert message={failureMessage(check.error)} />
      {outcome &&
        !check.isPending &&
        (outcome.ok ? (
          <FormNotice message={`The credentials work: ${outcome.message}`} />
        ) : (
          <FormAlert message={`The credentials do not work: ${outcome.message}`} />
        ))}
    </div>
  );
}
