import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import type { Group, Layout, Subscriber, Workflow, WorkflowPage } from './types';

// The workflows section's reads, each keyed by the session's token (a switch of organisation or
// environment reads again).

export const PAGE_SIZE = 10;

export function useWorkflows(page: number, query: string) {
  const { token } = useSignedIn();
  const search = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (query) search.set('query', query);
  return useQuery({
    queryKey: ['workflows', token, page, query],
    queryFn: ({ signal }) => api<WorkflowPage>(`/v1/workflows?${search}`, { signal }),
    placeholderData: (previous) => previous,
  });
}

export function useWorkflow(id: string | undefined) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['workflow', token, id],
    queryFn: () =>
      api<{ data: Workflow }>(`/v1/workflows/${encodeURIComponent(id!)}`).then((r) => r.data),
    enabled: id !== undefined,
  });
}

export function useGroups() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['notification-groups', token],
    queryFn: () => api<{ data: Group[] }>('/v1/notification-groups').then((r) => r.data),
  });
}

export function useLayouts() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['layouts', token],
    queryFn: () =>
      api<{ data: Layout[] }>('/v1/layouts?page=0&pageSize=100&orderBy=1').then((r) => r.data),
  });
}

export function useSubscribers(enabled: boolean) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['subscribers', token, 'first-page'],
    queryFn: () =>
      api<{ data: Subscriber[] }>('/v1/subscribers?page=0&limit=100').then((r) => r.data),
    enabled,
  });
}

/** Production is written only by promotion: its workflows are read-only here. */
export function useIsProduction() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['environment', token],
    queryFn: () =>
      api<{ data: { _id: string; name: string; _parentId?: string } }>('/v1/environments/me').then(
        (r) => r.data,
      ),
    select: (environment) => Boolean(environment._parentId),
  });
}
