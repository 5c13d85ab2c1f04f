import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { useSignedIn } from './session';

export type Role = 'admin' | 'member';

/**
 * The signed-in person's role in the organisation (the same query, and cache, as the top
 * bar's): what decides which controls a section shows. The server's 403 still holds.
 */
export function useRole() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['me', token],
    queryFn: () => api<{ data: { role: Role } }>('/v1/users/me').then((r) => r.data),
    select: (me) => me.role,
  });
}
