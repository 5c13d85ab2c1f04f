import { Link, useSearchParams } from 'react-router';
import { Pager } from '../../../components/Pager';
import { ErrorState, Loading } from '../../../components/States';
import { PAGE_SIZE, useLayouts, when } from '../lib/layouts';

/** The environment's e-mail layouts, newest first; the default one marked. */
export function LayoutList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page')) || 0);
  const layouts = useLayouts(page);
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
        {layouts.isPending ? (
          <Loading label="Loading the layouts…" />
        ) : layouts.isError ? (
          <ErrorState message={layouts.error.message} retry={() => void layouts.refetch()} />
        ) : layouts.data.data.length === 0 ? (
          <p className="records-empty">
            {page === 0 ? (
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
              onPage={(next) => setParams(next === 0 ? {} : { page: String(next) })}
            />
          </>
        )}
      </div>
    </div>
  );
}
