import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { categoriaSaidaSchema, categoriaSchema } from '@locadora/contract/frota';
import { api } from '../../../lib/api';

export type Categoria = z.infer<typeof categoriaSaidaSchema>;
export type CategoriaPedido = z.output<typeof categoriaSchema>;

// The same key as any other screen that reads the categories (booking), so a change here
// refreshes them there too.
const CHAVE = ['categorias'] as const;

/** Categories, ordered by description by the server. */
export const useCategorias = () =>
  useQuery({
    queryKey: CHAVE,
    queryFn: ({ signal }) => api<Categoria[]>('/api/Categorias', { sinal: signal }),
  });

/** Creates (no id) or changes (id) a category; the list is read again either way. */
export function useGravarCategoria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, dados }: { id: number | null; dados: CategoriaPedido }) =>
      id === null
        ? api<Categoria>('/api/Categorias', { metodo: 'POST', corpo: dados })
        : api<Categoria>(`/api/Categorias/${id}`, { metodo: 'PUT', corpo: dados }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}

/** A category with models or reservations answers 409 with the reason. */
export function useExcluirCategoria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/Categorias/${id}`, { metodo: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}
