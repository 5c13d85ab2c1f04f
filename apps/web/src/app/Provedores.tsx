import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { ErroDaApi } from '../lib/api';
import { ProvedorDeSessao } from '../lib/sessao';
import { ProvedorDeAvisos } from '../components/Avisos';

/** Only failures that may pass (network, 5xx) are retried; a 4xx answer will not change. */
const tentarDeNovo = (tentativas: number, erro: unknown) =>
  tentativas < 2 && erro instanceof ErroDaApi && (erro.status === 0 || erro.status >= 500);

export function Provedores({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { retry: tentarDeNovo, staleTime: 30_000, refetchOnWindowFocus: false },
          mutations: { retry: false },
        },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ProvedorDeSessao>
        <ProvedorDeAvisos>{children}</ProvedorDeAvisos>
      </ProvedorDeSessao>
    </QueryClientProvider>
  );
}
