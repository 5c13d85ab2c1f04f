import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { historicoSaidaSchema } from '@locadora/contract/locacoes';
import { api } from '../../../lib/api';

export type Historico = z.infer<typeof historicoSaidaSchema>;

const CHAVE = ['historico'] as const;
export const chaveDoContrato = (contrato: number) => [...CHAVE, 'contrato', contrato] as const;

/** One contract (its customer or staff); 404 unknown or someone else's. */
export const useHistoricoDoContrato = (contrato: number | null) =>
  useQuery({
    queryKey: chaveDoContrato(contrato ?? 0),
    queryFn: ({ signal }) => api<Historico>(`/api/Historico/${contrato}`, { sinal: signal }),
    enabled: contrato !== null,
  });

export const TAMANHO_DA_PAGINA = 20;

/** Contracts, newest pickup first (a customer's own; staff all), a page at a time. */
export const useHistorico = () =>
  useInfiniteQuery({
    queryKey: [...CHAVE, 'lista'],
    queryFn: ({ pageParam, signal }) =>
      api<Historico[]>('/api/Historico', {
        consulta: { pagina: pageParam, limite: TAMANHO_DA_PAGINA },
        sinal: signal,
      }),
    initialPageParam: 1,
    // A short page is the last one.
    getNextPageParam: (ultima, paginas) =>
      ultima.length === TAMANHO_DA_PAGINA ? paginas.length + 1 : undefined,
  });
