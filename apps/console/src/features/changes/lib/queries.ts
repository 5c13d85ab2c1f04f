import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';

// The changes section's reads and writes (Novu's /v1/changes, decision 052), each keyed by the
// session's token, so a switch of organisation or environment reads again.

/** One entry of a change's difference (recursive-diff's form, as Novu answers it). */
export interface DiffEntry {
  op: 'add' | 'update' | 'delete';
  path: (string | number)[];
  val?: unknown;
  oldVal?: unknown;
}

export type ChangeType = 'NotificationTemplate' | 'NotificationGroup' | 'Layout' | 'Feed';

export interface Change {
  _id: string;
  _creatorId: string | null;
  _entityId: string;
  type: ChangeType;
  change: DiffEntry[];
  createdAt: string;
  updatedAt: string;
  templateName?: string;
  appliedAt: string | null;
  _appliedBy: string | null;
  rolledBackAt: string | null;
}

interface ChangePage {
  data: Change[];
  totalCount: number;
  page: number;
  pageSize: number;
}

interface EnvironmentSummary {
  _id: string;
  name: string;
  _parentId?: string;
}

export const PENDING_PAGE_SIZE = 100;
export const HISTORY_PAGE_SIZE = 20;

export function useChanges(promoted: boolean, page: number) {
  const { token } = useSignedIn();
  const limit = promoted ? HISTORY_PAGE_SIZE : PENDING_PAGE_SIZE;
  return useQuery({
    queryKey: ['changes', token, promoted, page],
    queryFn: () => api<ChangePage>(`/v1/changes?promoted=${promoted}&page=${page}&limit=${limit}`),
  });
}

/** How many changes wait (the navigation's badge and the section share it). */
export function useChangeCount() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['changes-count', token],
    queryFn: () => api<{ data: number }>('/v1/changes/count').then((r) => r.data),
    staleTime: 30_000,
  });
}

/**
 * The current environment and the one its changes come from: Production names Development as
 * its parent (decision 045); an environment without a parent is where changes are made.
 */
export function useEnvironmentPlace() {
  const { token, environmentId } = useSignedIn();
  return useQuery({
    queryKey: ['environments', token],
    queryFn: () => api<{ data: EnvironmentSummary[] }>('/v1/environments').then((r) => r.data),
    select: (environments) => {
      const current = environments.find((e) => e._id === environmentId);
      const source = current?._parentId
        ? environments.find((e) => e._id === current._parentId)
        : undefined;
      const target = environments.find((e) => e._parentId === environmentId);
      return { current, source, target };
    },
  });
}

/** Promotes one change, or several (oldest first, as the server applies them). */
export function usePromote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      ids.length === 1
        ? api(`/v1/changes/${encodeURIComponent(ids[0]!)}/apply`, { method: 'POST' })
        : api('/v1/changes/bulk/apply', { method: 'POST', body: { changeIds: ids } }),
    onSettled: () => invalidate(queryClient),
  });
}

export function useRollback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api(`/v1/changes/${encodeURIComponent(id)}/rollback`, { method: 'POST' }),
    onSettled: () => invalidate(queryClient),
  });
}

const invalidate = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['changes'] }),
    queryClient.invalidateQueries({ queryKey: ['changes-count'] }),
  ]);
