import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorState, Loading } from '../../../components/States';
import { PAGE_SIZE, useIsProduction, useWorkflows } from '../lib/queries';
import { STEP_LABELS } from '../lib/types';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** The environment's workflows: searched by name, with their group, tags, steps and status. */
export function WorkflowList() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const page = Math.max(0, Number(params.get('page')) || 0);
  const [typed, setTyped] = useState(query);
  const searchId = useId();
  const workflows = useWorkflows(page, query);
  const production = useIsProduction();

  // The search follows the typing after a pause (one request per pause, not per key).
  useEffect(() => {
    if (typed.trim() === query) return;
    const timer = setTimeout(() => {
      const next = new URLSearchParams();
      if (typed.trim()) next.set('q', typed.trim());
      setParams(next, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, query, setParams]);

  const goTo = (n: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(n));
    setParams(next);
  };
  const readOnly = production.data === true;
  const total = workflows.data?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="page workflows">
      <div className="workflows-head">
        <h1>Workflows</h1>
        {!readOnly && production.isSuccess && (
          <Link className="button button-primary" to="new">
            Create a workflow
          </Link>
        )}
      </div>
      {readOnly && (
        <p className="alert alert-info">
          This is Production: its workflows change by promotion from Development, so they are shown
          here read-only.
        </p>
      )}
      <div className="field workflows-search">
        <label htmlFor={searchId}>Search workflows</label>
        <input
          id={searchId}
          type="search"
          value={typed}
          placeholder="Name or identifier"
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      {workflows.isPending ? (
        <Loading label="Loading the workflows…" />
      ) : workflows.isError ? (
        <ErrorState message={workflows.error.message} retry={() => void workflows.refetch()} />
      ) : workflows.data.data.length === 0 ? (
        <div className="card workflows-empty">
          {query ? (
            <p>No workflow matches “{query}”.</p>
          ) : (
            <>
              <p>This environment has no workflow yet.</p>
              {!readOnly && (
                <p>
                  A workflow is what your trigger names: its steps send in-app, e-mail, SMS, chat
                  and push messages, with digests and delays between them.{' '}
                  <Link to="new">Create your first workflow</Link>.
                </p>
              )}
            </>
          )}
        </div>
      ) : (
        <>
          <div className="table-wrap">
            <table className="workflows-table">
              <caption className="visually-hidden">Workflows, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Group</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Steps</th>
                  <th scope="col">Status</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {workflows.data.data.map((w) => (
                  <tr key={w._id} data-testid="workflow-row">
                    <th scope="row" data-label="Name">
                      <Link to={w._id}>{w.name}</Link>
                      <code className="workflow-identifier">{w.triggers[0]?.identifier}</code>
                    </th>
                    <td data-label="Group">{w.notificationGroup?.name ?? '—'}</td>
                    <td data-label="Tags">
                      {w.tags.length === 0
                        ? '—'
                        : w.tags.map((tag) => (
                            <span key={tag} className="tag">
                              {tag}
                            </span>
                          ))}
                    </td>
                    <td data-label="Steps">
                      {w.steps.length === 0
                        ? 'None'
                        : w.steps.map((s) => STEP_LABELS[s.template.type]).join(' → ')}
                    </td>
                    <td data-label="Status">
                      <span className={w.active ? 'status status-on' : 'status'}>
                        {w.active ? 'Active' : 'Inactive'}
                      </span>
                      {w.critical && <span className="status">Critical</span>}
                    </td>
                    <td data-label="Updated">{dateTime.format(new Date(w.updatedAt))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav className="pager" aria-label="Pages of workflows">
              <button
                type="button"
                className="button button-secondary"
                disabled={page === 0}
                onClick={() => goTo(page - 1)}
              >
                Previous
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button
                type="button"
                className="button button-secondary"
                disabled={page + 1 >= pages}
                onClick={() => goTo(page + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
