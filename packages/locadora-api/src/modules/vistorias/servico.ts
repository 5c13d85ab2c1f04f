import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { FUSO_HORARIO } from '@locadora/contract/dominio';
import type { VistoriaPedido } from '@locadora/contract/operacao';
import { conflito, entradaInvalida, naoEncontrada, naoEncontrado } from '../../erros.js';
import { diaLocalDepois } from '../infracoes/servico.js';
import { eventoDeManutencao, eventoDeVistoria } from '../../notificacoes/eventos.js';
import type { Repositorios } from '../../repositorios.js';
import type { RepositorioVistorias, VistoriaDetalhada, VistoriaRegistro } from './repositorio.js';

/** The search screen shows the vehicle's latest inspections, at most this many. */
export const MAXIMO_VISTORIAS_POR_BUSCA = 20;

/** Maintenance type of the order an inspection opens: 3, Reparo (TIPOS_MANUTENCAO). */
export const TIPO_MANUTENCAO_REPARO = 3;

/** Allowance for the clock of the inspector's device running a little ahead of the server's. */
export const TOLERANCIA_RELOGIO_MS = 5 * 60_000;

const SO_DATA = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A moment as requests send it: ISO date-time as is, a calendar date as midnight in Belo Horizonte. */
export function instanteDoPedido(valor: string): Date {
  const partes = SO_DATA.exec(valor);
  if (!partes) return new Date(valor);
  const [, ano, mes, dia] = partes.map(Number) as [number, number, number, number];
  return new Date(new TZDate(ano, mes - 1, dia, FUSO_HORARIO).getTime());
}

/**
 * Whether a moment as requests send it is in the future: a calendar date from the next local
 * day on (whatever the hour, so tomorrow's date is refused at 23:58 too), a date-time beyond
 * the allowance for a device's clock running ahead.
 */
export function noFuturo(valor: string, agora: Date): boolean {
  if (SO_DATA.test(valor)) return valor > diaLocalDepois(agora, 0);
  return new Date(valor).getTime() > agora.getTime() + TOLERANCIA_RELOGIO_MS;
}

/** 'dd/mm/aaaa hh:mm' in Belo Horizonte, for messages. */
export const dataHoraLocal = (instante: Date): string =>
  format(new TZDate(instante.getTime(), FUSO_HORARIO), 'dd/MM/yyyy HH:mm');

export interface DependenciasVistorias {
  repositorios: Pick<Repositorios, 'vistorias' | 'emTransacao'>;
  agora: () => Date;
}

interface DadosValidados {
  veiculoId: number;
  realizadaEm: Date;
  locacaoId: number | null;
}

export function criarServicoVistorias(deps: DependenciasVistorias) {
  const repo = deps.repositorios.vistorias;

  async function validar(
    r: RepositorioVistorias,
    dados: { veiculoId: number; data: string; locacaoId: number | null },
  ): Promise<DadosValidados> {
    if (!(await r.veiculo(dados.veiculoId)))
      throw entradaInvalida('id_veiculo', 'Veículo não encontrado.');
    const realizadaEm = instanteDoPedido(dados.data);
    if (noFuturo(dados.data, deps.agora()))
      throw entradaInvalida('data_vistoria', 'A data da vistoria não pode ser no futuro.');
    if (dados.locacaoId !== null) {
      const locacao = await r.locacao(dados.locacaoId);
      if (!locacao) throw entradaInvalida('id_locacao', 'Locação não encontrada.');
      if (locacao.veiculoId !== dados.veiculoId)
        throw entradaInvalida(
          'id_locacao',
          `A locação ${locacao.id} não é um contrato deste veículo.`,
        );
    }
    return { veiculoId: dados.veiculoId, realizadaEm, locacaoId: dados.locacaoId };
  }

  /**
   * Opens the repair order of an inspection: it blocks the vehicle until someone closes it.
   * Staff and the customer of the inspection's contract are told, in the same transaction.
   */
  async function abrirOrdem(
    tx: Repositorios,
    vistoria: VistoriaRegistro & { placa: string },
  ): Promise<void> {
    const ordem = await tx.manutencoes.inserir({
      veiculoId: vistoria.veiculoId,
      vistoriaId: vistoria.id,
      tipo: TIPO_MANUTENCAO_REPARO,
      descricao: `Aberta pela vistoria ${vistoria.id}: ${vistoria.descricao}`,
      inicio: vistoria.realizadaEm,
      previsaoTermino: null,
    });
    const outbox = tx.outbox;
    await outbox.registrar(
      eventoDeManutencao(
        { ...ordem, placa: vistoria.placa },
        await outbox.contratoDaManutencao(ordem),
      ),
    );
  }

  return {
    /** The vehicle's newest inspections, newest first. */
    async listarPorVeiculo(veiculoId: number): Promise<VistoriaDetalhada[]> {
      if (!(await repo.veiculo(veiculoId))) throw naoEncontrado('Veículo');
      return repo.listarPorVeiculo(veiculoId, MAXIMO_VISTORIAS_POR_BUSCA);
    },

    async buscar(id: number): Promise<VistoriaDetalhada> {
      const v = await repo.detalhada(id);
      if (!v) throw naoEncontrada('Vistoria');
      return v;
    },

    /** Registers an inspection and, when asked, its maintenance order in the same transaction. */
    async registrar(pedido: VistoriaPedido, usuarioId: number): Promise<VistoriaDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.vistorias;
        const dados = await validar(r, {
          veiculoId: pedido.id_veiculo,
          data: pedido.data_vistoria,
          locacaoId: pedido.id_locacao ?? null,
        });
        const vistoria = await r.inserir({
          ...dados,
          tipo: pedido.tipo,
          descricao: pedido.descricao,
          observacoes: pedido.observacoes,
          criaOrdemManutencao: pedido.cria_ordem_manut,
          quilometragem: pedido.quilometragem ?? null,
          registradaPor: usuarioId,
        });
        const detalhada = (await r.detalhada(vistoria.id))!;
        const outbox = tx.outbox;
        const contrato = dados.locacaoId === null ? null : await outbox.contrato(dados.locacaoId);
        await outbox.registrar(eventoDeVistoria(detalhada, contrato?.usuarioId ?? null));
        if (pedido.cria_ordem_manut) await abrirOrdem(tx, detalhada);
        return pedido.cria_ordem_manut ? (await r.detalhada(vistoria.id))! : detalhada;
      });
    },

    /**
     * Updates an inspection. Fields the spec's edit form does not send (`id_locacao`,
     * `quilometragem`) keep their value when absent; a contract link is dropped with a change
     * of vehicle, since the contract was the other vehicle's. Asking for a maintenance order
     * opens one only if the inspection has none yet.
     */
    async atualizar(id: number, pedido: VistoriaPedido): Promise<VistoriaDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.vistorias;
        const anterior = await r.porIdParaAlterar(id);
        if (!anterior) throw naoEncontrada('Vistoria');
        const trocouVeiculo = pedido.id_veiculo !== anterior.veiculoId;
        const dados = await validar(r, {
          veiculoId: pedido.id_veiculo,
          data: pedido.data_vistoria,
          locacaoId: pedido.id_locacao ?? (trocouVeiculo ? null : anterior.locacaoId),
        });
        const ordem = await r.ordemVinculada(id);
        if (trocouVeiculo && ordem !== undefined)
          throw conflito(
            `A vistoria tem a ordem de manutenção ${ordem} vinculada: o veículo não pode ser trocado.`,
            'id_veiculo',
          );
        await r.atualizar(id, {
          ...dados,
          tipo: pedido.tipo,
          descricao: pedido.descricao,
          observacoes: pedido.observacoes,
          // Unticking the box does not cancel an order already opened: that is done in Manutenção.
          criaOrdemManutencao: pedido.cria_ordem_manut || ordem !== undefined,
          quilometragem: pedido.quilometragem ?? anterior.quilometragem,
        });
        if (pedido.cria_ordem_manut && ordem === undefined) {
          const veiculo = (await r.veiculo(dados.veiculoId))!;
          await abrirOrdem(tx, {
            ...anterior,
            ...dados,
            descricao: pedido.descricao,
            placa: veiculo.placa,
          });
        }
        return (await r.detalhada(id))!;
      });
    },

    /** Deletes that inspection only; its maintenance order stays, unlinked. */
    async excluir(id: number): Promise<void> {
      if (!(await repo.excluir(id))) throw naoEncontrada('Vistoria');
    },
  };
}
export type ServicoVistorias = ReturnType<typeof criarServicoVistorias>;
