import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { KIND_LABELS, kindOf, titleOf, TYPE_LABELS } from '../lib/diff';
import { when } from '../lib/format';
import { HISTORY_PAGE_SIZE, useChanges, useRollback, type Change } from '../lib/queries';
import { ChangeDiff } from './ChangeDiff';

/** The promotions made, newest first; admins roll one back (the server allows the latest of its entity only). */
export function History({ isAdmin }: { isAdmin: boolean }) {
  const [page, setPage] = useState(0);
  const changes = useChanges(true, page);
  const rollback = useRollback();
  const [asked, setAsked] = useState<Change | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (changes.isPending) return <Loading label="Loading the promotions…" />;
  if (changes.isError)
    return <ErrorState message={changes.error.message} retry={() => void changes.refetch()} />;
  const list = changes.data.data;
  const pages = Math.max(1, Math.ceil(changes.data.totalCount / HISTORY_PAGE_SIZE));

  return (
    <section aria-labelledby="history-title" className="changes-panel">
      <h2 id="history-title">Promoted changes</h2>
      <FormNotice message={done} />
      {list.length === 0 ? (
        <div className="card changes-empty">
          <h3>Nothing has been promoted yet</h3>
          <p className="muted">Promoted changes are listed here, newest first.</p>
        </div>
      ) : (
        <ul className="changes-list">
          {list.map((change) => {
            const title = titleOf(change);
            const kind = kindOf(change.change);
            return (
              <li key={change._id} className="card change" data-testid="promoted-change">
                <div className="change-head">
                  <div className="change-title">
                    <h3>{title}</h3>
                    <p className="muted">
                      {TYPE_LABELS[change.type]} · {KIND_LABELS[kind].toLowerCase()} · promoted{' '}
                      {change.appliedAt ? when(change.appliedAt) : ''}
                    </p>
                  </div>
                  {change.rolledBackAt ? (
                    <span className="change-kind change-kind-deleted">
                      Rolled back {when(change.rolledBackAt)}
                    </span>
                  ) : (
                    isAdmin && (
                      <button
                        type="button"
                        className="button button-secondary"
                        onClick={() => {
                          setDone(null);
                          setAsked(change);
                        }}
                      >
                        Roll back<span className="visually-hidden"> {title}</span>
                      </button>
                    )
                  )}
                </div>
                <details className="change-details">
                  <summary>What the promotion changed</summary>
                  <ChangeDiff entries={change.change} label={`Difference of ${title}`} />
                </details>
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 && (
        <nav aria-label="Pages of promoted changes" className="changes-pages">
          <button
            type="button"
            className="button button-secondary"
            disabled={page === 0}
            onClick={() => setPage((p) => p - 1)}
          >
            Newer
          </button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <button
            type="button"
            className="button button-secondary"
            disabled={page + 1 >= pages}
            onClick={() => setPage((p) => p + 1)}
          >
            Older
          </button>
        </nav>
      )}
      {asked && (
        <ConfirmDialog
          title={`Roll back the promotion of ${titleOf(asked)}?`}
          confirmLabel="Roll back"
          busyLabel="Rolling back…"
          busy={rollback.isPending}
          error={rollback.error?.message ?? null}
          onConfirm={() =>
            rollback.mutate(asked._id, {
              onSuccess: () => {
                setDone(`The promotion of ${titleOf(asked)} was rolled back.`);
                setAsked(null);
              },
            })
          }
          onClose={() => {
            setAsked(null);
            rollback.reset();
          }}
        >
          <p>
            Production gets back the state it had before this promotion
            {kindOf(asked.change) === 'added' ? ' (the copy is deleted)' : ''}. Development keeps
            its state, which waits to be promoted again.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
