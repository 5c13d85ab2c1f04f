import { useQuery } from '@tanstack/react-query';
import type { LocalizacaoSaida } from '@locadora/contract/locacoes';
import { api } from '../../../lib/api';

export type Localizacao = LocalizacaoSaida;

interface ConfiguracaoDoWeb {
  mapa: { urlDosTiles: string; atribuicao: string };
}

/** Runtime settings of the deployment (the tile server of the map); read once per visit. */
export const useConfiguracao = () =>
  useQuery({
    queryKey: ['configuracao'],
    queryFn: ({ signal }) => api<ConfiguracaoDoWeb>('/api/configuracao', { sinal: signal }),
    staleTime: Infinity,
  });

/**
 * A reservation and its pickup place by number. Passing TanStack Query's signal to fetch lets a
 * lookup the person has typed past be aborted instead of finishing in the background.
 */
export const useLocalizacao = (id: number | null) =>
  useQuery({
    queryKey: ['localizacao', id],
    queryFn: ({ signal }) =>
      api<Localizacao>('/api/find-by-locacao', { consulta: { id_locacao: id }, sinal: signal }),
    enabled: id !== null,
  });
