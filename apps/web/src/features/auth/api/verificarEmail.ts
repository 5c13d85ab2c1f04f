import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Consumes the link's token: the address is confirmed (the link works once). */
export const useVerificarEmail = () =>
  useMutation({
    mutationFn: (token: string) =>
      api<void>('/api/Cadastro/verificar-email', { metodo: 'POST', corpo: { token } }),
  });
