import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ErrorState, Loading } from '../../../components/States';
import { FormAlert } from '../../../components/FormAlert';
import { Pager } from '../../../components/Pager';
import { subscriberPath, useFeed, when, type FeedMessage } from '../lib/queries';

/** The subscriber's in-app messages, newest first, with whether they saw and read each. */
export function Feed({ subscriberId }: { subscriberId: string }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const feed = useFeed(subscriberId, page);
  const mark = useMutation({
    mutationFn: ({ message, read }: { message: FeedMessage; read: boolean }) =>
      api(`${subscriberPath(subscriberId)}/messages/markAs`, {
        method: 'POST',
        body: { messageId: message._id, mark: read ? { seen: true, read } : { read } },
      }),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['subscriber-feed', token, subscriberId] }),
  });

  return (
    <section className="card" aria-labelledby="feed-title">
      <h2 id="feed-title">In-app feed</h2>
      {feed.isPending ? (
        <Loading label="Loading the feed…" />
      ) : feed.isError ? (
        <ErrorState message={feed.error.message} retry={() => void feed.refetch()} />
      ) : feed.data.data.length === 0 ? (
        <p className="records-empty">
          No in-app message yet: trigger a workflow with an in-app step for this subscriber.
        </p>
      ) : (
        <>
          <p className="muted">
            {feed.data.totalCount} {feed.data.totalCount === 1 ? 'message' : 'messages'}.
          </p>
          <FormAlert message={mark.error?.message} />
          <ul className="records-list">
            {feed.data.data.map((message) => (
              <li key={message._id} data-testid="feed-message">
                <div className="records-stack feed-item">
                  <span className="wrap-anywhere">{message.content}</span>
                  <span className="muted">
                    <code>{message.templateIdentifier}</code> · {when(message.createdAt)}{' '}
                    <span className="tag">{message.seen ? 'Seen' : 'Unseen'}</span>{' '}
                    <span className="tag">{message.read ? 'Read' : 'Unread'}</span>
                  </span>
                </div>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={mark.isPending}
                  onClick={() => mark.mutate({ message, read: !message.read })}
                >
                  {message.read ? 'Mark as unread' : 'Mark as read'}
                </button>
              </li>
            ))}
          </ul>
          <Pager page={page} hasMore={feed.data.hasMore} label="Feed pages" onPage={setPage} />
        </>
      )}
    </section>
  );
}
