import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** "Enviar Notificação": a test notification to oneself, sent through Sino by the server. */
export const useEnviarNotificacaoDeTeste = () =>
  useMutation({
    mutationFn: () => api<void>('/api/me/notificacoes/teste', { metodo: 'POST' }),
  });
