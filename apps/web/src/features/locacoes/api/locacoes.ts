import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StatusLocacao } from '@locadora/contract/dominio';
import type {
  CotacaoPedido,
  CotacaoSaida,
  LocacaoPedido,
  LocacaoSaida,
} from '@locadora/contract/locacoes';
import { api } from '../../../lib/api';

export type Locacao = LocacaoSaida;
export type Cotacao = CotacaoSaida;

const CHAVE = ['locacoes'] as const;

export const TAMANHO_DA_PAGINA = 10;

export interface FiltroDeLocacoes {
  pagina: number;
  status: StatusLocacao | '';
}

/**
 * Reservations, newest pickup first: a customer's own, every customer's for staff. The page on
 * screen stays while the next one loads, so the list does not jump.
 */
export const useLocacoes = ({ pagina, status }: FiltroDeLocacoes) =>
  useQuery({
    queryKey: [...CHAVE, 'lista', { pagina, status }],
    queryFn: ({ signal }) =>
      api<Locacao[]>('/api/Locacao', {
        consulta: { pagina, limite: TAMANHO_DA_PAGINA, status },
        sinal: signal,
      }),
    placeholderData: keepPreviousData,
  });

/** Books (no id) or changes (id) a reservation; the server prices it and checks availability. */
export function useGravarLocacao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, corpo }: { id: number | null; corpo: LocacaoPedido }) =>
      id === null
        ? api<Locacao>('/api/Locacao', { metodo: 'POST', corpo })
        : api<Locacao>(`/api/Locacao/${id}`, { metodo: 'PUT', corpo }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}

/** "Excluir": the server cancels the reservation (status 'cancelada') and keeps the record. */
export function useCancelarLocacao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Locacao>(`/api/Locacao/${id}`, { metodo: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}

/** "Calcular Total" confirmed by the server: the same price and how many vehicles are free. */
export const useCotacao = () =>
  useMutation({
    mutationFn: (corpo: CotacaoPedido) =>
      api<Cotacao>('/api/Locacao/cotacao', { metodo: 'POST', corpo }),
  });
