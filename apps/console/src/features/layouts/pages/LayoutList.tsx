import { Link, useSearchParams } from 'react-router';
import { Pager } from '../../../components/Pager';
import { SearchRecords } from '../../../components/SearchRecords';
import { ErrorState, Loading } from '../../../components/States';
import { PAGE_SIZE, useLayouts, when } from '../lib/layouts';

/**
 * The environment's e-mail layouts, newest first; the default one marked; searched by name or
 * identifier on the server (`?search=` in the address).
 */
export function LayoutList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page')) || 0);
  const search = params.get('search')?.trim() ?? '';
  const layouts = useLayouts(page, search);
  const go = (next: { page?: number; search?: string }) =>
    setParams({
      ...(next.search && { search: next.search }),
      ...((next.page ?? 0) > 0 && { page: String(next.page) }),
    });
  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <h1>Layouts</h1>
          <p className="muted">
            The frame around your e-mails: a header, a footer, your styles. The default one holds
            every e-mail step that names no other.
          </p>
        </div>
        <Link to="/layouts/new" className="button button-primary">
          Create a layout
        </Link>
      </header>
      <div className="card">
        <SearchRecords
          label="Search by name or identifier"
          search={search}
          onSearch={(next) => go({ search: next })}
        />
        {layouts.isPending ? (
          <Loading label="Loading the layouts…" />
        ) : layouts.isError ? (
          <ErrorState message={layouts.error.message} retry={() => void layouts.refetch()} />
        ) : layouts.data.data.length === 0 ? (
          <p className="records-empty">
            {search ? (
              <>
                No layout’s name or identifier holds “{search}”.{' '}
                <Link to="/layouts">Clear the search</Link>
              </>
            ) : page === 0 ? (
              <>
                No layout yet. <Link to="/layouts/new">Create one</Link>: e-mails are sent in Sino's
                plain frame until then.
              </>
            ) : (
              'This page is empty.'
            )}
          </p>
        ) : (
          <>
            <table className="records-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Identifier</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {layouts.data.data.map((layout) => (
                  <tr key={layout._id}>
                    <th scope="row">
                      <Link to={`/layouts/${layout._id}`}>{layout.name}</Link>
                      {layout.isDefault && <span className="tag"> Default</span>}
                    </th>
                    <td data-label="Identifier">
                      <code>{layout.identifier}</code>
                    </td>
                    <td data-label="Updated">{when(layout.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={page}
              hasMore={(page + 1) * PAGE_SIZE < layouts.data.totalCount}
              label="Layout pages"
              onPage={(next) => go({ page: next, search })}
            />
          </>
        )}
      </div>
    </div>
  );
}
