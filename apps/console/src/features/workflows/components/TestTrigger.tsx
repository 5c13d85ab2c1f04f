import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { useSubscribers } from '../lib/queries';
import { parsePayload } from '../lib/payload';
import type { Workflow } from '../lib/types';
import type { Sample } from './SamplePayload';

interface TriggerAnswer {
  data: { acknowledged: boolean; status: string; transactionId?: string; error?: string[] };
}

/** Triggers the saved workflow for one subscriber with the sample payload (checked as JSON). */
export function TestTrigger({ workflow, sample }: { workflow: Workflow; sample: Sample }) {
  const subscribers = useSubscribers(true);
  const [subscriberId, setSubscriberId] = useState('');
  const [idError, setIdError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const identifier = workflow.triggers[0]?.identifier ?? '';
  const send = useMutation({
    mutationFn: ({ to, payload }: { to: string; payload: Record<string, unknown> }) =>
      api<TriggerAnswer>('/v1/events/trigger', {
        method: 'POST',
        body: { name: identifier, to: { subscriberId: to }, payload },
      }).then((r) => r.data),
  });

  return (
    <section className="card test-trigger" aria-labelledby="test-title">
      <h2 id="test-title">Test the workflow</h2>
      <p className="muted">
        Triggers <code>{identifier}</code> for a subscriber with the sample payload above, as your
        server would. {workflow.active ? '' : 'The workflow is inactive: activate it first.'}
      </p>
      {subscribers.isError && <FormAlert message={subscribers.error.message} />}
      <form
        noValidate
        aria-label="Test trigger"
        onSubmit={(event) => {
          event.preventDefault();
          send.reset();
          const to = subscriberId.trim();
          if (!to) {
            setIdError('Enter a subscriber ID');
            return;
          }
          if (to.length > 200) {
            setIdError('Use at most 200 characters');
            return;
          }
          setIdError(null);
          const parsed = parsePayload(sample.text);
          if (!parsed.ok) {
            setProblem(`Fix the sample payload first. ${parsed.error}`);
            return;
          }
          setProblem(null);
          send.mutate({ to, payload: parsed.value });
        }}
      >
        <div className="field">
          <label htmlFor={inputId}>Subscriber ID</label>
          <input
            id={inputId}
            list={`${inputId}-known`}
            autoComplete="off"
            value={subscriberId}
            aria-invalid={idError ? true : undefined}
            aria-describedby={idError ? `${inputId}-error` : `${inputId}-hint`}
            onChange={(event) => setSubscriberId(event.target.value)}
          />
          {/* Suggestions: the environment's first subscribers; any other ID may be typed. */}
          <datalist id={`${inputId}-known`}>
            {(subscribers.data ?? []).map((s) => (
              <option key={s.subscriberId} value={s.subscriberId}>
                {[s.firstName, s.lastName].filter(Boolean).join(' ') || s.subscriberId}
                {s.email ? ` (${s.email})` : ''}
              </option>
            ))}
          </datalist>
          {idError ? (
            <p id={`${inputId}-error`} className="field-error">
              {idError}
            </p>
          ) : (
            <p id={`${inputId}-hint`} className="hint">
              {subscribers.isPending
                ? 'Loading the subscribers to suggest…'
                : 'An ID this environment does not know yet is added by the trigger, as from your server.'}
            </p>
          )}
        </div>
        <FormAlert message={problem ?? send.error?.message} />
        {send.data &&
          (send.data.acknowledged && send.data.status === 'processed' ? (
            <FormNotice
              message={`Triggered: transaction ${send.data.transactionId ?? ''}. Follow it in the activity feed.`}
            />
          ) : (
            <FormAlert
              message={`Not sent (${send.data.status}). ${(send.data.error ?? []).join(' ')}`}
            />
          ))}
        <div className="workflow-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={send.isPending || !workflow.active}
          >
            {send.isPending ? 'Triggering…' : 'Run a test'}
          </button>
          {send.data?.transactionId && <Link to="/activity">Open the activity feed</Link>}
        </div>
      </form>
    </section>
  );
}
