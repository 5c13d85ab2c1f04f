import { Link, useSearchParams } from 'react-router';
import { SearchRecords } from '../../../components/SearchRecords';
import { ErrorState, Loading } from '../../../components/States';
import { Pager } from '../../../components/Pager';
import { nameOf, useSubscribers, when } from '../lib/queries';

/**
 * The environment's subscribers, a page at a time, oldest first; searched on the server by
 * subscriber ID, name, e-mail or phone (`?search=` in the address).
 */
export function SubscriberList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page')) || 0);
  const search = params.get('search')?.trim() ?? '';
  const subscribers = useSubscribers(page, search);
  const go = (next: { page?: number; search?: string }) =>
    setParams({
      ...(next.search && { search: next.search }),
      ...((next.page ?? 0) > 0 && { page: String(next.page) }),
    });

  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <h1>Subscribers</h1>
          <p className="muted">
            The people your workflows notify, with their contact details, channels and preferences.
          </p>
        </div>
        <Link to="/subscribers/new" className="button button-primary">
          Add a subscriber
        </Link>
      </header>
      <div className="card">
        <SearchRecords
          label="Search by subscriber ID, name, e-mail or phone"
          search={search}
          onSearch={(next) => go({ search: next })}
        />
        {subscribers.isPending ? (
          <Loading label="Loading the subscribers…" />
        ) : subscribers.isError ? (
          <ErrorState
            message={subscribers.error.message}
            retry={() => void subscribers.refetch()}
          />
        ) : subscribers.data.data.length === 0 ? (
          <p className="records-empty">
            {search ? (
              <>
                No subscriber’s ID, name, e-mail or phone holds “{search}”.{' '}
                <Link to="/subscribers">Clear the search</Link>
              </>
            ) : page === 0 ? (
              <>
                No subscriber yet. <Link to="/subscribers/new">Add one</Link>, or let a trigger or
                your backend's <code>identify</code> call create them.
              </>
            ) : (
              <>
                This page is empty. <Link to="/subscribers">Go to the first page</Link>
              </>
            )}
          </p>
        ) : (
          <>
            <table className="records-table">
              <thead>
                <tr>
                  <th scope="col">Subscriber</th>
                  <th scope="col">Subscriber ID</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {subscribers.data.data.map((s) => (
                  <tr key={s._id}>
                    <th scope="row">
                      <Link to={`/subscribers/${encodeURIComponent(s.subscriberId)}`}>
                        {nameOf(s)}
                      </Link>
                    </th>
                    <td data-label="Subscriber ID">
                      <code>{s.subscriberId}</code>
                    </td>
                    <td data-label="E-mail">{s.email ?? '—'}</td>
                    <td data-label="Phone">{s.phone ?? '—'}</td>
                    <td data-label="Created">{when(s.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={page}
              hasMore={subscribers.data.hasMore}
              label="Subscriber pages"
              onPage={(next) => go({ page: next, search })}
            />
          </>
        )}
      </div>
    </div>
  );
}
