import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { avaliacaoSchema, AvaliacaoSaida } from '@locadora/contract/operacao';
import { api } from '../../../lib/api';

export type Avaliacao = AvaliacaoSaida;
export type DadosDaAvaliacao = z.input<typeof avaliacaoSchema>;
export type AvaliacaoValidada = z.output<typeof avaliacaoSchema>;

const CHAVE = ['avaliacoes'] as const;
export const POR_PAGINA = 12;

/** Reviews, newest first, a page at a time ("Carregar mais"). */
export const useAvaliacoes = () =>
  useInfiniteQuery({
    queryKey: CHAVE,
    queryFn: ({ pageParam, signal }) =>
      api<Avaliacao[]>('/api/Avaliacao', {
        consulta: { pagina: pageParam, limite: POR_PAGINA },
        sinal: signal,
      }),
    initialPageParam: 1,
    // A short page is the last one.
    getNextPageParam: (ultima, paginas) =>
      ultima.length === POR_PAGINA ? paginas.length + 1 : undefined,
  });

export function useEnviarAvaliacao() {
  const queryClient = useQueryClient();
  return useMutation({
    // The schema's output carries the name as nomeExibicao; the API takes nomeUsuario.
    mutationFn: ({ nomeExibicao, ...dados }: AvaliacaoValidada) =>
      api<Avaliacao>('/api/Avaliacao', {
        metodo: 'POST',
        corpo: { ...dados, ...(nomeExibicao && { nomeUsuario: nomeExibicao }) },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}

export function useExcluirAvaliacao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/Avaliacao/${id}`, { metodo: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}

/** The account's contact data, to prefill the review form (same cache entry as /conta). */
export const useMeuContato = () =>
  useQuery({
    queryKey: ['me'],
    queryFn: () => api<{ email: string; telefone: string | null }>('/api/me'),
  });
