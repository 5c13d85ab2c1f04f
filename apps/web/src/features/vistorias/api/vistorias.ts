import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { VistoriaPedido, vistoriaSaidaSchema } from '@locadora/contract/operacao';
import { api } from '../../../lib/api';

export type Vistoria = z.infer<typeof vistoriaSaidaSchema>;

/** Navigation state from /vistoria to /vistoria2: the new inspection and the order it opened. */
export interface VistoriaRegistrada {
  registrada: number;
  ordem: number | null;
}

// Query keys: ['vistorias', vehicle id] here; ['manutencoes', ...] belongs to the maintenance
// screen, invalidated from here by its prefix when an inspection opens or drops an order.
const chaveDoVeiculo = (veiculoId: number) => ['vistorias', veiculoId] as const;

function depoisDeAlterar(queryClient: QueryClient, veiculoId: number, ordens: boolean) {
  void queryClient.invalidateQueries({ queryKey: chaveDoVeiculo(veiculoId) });
  if (ordens) void queryClient.invalidateQueries({ queryKey: ['manutencoes'] });
}

/** The vehicle's newest inspections (the server answers at most 20), newest first. */
export const useVistoriasDoVeiculo = (veiculoId: number | null) =>
  useQuery({
    queryKey: chaveDoVeiculo(veiculoId ?? 0),
    queryFn: ({ signal }) =>
      api<Vistoria[]>('/api/Vistorias', { consulta: { veiculo: veiculoId }, sinal: signal }),
    enabled: veiculoId !== null,
  });

export function useRegistrarVistoria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pedido: VistoriaPedido) =>
      api<Vistoria>('/api/Vistorias', { metodo: 'POST', corpo: pedido }),
    onSuccess: (v) => depoisDeAlterar(queryClient, v.id_veiculo, v.id_manutencao !== null),
  });
}

export function useAtualizarVistoria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, pedido }: { id: number; pedido: VistoriaPedido }) =>
      api<Vistoria>(`/api/Vistorias/${id}`, { metodo: 'PUT', corpo: pedido }),
    onSuccess: (v) => depoisDeAlterar(queryClient, v.id_veiculo, v.id_manutencao !== null),
    // A 404 (deleted meanwhile) or 409 leaves the list out of date: read it again.
    onError: (_erro, { pedido }) => depoisDeAlterar(queryClient, pedido.id_veiculo, false),
  });
}

export function useExcluirVistoria() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: Vistoria) => api<void>(`/api/Vistorias/${v.id_vistoria}`, { metodo: 'DELETE' }),
    // Its maintenance order stays, unlinked: the maintenance list changes too.
    onSettled: (_r, _e, v) => depoisDeAlterar(queryClient, v.id_veiculo, v.id_manutencao !== null),
  });
}
