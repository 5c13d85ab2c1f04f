import type { EncerramentoManutencao, ManutencaoPedido } from '@locadora/contract/operacao';
import { reaisParaCentavos } from '@locadora/contract/preco';
import { conflito, entradaInvalida, naoEncontrada, naoEncontrado } from '../../erros.js';
import { dataHoraLocal, instanteDoPedido, noFuturo } from '../vistorias/servico.js';
import { eventoDeManutencao } from '../../notificacoes/eventos.js';
import type { Repositorios } from '../../repositorios.js';
import type {
  FiltroManutencoes,
  ManutencaoDetalhada,
  ManutencaoRegistro,
  NovaManutencao,
  RepositorioManutencoes,
} from './repositorio.js';

export interface DependenciasManutencoes {
  repositorios: Pick<Repositorios, 'manutencoes' | 'emTransacao'>;
  agora: () => Date;
}

/**
 * Maintenance orders. The vehicle is out of the available fleet from `inicio` until
 * `encerrada_em`, else until `previsao_termino`, else indefinitely: the reservations module
 * reads that from the table, so this service only keeps those three moments right.
 */
export function criarServicoManutencoes(deps: DependenciasManutencoes) {
  const repo = deps.repositorios.manutencoes;

  async function validar(
    r: RepositorioManutencoes,
    pedido: ManutencaoPedido,
    vistoriaId: number | null,
    atual?: ManutencaoRegistro,
  ): Promise<NovaManutencao> {
    if (!(await r.veiculo(pedido.id_veiculo)))
      throw entradaInvalida('id_veiculo', 'Veículo não encontrado.');
    if (vistoriaId !== null) {
      const vistoria = await r.vistoria(vistoriaId);
      if (!vistoria) throw entradaInvalida('id_vistoria', 'Vistoria não encontrada.');
      if (vistoria.veiculoId !== pedido.id_veiculo)
        throw entradaInvalida('id_vistoria', `A vistoria ${vistoria.id} é de outro veículo.`);
    }
    const inicio = instanteDoPedido(pedido.data_inicio);
    const previsaoTermino = pedido.previsao_termino
      ? instanteDoPedido(pedido.previsao_termino)
      : null;
    // Checked again on the instants: the schema compares the texts as sent (date vs date-time).
    if (previsaoTermino && previsaoTermino < inicio)
      throw entradaInvalida('previsao_termino', 'A previsão de término deve ser depois do início.');
    if (atual?.encerradaEm && inicio > atual.encerradaEm)
      throw entradaInvalida(
        'data_inicio',
        `O início não pode ser depois do encerramento da manutenção (${dataHoraLocal(atual.encerradaEm)}).`,
      );
    return {
      veiculoId: pedido.id_veiculo,
      vistoriaId,
      tipo: pedido.tipo,
      descricao: pedido.descricao,
      inicio,
      previsaoTermino,
      horasOficina: pedido.hora_oficina ?? null,
      valorNfCentavos: pedido.valor_nf === undefined ? null : reaisParaCentavos(pedido.valor_nf),
    };
  }

  async function detalhada(r: RepositorioManutencoes, id: number): Promise<ManutencaoDetalhada> {
    const m = await r.detalhada(id);
    if (!m) throw naoEncontrada('Manutenção');
    return m;
  }

  return {
    async registrar(pedido: ManutencaoPedido): Promise<ManutencaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.manutencoes;
        const criada = await r.inserir(await validar(r, pedido, pedido.id_vistoria ?? null));
        const ordem = await detalhada(r, criada.id);
        // Staff and the customer concerned hear of it if and only if the order commits.
        const outbox = tx.outbox;
        await outbox.registrar(eventoDeManutencao(ordem, await outbox.contratoDaManutencao(ordem)));
        return ordem;
      });
    },

    async listar(filtro: FiltroManutencoes): Promise<ManutencaoDetalhada[]> {
      if (filtro.veiculoId !== undefined && !(await repo.veiculo(filtro.veiculoId)))
        throw naoEncontrado('Veículo');
      return repo.listar(filtro);
    },

    buscar: (id: number) => detalhada(repo, id),

    /**
     * Replaces the order's fields. The link to an inspection keeps its value when
     * `id_vistoria` is absent (an order opened by an inspection stays linked), unless the
     * vehicle changes: that inspection was of the other vehicle.
     */
    async atualizar(id: number, pedido: ManutencaoPedido): Promise<ManutencaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.manutencoes;
        const atual = await r.porIdParaAlterar(id);
        if (!atual) throw naoEncontrada('Manutenção');
        const vistoriaId =
          pedido.id_vistoria ?? (pedido.id_veiculo === atual.veiculoId ? atual.vistoriaId : null);
        await r.atualizar(id, await validar(r, pedido, vistoriaId, atual));
        return detalhada(r, id);
      });
    },

    /** Closes the order (now, or at the moment given), which frees the vehicle from then on. */
    async encerrar(id: number, pedido: EncerramentoManutencao): Promise<ManutencaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.manutencoes;
        // Locked: a simultaneous closing or change of the start waits for this one.
        const atual = await r.porIdParaAlterar(id);
        if (!atual) throw naoEncontrada('Manutenção');
        if (atual.encerradaEm) throw conflito('Manutenção já encerrada.');
        const agora = deps.agora();
        const encerradaEm = pedido.encerrada_em ? instanteDoPedido(pedido.encerrada_em) : agora;
        if (encerradaEm < atual.inicio)
          throw entradaInvalida(
            'encerrada_em',
            `O encerramento não pode ser antes do início da manutenção (${dataHoraLocal(atual.inicio)}).`,
          );
        if (pedido.encerrada_em && noFuturo(pedido.encerrada_em, agora))
          throw entradaInvalida('encerrada_em', 'O encerramento não pode ser no futuro.');
        await r.encerrar(id, encerradaEm);
        return detalhada(r, id);
      });
    },

    async excluir(id: number): Promise<void> {
      if (!(await repo.excluir(id))) throw naoEncontrada('Manutenção');
    },
  };
}
export type ServicoManutencoes = ReturnType<typeof criarServicoManutencoes>;
