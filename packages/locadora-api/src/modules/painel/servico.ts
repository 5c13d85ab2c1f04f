import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { startOfDay } from 'date-fns/startOfDay';
import { FUSO_HORARIO, STATUS_LOCACAO } from '@locadora/contract/dominio';
import {
  DIAS_DAS_MULTAS_EM_ABERTO,
  type PainelConsulta,
  type PainelSaida,
} from '@locadora/contract/painel';
import { centavosParaReais } from '@locadora/contract/preco';
import type { Repositorios } from '../../repositorios.js';

export interface DependenciasPainel {
  repositorios: Pick<Repositorios, 'painel'>;
  agora: () => Date;
}

/** Share of `parte` in `todo`, in %, one decimal; 0 for an empty whole (a category without cars). */
export const percentual = (parte: number, todo: number): number =>
  todo > 0 ? Math.round((parte * 1000) / todo) / 10 : 0;

export function criarServicoPainel(deps: DependenciasPainel) {
  const repo = deps.repositorios.painel;

  return {
    /**
     * The staff dashboard: every aggregate comes from SQL over the rental tables, all for one clock reading;
     * this only renames, converts cents to reais and derives shares and totals.
     */
    async resumo({ meses }: PainelConsulta): Promise<PainelSaida> {
      const agora = deps.agora();
      const hojeLocal = new TZDate(agora.getTime(), FUSO_HORARIO);
      const inicioDasMultas = startOfDay(addDays(hojeLocal, -DIAS_DAS_MULTAS_EM_ABERTO));
      const [porMes, porStatus, frota, multas] = await Promise.all([
        repo.porMes(agora, meses),
        repo.porStatus(agora, meses),
        repo.frotaPorCategoria(agora),
        repo.multasDesde(new Date(inicioDasMultas.getTime()), format(hojeLocal, 'yyyy-MM-dd')),
      ]);

      const soma = (valores: number[]) => valores.reduce((s, v) => s + v, 0);
      const ativos = soma(frota.map((c) => c.ativos));
      const retirados = soma(frota.map((c) => c.retirados));
      return {
        periodo: {
          meses,
          inicio: porMes[0]!.mes,
          fim: porMes.at(-1)!.mes,
          fuso: FUSO_HORARIO,
          geradoEm: agora.toISOString(),
        },
        reservasPorMes: porMes.map(({ mes, quantidade, canceladas }) => ({
          mes,
          quantidade,
          canceladas,
        })),
        receitaPorMes: porMes.map(({ mes, receitaCentavos }) => ({
          mes,
          valor: centavosParaReais(receitaCentavos),
        })),
        utilizacaoPorCategoria: frota.map((c) => ({
          id_categoria: c.id,
          categoria: c.descricao,
          veiculosAtivos: c.ativos,
          retirados: c.retirados,
          emManutencao: c.emManutencao,
          percentualUtilizacao: percentual(c.retirados, c.ativos),
          percentualEmManutencao: percentual(c.emManutencao, c.ativos),
        })),
        // Every status, in the lifecycle's order, zero when absent.
        reservasPorStatus: STATUS_LOCACAO.map((status) => ({
          status,
          quantidade: porStatus.find((s) => s.status === status)?.quantidade ?? 0,
        })),
        multasEmAberto: {
          quantidade: multas.quantidade,
          valorTotal: centavosParaReais(multas.valorCentavos),
          desde: format(inicioDasMultas, 'yyyy-MM-dd'),
          comPrazoDeIndicacaoAberto: multas.comPrazoAberto,
        },
        totais: {
          reservas: soma(porMes.map((m) => m.quantidade)),
          canceladas: soma(porMes.map((m) => m.canceladas)),
          receita: centavosParaReais(soma(porMes.map((m) => m.receitaCentavos))),
          veiculosAtivos: ativos,
          veiculosRetirados: retirados,
          veiculosEmManutencao: soma(frota.map((c) => c.emManutencao)),
          percentualUtilizacao: percentual(retirados, ativos),
        },
      };
    },
  };
}
export type ServicoPainel = ReturnType<typeof criarServicoPainel>;
