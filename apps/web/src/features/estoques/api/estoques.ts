import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { estoqueSaidaSchema, estoqueSchema } from '@locadora/contract/frota';
import { api } from '../../../lib/api';

export type Estoque = z.infer<typeof estoqueSaidaSchema>;
export type EstoquePedido = z.output<typeof estoqueSchema>;

const CHAVE = ['estoques'] as const;

/** Stock rows, ordered by model and colour by the server. */
export const useEstoques = () =>
  useQuery({
    queryKey: CHAVE,
    queryFn: ({ signal }) => api<Estoque[]>('/api/Estoques', { sinal: signal }),
  });

/** Creates (no id) or changes (id) a row; the list is read again either way. */
export function useGravarEstoque() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, dados }: { id: number | null; dados: EstoquePedido }) =>
      id === null
        ? api<Estoque>('/api/Estoques', { metodo: 'POST', corpo: dados })
        : api<Estoque>(`/api/Estoques/${id}`, { metodo: 'PUT', corpo: dados }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}

export function useExcluirEstoque() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/Estoques/${id}`, { metodo: 'DELETE' }),
    // A 404 means someone else deleted it first: the list must drop it too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}
