import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { DeleteRecordDialog } from '../../../components/DeleteRecordDialog';
import { ErrorState, Loading } from '../../../components/States';
import { ProfileForm } from '../components/ProfileForm';
import { Credentials } from '../components/Credentials';
import { Preferences } from '../components/Preferences';
import { Feed } from '../components/Feed';
import { profileOf, updateBody, type ProfileValues } from '../lib/profile';
import { nameOf, subscriberPath, useSubscriber, when, type Subscriber } from '../lib/queries';

/** One subscriber: profile, channel credentials, preferences per workflow and in-app feed. */
export function SubscriberDetail() {
  const id = useParams().subscriberId!;
  const subscriber = useSubscriber(id);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);

  if (subscriber.isPending) return <Loading label="Loading the subscriber…" />;
  if (subscriber.isError) {
    const missing = subscriber.error instanceof ApiError && subscriber.error.status === 404;
    return (
      <div className="page records">
        <header className="records-header">
          <div>
            <p>
              <Link to="/subscribers">Subscribers</Link>
            </p>
            <h1 ref={heading} tabIndex={-1} className="wrap-anywhere">
              {id}
            </h1>
          </div>
        </header>
        {missing ? (
          <div className="card" role="status">
            <p className="records-empty">
              No subscriber has the ID {id} in this environment.{' '}
              <Link to="/subscribers">See the subscribers</Link>
            </p>
          </div>
        ) : (
          <ErrorState message={subscriber.error.message} retry={() => void subscriber.refetch()} />
        )}
      </div>
    );
  }
  return <Loaded subscriber={subscriber.data} headingRef={heading} />;
}

function Loaded({
  subscriber,
  headingRef,
}: {
  subscriber: Subscriber;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const id = subscriber.subscriberId;
  const save = useMutation({
    mutationFn: (values: ProfileValues) =>
      api<{ data: Subscriber }>(subscriberPath(id), { method: 'PUT', body: updateBody(values) }),
    onSuccess: (answer) => {
      queryClient.setQueryData(['subscriber', token, id], answer.data);
      void queryClient.invalidateQueries({ queryKey: ['subscribers', token] });
      setNotice('The profile was saved.');
    },
  });
  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <p>
            <Link to="/subscribers">Subscribers</Link>
          </p>
          <h1 ref={headingRef} tabIndex={-1}>
            {nameOf(subscriber)}
          </h1>
          <p className="muted">
            <code>{id}</code> · added {when(subscriber.createdAt)} ·{' '}
            {subscriber.isOnline
              ? 'online'
              : subscriber.lastOnlineAt
                ? `last online ${when(subscriber.lastOnlineAt)}`
                : 'never online'}
          </p>
        </div>
        <button type="button" className="button button-secondary" onClick={() => setDeleting(true)}>
          Delete the subscriber
        </button>
      </header>
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <ProfileForm
          // A saved answer starts the form afresh from what the server kept.
          key={subscriber.updatedAt}
          initial={profileOf(subscriber)}
          isNew={false}
          busy={save.isPending}
          error={save.error?.message}
          notice={notice}
          onSubmit={(values) => {
            setNotice(null);
            save.mutate(values);
          }}
        />
      </section>
      <Credentials subscriber={subscriber} />
      <Preferences subscriberId={id} />
      <Feed subscriberId={id} />
      {deleting && (
        <DeleteRecordDialog
          name={nameOf(subscriber)}
          apiPath={subscriberPath(subscriber.subscriberId)}
          recordKey={['subscriber', subscriber.subscriberId]}
          listKey="subscribers"
          listPath="/subscribers"
          onClose={() => setDeleting(false)}
        >
          <p>
            The subscriber <code>{subscriber.subscriberId}</code> goes with their messages,
            preferences and topic memberships. A later trigger or identify for the same ID makes a
            new subscriber.
          </p>
        </DeleteRecordDialog>
      )}
    </div>
  );
}
