import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { infracaoSaidaSchema, infracaoSchema } from '@locadora/contract/operacao';
import { api } from '../../../lib/api';

export type Infracao = z.infer<typeof infracaoSaidaSchema>;
export type InfracaoPedido = z.output<typeof infracaoSchema>;

const CHAVE = ['infracoes'] as const;
export const chaveDoContrato = (contrato: number) => [...CHAVE, 'contrato', contrato] as const;

/** Fines of one contract (its customer or staff); 404 unknown or someone else's. */
export const useInfracoesDoContrato = (contrato: number | null) =>
  useQuery({
    queryKey: chaveDoContrato(contrato ?? 0),
    queryFn: ({ signal }) => api<Infracao[]>(`/api/infracoes/${contrato}`, { sinal: signal }),
    enabled: contrato !== null,
  });

export const LIMITE_RECENTES = 20;

/** Newest fines: staff see all, a customer those of their own contracts. */
export const useInfracoesRecentes = () =>
  useQuery({
    queryKey: [...CHAVE, 'recentes'],
    queryFn: ({ signal }) =>
      api<Infracao[]>('/api/infracoes', { consulta: { limite: LIMITE_RECENTES }, sinal: signal }),
  });

/** Staff: registers a fine by plate; the server finds the contract that had the vehicle. */
export function useRegistrarInfracao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dados: InfracaoPedido) =>
      api<Infracao>('/api/infracoes', { metodo: 'POST', corpo: dados }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHAVE }),
  });
}
