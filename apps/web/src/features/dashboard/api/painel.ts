import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PainelSaida } from '@locadora/contract/painel';
import { api } from '../../../lib/api';

export type Painel = PainelSaida;

/** The dashboard's figures; the previous period stays on screen while another one loads. */
export const usePainel = (meses: number) =>
  useQuery({
    queryKey: ['painel', meses],
    queryFn: ({ signal }) => api<Painel>('/api/Dashboard', { consulta: { meses }, sinal: signal }),
    placeholderData: keepPreviousData,
  });

interface ConfiguracaoDoWeb {
  dashboard: { urlDoRelatorioBi: string | null };
}

/** Runtime settings of the deployment; the BI report is optional. */
export const useConfiguracao = () =>
  useQuery({
    queryKey: ['configuracao'],
    queryFn: () => api<ConfiguracaoDoWeb>('/api/configuracao'),
    staleTime: Infinity,
  });
