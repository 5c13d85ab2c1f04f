import { useMutation, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { FormAlert } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { sendFirstNotification, subscriberHash } from '../lib/first-notification';

const LiveInbox = lazy(() => import('./LiveInbox'));

/**
 * Step 3 of Get started: the person triggers a workflow to themselves and watches it arrive in
 * a live inbox on the page, the same `@sino/react` inbox their app would embed. The inbox opens
 * (and the person becomes a subscriber of the environment) only when they ask for it; the
 * trigger leaves once its socket is connected.
 */
export function FirstNotification({
  environmentName,
  applicationIdentifier,
  hmacRequired,
  apiKey,
}: {
  environmentName: string;
  applicationIdentifier: string;
  /** The environment's inbox requires `subscriberHash` (its in-app integration's HMAC). */
  hmacRequired: boolean;
  /** null for members, who may not read keys. */
  apiKey: string | null;
}) {
  const { token, user } = useSignedIn();
  const development = environmentName === 'Development';
  const inApp = useQuery({
    queryKey: ['in-app-status', token],
    queryFn: () => api<{ data: boolean }>('/v1/integrations/in-app/status').then((r) => r.data),
    enabled: development,
  });
  const active = inApp.data === true;
  const needsHash = hmacRequired;
  const hash = useQuery({
    queryKey: ['subscriber-hash', token, user._id],
    queryFn: () => subscriberHash(apiKey!, user._id),
    enabled: needsHash && apiKey !== null,
  });
  const send = useMutation({
    mutationFn: () =>
      sendFirstNotification({
        subscriberId: user._id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
      }),
  });
  const [inboxOpen, setInboxOpen] = useState(false);
  const [waitingForInbox, setWaitingForInbox] = useState(false);
  const { mutate } = send;
  const inboxLive = useCallback(() => {
    setWaitingForInbox(false);
    mutate();
  }, [mutate]);
  const start = () => {
    if (inboxOpen) {
      send.mutate();
      return;
    }
    setInboxOpen(true);
    setWaitingForInbox(true);
  };

  let body;
  if (!development) {
    body = (
      <p>
        Workflows are made in Development and reach Production by promotion: switch to the
        Development environment to send a test notification.
      </p>
    );
  } else if (inApp.isPending || hash.isLoading) {
    body = <Loading label="Loading the inbox…" />;
  } else if (inApp.isError) {
    body = <ErrorState message={inApp.error.message} retry={() => void inApp.refetch()} />;
  } else if (!active) {
    body = (
      <p>
        This environment has no active in-app integration: connect Sino&apos;s in-app provider in
        the Integrations store, then come back to send a notification.
      </p>
    );
  } else if (needsHash && apiKey === null) {
    body = (
      <p>
        This environment&apos;s inbox requires a subscriber hash (HMAC), made with the API key: ask
        an admin to send the first notification from here.
      </p>
    );
  } else {
    body = (
      <>
        <p>
          Send a notification to yourself through the workflow <code>sino-get-started</code> (made
          on the first send, with one in-app step) and see it arrive in the inbox below, live.
        </p>
        <div className="first-notification-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={send.isPending || waitingForInbox}
            onClick={start}
          >
            {waitingForInbox
              ? 'Connecting the inbox…'
              : send.isPending
                ? 'Sending…'
                : 'Send a notification to yourself'}
          </button>
          {send.isSuccess && (
            <p role="status" className="first-notification-sent">
              Triggered (transaction <code>{send.data}</code>): it arrives in the inbox below.
            </p>
          )}
        </div>
        <FormAlert message={send.error?.message ?? null} />
        {inboxOpen && (
          <div className="first-notification-inbox">
            <Suspense fallback={<Loading label="Loading the inbox…" />}>
              <LiveInbox
                applicationIdentifier={applicationIdentifier}
                subscriberId={user._id}
                subscriberHash={hash.data}
                onLive={waitingForInbox ? inboxLive : undefined}
              />
            </Suspense>
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="first-title" className="card">
      <h2 id="first-title">3. Send your first notification</h2>
      {body}
    </section>
  );
}
