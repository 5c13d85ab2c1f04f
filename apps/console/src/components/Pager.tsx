/** Previous and next pages of a list (pages from 0, as Novu counts them). */
export function Pager({
  page,
  hasMore,
  onPage,
  label,
}: {
  page: number;
  hasMore: boolean;
  onPage: (page: number) => void;
  /** What is paged ("Subscribers pages"), for the navigation's name. */
  label: string;
}) {
  if (page === 0 && !hasMore) return null;
  return (
    <nav className="records-pager" aria-label={label}>
      <button
        type="button"
        className="button button-secondary"
        disabled={page === 0}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span className="muted">Page {page + 1}</span>
      <button
        type="button"
        className="button button-secondary"
        disabled={!hasMore}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
