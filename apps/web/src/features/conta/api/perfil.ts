import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { perfilSchema, usuarioSaidaSchema } from '@locadora/contract/contas';
import { api } from '../../../lib/api';

export type Perfil = z.infer<typeof usuarioSaidaSchema>;
export type AlteracaoDePerfil = z.input<typeof perfilSchema>;

const CHAVE = ['me'] as const;

export const useMeuPerfil = () =>
  useQuery({ queryKey: CHAVE, queryFn: () => api<Perfil>('/api/me') });

export function useAtualizarPerfil() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dados: AlteracaoDePerfil) =>
      api<Perfil>('/api/me', { metodo: 'PATCH', corpo: dados }),
    onSuccess: (perfil) => queryClient.setQueryData(CHAVE, perfil),
  });
}

export const useExcluirConta = () =>
  useMutation({
    mutationFn: (senha: string) => api<void>('/api/me', { metodo: 'DELETE', corpo: { senha } }),
  });

/** LGPD export: everything the server holds about the user, saved as a JSON file. */
export const useBaixarMeusDados = () =>
  useMutation({
    mutationFn: async () => {
      const dados = await api<unknown>('/api/me/dados');
      const arquivo = new Blob([JSON.stringify(dados, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(arquivo);
      const link = document.createElement('a');
      link.href = url;
      link.download = `meus-dados-locadora-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    },
  });

/** "Reenviar": a new confirmation link to the account's address (at most one a minute). */
export const useReenviarConfirmacao = () =>
  useMutation({
    mutationFn: () => api<void>('/api/me/verificacao-de-email', { metodo: 'POST' }),
  });
