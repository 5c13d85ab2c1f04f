import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ManutencaoPedido,
  manutencaoSaidaSchema,
  vistoriaSaidaSchema,
} from '@locadora/contract/operacao';
import { api } from '../../../lib/api';

export type Manutencao = z.infer<typeof manutencaoSaidaSchema>;
export type Vistoria = z.infer<typeof vistoriaSaidaSchema>;

export type Situacao = 'todas' | 'abertas' | 'encerradas';

export interface FiltroDaLista {
  situacao: Situacao;
  veiculoId: number | null;
  pagina: number;
}

/** Orders per page of the list. */
export const POR_PAGINA = 20;

// Query keys: ['manutencoes', filter] here (the inspection screens invalidate the prefix when an
// inspection opens an order); ['vistorias', vehicle id] is the inspections screens' list.

/** Maintenance orders, newest start first. */
export const useManutencoes = (filtro: FiltroDaLista) =>
  useQuery({
    queryKey: ['manutencoes', filtro],
    queryFn: ({ signal }) =>
      api<Manutencao[]>('/api/Manutencao', {
        consulta: {
          id_veiculo: filtro.veiculoId,
          abertas: filtro.situacao === 'todas' ? undefined : filtro.situacao === 'abertas',
          pagina: filtro.pagina,
          limite: POR_PAGINA,
        },
        sinal: signal,
      }),
    // Paging or filtering keeps the rows on screen until the next ones arrive.
    placeholderData: keepPreviousData,
  });

/** The vehicle's latest inspections, to link an order to one of them. */
export const useVistoriasDoVeiculo = (veiculoId: number | null) =>
  useQuery({
    queryKey: ['vistorias', veiculoId ?? 0],
    queryFn: ({ signal }) =>
      api<Vistoria[]>('/api/Vistorias', { consulta: { veiculo: veiculoId }, sinal: signal }),
    enabled: veiculoId !== null,
  });

export function useRegistrarManutencao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pedido: ManutencaoPedido) =>
      api<Manutencao>('/api/Manutencao', { metodo: 'POST', corpo: pedido }),
    onSuccess: (m) => {
      void queryClient.invalidateQueries({ queryKey: ['manutencoes'] });
      // The linked inspection now shows its order.
      if (m.id_vistoria !== null)
        void queryClient.invalidateQueries({ queryKey: ['vistorias', m.id_veiculo] });
    },
  });
}

export function useEncerrarManutencao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (m: Manutencao) =>
      api<Manutencao>(`/api/Manutencao/${m.id_manutencao}/encerramento`, {
        metodo: 'POST',
        corpo: {},
      }),
    // Also after a refusal (closed elsewhere meanwhile): the list shows what is true now.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['manutencoes'] }),
  });
}
