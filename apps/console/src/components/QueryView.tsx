import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api';
import { ErrorState, Loading } from './States';

/**
 * One record's read, in its three states: loading, failed (the server's message and a retry; a
 * 404 is `notFound`, which says where to go instead) and loaded (`children` with the data).
 */
export function QueryView<T>({
  query,
  loading,
  notFound,
  children,
}: {
  query: UseQueryResult<T>;
  /** "Loading the tenant…" */
  loading: string;
  /** What a 404 shows: the record is not in this environment. */
  notFound: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404)
      return (
        <div className="card" role="status">
          {notFound}
        </div>
      );
    return <ErrorState message={query.error.message} retry={() => void query.refetch()} />;
  }
  return <>{children(query.data)}</>;
}
