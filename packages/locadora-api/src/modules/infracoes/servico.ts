import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { FUSO_HORARIO } from '@locadora/contract/dominio';
import type { InfracaoPedido } from '@locadora/contract/operacao';
import { formatarPlaca } from '@locadora/contract/placa';
import { reaisParaCentavos } from '@locadora/contract/preco';
import { conflito, entradaInvalida, naoEncontrada, naoEncontrado } from '../../erros.js';
import { eventoDeMulta } from '../../notificacoes/eventos.js';
import type { Repositorios } from '../../repositorios.js';
import { ehEquipe, type UsuarioAutenticado } from '../contas/tipos.js';
import { visivelPara } from '../contas/visibilidade.js';
import type { InfracaoDetalhada } from './repositorio.js';

export interface DependenciasInfracoes {
  repositorios: Pick<Repositorios, 'infracoes' | 'emTransacao'>;
  agora: () => Date;
  /** Days the customer has to name the driver, counted from the day the fine is registered. */
  prazoIndicacaoCondutorDias: number;
}

type Solicitante = Pick<UsuarioAutenticado, 'id' | 'papel'>;

/** 'aaaa-mm-dd' of the local (Belo Horizonte) day `dias` after the day of `instante`. */
export function diaLocalDepois(instante: Date, dias: number): string {
  return format(addDays(new TZDate(instante.getTime(), FUSO_HORARIO), dias), 'yyyy-MM-dd');
}

export function criarServicoInfracoes(deps: DependenciasInfracoes) {
  const repo = deps.repositorios.infracoes;

  return {
    /**
     * Registers a fine by plate and moment and matches it to the contract that had the vehicle
     * then; without one it stays the company's own (id_locacao null).
     */
    async registrar(pedido: InfracaoPedido, registradaPor: number): Promise<InfracaoDetalhada> {
      const agora = deps.agora();
      const ocorridaEm = new Date(pedido.data_hora);
      if (ocorridaEm.getTime() > agora.getTime())
        throw entradaInvalida('data_hora', 'A data da infração não pode ser no futuro.');
      // One transaction: the fine and the customer's notice of it commit together.
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.infracoes;
        const veiculo = await r.veiculoPorPlaca(pedido.placa);
        if (!veiculo)
          throw entradaInvalida(
            'placa',
            `Nenhum veículo da frota com a placa ${formatarPlaca(pedido.placa)}.`,
          );
        // A notice registered twice would charge the customer twice.
        if (await r.jaRegistrada(veiculo.id, ocorridaEm, pedido.descricao))
          throw conflito(
            'Esta infração já foi registrada para este veículo neste horário.',
            'data_hora',
          );
        const id = await r.inserir({
          veiculoId: veiculo.id,
          locacaoId: (await r.contratoNoMomento(veiculo.id, ocorridaEm)) ?? null,
          ocorridaEm,
          descricao: pedido.descricao,
          valorCentavos: reaisParaCentavos(pedido.valor),
          local: pedido.local,
          prazoIndicacao: diaLocalDepois(agora, deps.prazoIndicacaoCondutorDias),
          registradaPor,
        });
        const infracao = (await r.porId(id))!;
        // A fine of no contract is the company's own: no customer to tell.
        if (infracao.locacaoId !== null) {
          const outbox = tx.outbox;
          const contrato = await outbox.contrato(infracao.locacaoId);
          if (contrato)
            await outbox.registrar(
              eventoDeMulta({ ...infracao, locacaoId: contrato.id }, contrato.usuarioId),
            );
        }
        return infracao;
      });
    },

    /** Staff see every fine; a customer only those of their own contracts. */
    listar(
      solicitante: Solicitante,
      filtro: { placa?: string | undefined; pagina: number; limite: number },
    ): Promise<InfracaoDetalhada[]> {
      return repo.listar({
        ...filtro,
        usuarioId: ehEquipe(solicitante) ? undefined : solicitante.id,
      });
    },

    /** The fines of one contract (the spec's look-up by contract number), its owner's or staff's. */
    async daLocacao(solicitante: Solicitante, locacaoId: number): Promise<InfracaoDetalhada[]> {
      visivelPara(solicitante, await repo.locacao(locacaoId), () => naoEncontrado('Contrato'));
      return repo.daLocacao(locacaoId);
    },

    async excluir(id: number): Promise<void> {
      if (!(await repo.excluir(id))) throw naoEncontrada('Infração');
    },
  };
}
export type ServicoInfracoes = ReturnType<typeof criarServicoInfracoes>;
