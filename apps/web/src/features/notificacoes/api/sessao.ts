import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** What the bell needs to open the logged-in user's inbox in Sino; the server computes the hash. */
export interface SessaoDoSino {
  applicationIdentifier: string;
  subscriberId: string;
  subscriberHash: string;
}

/**
 * The inbox session of the account `usuarioId`. It does not change while the account is the
 * same, so it is read once per login (the key carries the account: another login reads again).
 */
export const useSessaoDoSino = (usuarioId: number) =>
  useQuery({
    queryKey: ['notificacoes', 'sessao', usuarioId],
    queryFn: () => api<SessaoDoSino>('/api/me/notificacoes'),
    staleTime: Infinity,
    gcTime: Infinity,
  });
