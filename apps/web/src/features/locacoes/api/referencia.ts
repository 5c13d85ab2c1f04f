import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { usuarioResumoSchema } from '@locadora/contract/contas';
import type {
  adicionalSaidaSchema,
  categoriaSaidaSchema,
  localSaidaSchema,
  modeloSaidaSchema,
} from '@locadora/contract/frota';
import { api } from '../../../lib/api';

export type Local = z.infer<typeof localSaidaSchema>;
export type Categoria = z.infer<typeof categoriaSaidaSchema>;
export type Modelo = z.infer<typeof modeloSaidaSchema>;
export type Adicional = z.infer<typeof adicionalSaidaSchema>;
export type Cliente = z.infer<typeof usuarioResumoSchema>;

// The catalogue changes seldom: five minutes fresh spares a request per visit. The keys are the
// ones other screens use for the same lists, so a change made there shows here.
const FRESCO_MS = 5 * 60_000;

export const useLocais = () =>
  useQuery({
    queryKey: ['locais'],
    queryFn: ({ signal }) => api<Local[]>('/api/Locais', { sinal: signal }),
    staleTime: FRESCO_MS,
  });

export const useCategorias = () =>
  useQuery({
    queryKey: ['categorias'],
    queryFn: ({ signal }) => api<Categoria[]>('/api/Categorias', { sinal: signal }),
    staleTime: FRESCO_MS,
  });

/** Every model, filtered by category in the form (one request instead of one per category). */
export const useModelos = () =>
  useQuery({
    queryKey: ['modelos'],
    queryFn: ({ signal }) => api<Modelo[]>('/api/Modelos', { sinal: signal }),
    staleTime: FRESCO_MS,
  });

export const useAdicionais = () =>
  useQuery({
    queryKey: ['adicionais'],
    queryFn: ({ signal }) => api<Adicional[]>('/api/Adicionais', { sinal: signal }),
    staleTime: FRESCO_MS,
  });

/** Staff booking for a customer: accounts whose name or e-mail contains `busca`. */
export const useClientes = (busca: string, habilitado: boolean) =>
  useQuery({
    queryKey: ['usuarios', 'busca', busca],
    queryFn: ({ signal }) =>
      api<Cliente[]>('/api/Usuarios', { consulta: { busca, limite: 20 }, sinal: signal }),
    enabled: habilitado,
    select: (usuarios) => usuarios.filter((u) => u.papel === 'cliente'),
  });
