import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { veiculoSaidaSchema } from '@locadora/contract/frota';
import { api } from '../../../lib/api';

export type Veiculo = z.infer<typeof veiculoSaidaSchema>;

/** The whole fleet (inactive vehicles too: they are still inspected and repaired). */
export const useVeiculos = () =>
  useQuery({
    queryKey: ['veiculos', 'todos'],
    queryFn: ({ signal }) => api<Veiculo[]>('/api/Veiculos', { sinal: signal }),
    // The fleet changes seldom; the select need not refetch on every screen.
    staleTime: 5 * 60_000,
  });

/** 'RTA0A10 · Chevrolet Onix (Prata)': what staff read on the plate and recognise. */
export const rotuloDoVeiculo = (v: Veiculo): string =>
  `${v.placa} · ${v.marca} ${v.modelo} (${v.cor})${v.ativo ? '' : ' · inativo'}`;

/** The fleet grouped by category, each group by plate, for <optgroup>s. */
export function porCategoria(veiculos: readonly Veiculo[]): [string, Veiculo[]][] {
  const grupos = new Map<string, Veiculo[]>();
  for (const v of veiculos) grupos.set(v.categoria, [...(grupos.get(v.categoria) ?? []), v]);
  return [...grupos.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'pt-BR'))
    .map(([categoria, lista]) => [
      categoria,
      [...lista].sort((a, b) => a.placa.localeCompare(b.placa, 'pt-BR')),
    ]);
}
