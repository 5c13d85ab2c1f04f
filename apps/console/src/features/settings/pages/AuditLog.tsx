import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ErrorState, Loading } from '../../../components/States';
import { AdminsOnly } from '../components/AdminsOnly';
import { describeAction } from '../lib/format';
import {
  isForbidden,
  nameOf,
  useMembers,
  when,
  type AuditEntry,
  type Member,
} from '../lib/queries';

const PAGE_SIZE = 20;

const ROLES: Record<string, string> = { admin: 'Admin', member: 'Member' };

/** The action, with what the page can name of its subject: a person, and a role given. */
function whatOf(entry: AuditEntry, people: Map<string, Member['user']>): string {
  let text = describeAction(entry.action);
  const person = entry.subject?.type === 'user' ? people.get(entry.subject._id) : undefined;
  if (person) text += `: ${nameOf(person)}`;
  const role = entry.details?.role;
  if (typeof role === 'string' && ROLES[role]) text += ` (${ROLES[role]})`;
  return text;
}

/** The organisation's audit log, newest first, a page at a time (admins). */
export function AuditLog() {
  const { token } = useSignedIn();
  // The cursors of the pages seen so far: the `before` of each (none for the first).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const log = useQuery({
    queryKey: ['audit-log', token, before ?? null],
    queryFn: () => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (before) query.set('before', before);
      return api<{ data: AuditEntry[]; hasMore: boolean }>(`/v1/audit-logs?${query}`);
    },
    placeholderData: keepPreviousData,
  });
  const members = useMembers();

  if (log.isPending) return <Loading label="Loading the audit log…" />;
  if (isForbidden(log.error)) return <AdminsOnly what="the audit log" />;
  if (log.isError)
    return <ErrorState message={log.error.message} retry={() => void log.refetch()} />;

  const people = new Map((members.data ?? []).map((m) => [m.user._id, m.user]));
  const who = (entry: AuditEntry) => {
    if (entry.actor.type === 'system') return 'Sino';
    if (entry.actor.type === 'api_key') return 'An API key';
    const person = entry.actor._id ? people.get(entry.actor._id) : undefined;
    return person ? nameOf(person) : 'A former member';
  };
  const page = cursors.length;
  const entries = log.data.data;

  return (
    <section aria-labelledby="audit-title" className="settings-panel">
      <h2 id="audit-title">Audit log</h2>
      <p className="muted">Who did what in your organization, and when; newest first.</p>
      <div className="card">
        {entries.length === 0 ? (
          <p className="settings-empty">Nothing has been recorded yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="settings-table" aria-describedby="audit-page">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry._id} data-testid="audit-entry">
                    <td data-label="When">
                      <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
                    </td>
                    <td data-label="Who">{who(entry)}</td>
                    <td data-label="What">{whatOf(entry, people)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="pager">
          <button
            type="button"
            className="button button-secondary"
            disabled={page === 1 || log.isFetching}
            onClick={() => setCursors((list) => list.slice(0, -1))}
          >
            Newer
          </button>
          <span id="audit-page" className="muted" aria-live="polite">
            Page {page}
          </span>
          <button
            type="button"
            className="button button-secondary"
            disabled={!log.data.hasMore || log.isFetching}
            onClick={() => setCursors((list) => [...list, entries.at(-1)!._id])}
          >
            Older
          </button>
        </div>
      </div>
    </section>
  );
}
