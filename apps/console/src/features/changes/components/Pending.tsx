import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { KIND_LABELS, kindOf, titleOf, TYPE_LABELS } from '../lib/diff';
import { when } from '../lib/format';
import { PENDING_PAGE_SIZE, useChanges, usePromote, type Change } from '../lib/queries';
import { ChangeDiff } from './ChangeDiff';

/** What waits to be promoted, each with its difference; admins promote one or all. */
export function Pending({
  isAdmin,
  target = 'Production',
}: {
  isAdmin: boolean;
  target?: string | undefined;
}) {
  const changes = useChanges(false, 0);
  const promote = usePromote();
  // One confirmation at a time: one change, or all those shown.
  const [asked, setAsked] = useState<Change[] | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (changes.isPending) return <Loading label="Loading the pending changes…" />;
  if (changes.isError)
    return <ErrorState message={changes.error.message} retry={() => void changes.refetch()} />;
  const list = changes.data.data;

  const close = () => {
    setAsked(null);
    promote.reset();
  };
  const confirm = () => {
    if (!asked) return;
    const names = asked.length === 1 ? titleOf(asked[0]!) : `${asked.length} changes`;
    promote.mutate(
      asked.map((c) => c._id),
      {
        onSuccess: () => {
          setAsked(null);
          setDone(`${names} promoted to ${target}.`);
        },
      },
    );
  };

  return (
    <section aria-labelledby="pending-title" className="changes-panel">
      <div className="changes-toolbar">
        <h2 id="pending-title">Waiting for promotion</h2>
        {isAdmin && list.length > 0 && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setDone(null);
              setAsked(list);
            }}
          >
            Promote all ({list.length})
          </button>
        )}
      </div>
      <FormNotice message={done} />
      {!isAdmin && list.length > 0 && (
        <p className="muted" data-testid="members-note">
          Only admins promote changes to {target}. Ask an admin of this organization.
        </p>
      )}
      {changes.data.totalCount > list.length && (
        <p className="muted">
          The oldest {PENDING_PAGE_SIZE} of {changes.data.totalCount} changes are shown; promote
          them to see the rest.
        </p>
      )}
      {list.length === 0 ? (
        <div className="card changes-empty">
          <h3>Nothing waits to be promoted</h3>
          <p className="muted">
            {target} has everything Development has. Create or edit a workflow, a group or a layout
            in Development and it will appear here.
          </p>
        </div>
      ) : (
        <ul className="changes-list">
          {list.map((change) => {
            const kind = kindOf(change.change);
            const title = titleOf(change);
            return (
              <li key={change._id} className="card change" data-testid="pending-change">
                <div className="change-head">
                  <div className="change-title">
                    <h3>{title}</h3>
                    <p className="muted">
                      {TYPE_LABELS[change.type]} · changed {when(change.updatedAt)}
                    </p>
                  </div>
                  <span className={`change-kind change-kind-${kind}`}>{KIND_LABELS[kind]}</span>
                  {isAdmin && (
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => {
                        setDone(null);
                        setAsked([change]);
                      }}
                    >
                      Promote<span className="visually-hidden"> {title}</span>
                    </button>
                  )}
                </div>
                <details className="change-details">
                  <summary>
                    Difference with {target} ({change.change.length}{' '}
                    {change.change.length === 1 ? 'entry' : 'entries'})
                  </summary>
                  <ChangeDiff entries={change.change} label={`Difference of ${title}`} />
                </details>
              </li>
            );
          })}
        </ul>
      )}
      {asked && (
        <ConfirmDialog
          title={
            asked.length === 1
              ? `Promote ${titleOf(asked[0]!)} to ${target}?`
              : `Promote ${asked.length} changes to ${target}?`
          }
          confirmLabel={asked.length === 1 ? 'Promote' : `Promote ${asked.length} changes`}
          busyLabel="Promoting…"
          busy={promote.isPending}
          error={promote.error?.message ?? null}
          onConfirm={confirm}
          onClose={close}
        >
          <p>
            {target} will take Development's current state of{' '}
            {asked.length === 1 ? 'it' : 'each of them'}: triggers there use it at once. A promotion
            can be rolled back from the Promoted tab.
          </p>
          {asked.length > 1 && (
            <ul className="confirm-list">
              {asked.map((c) => (
                <li key={c._id}>
                  {titleOf(c)} ({KIND_LABELS[kindOf(c.change)].toLowerCase()})
                </li>
              ))}
            </ul>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
