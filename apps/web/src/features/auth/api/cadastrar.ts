import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { cadastroSchema } from '@locadora/contract/contas';
import { api } from '../../../lib/api';

export type DadosDoCadastro = z.input<typeof cadastroSchema>;

export const useCadastrar = () =>
  useMutation({
    mutationFn: (dados: DadosDoCadastro) =>
      api<{ id: number; email: string }>('/api/Cadastro', { metodo: 'POST', corpo: dados }),
  });
