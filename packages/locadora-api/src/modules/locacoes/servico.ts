import { cnhHabilitaCarro } from '@locadora/contract/cnh';
import type { StatusLocacao } from '@locadora/contract/dominio';
import type {
  CotacaoPedido,
  CotacaoSaida,
  DevolucaoPedido,
  LocacaoPedido,
  RetiradaPedido,
} from '@locadora/contract/locacoes';
import {
  calcularOrcamento,
  centavosParaReais,
  formatarReais,
  reaisParaCentavos,
  type Orcamento,
} from '@locadora/contract/preco';
import { conflito, entradaInvalida, naoEncontrada, naoEncontrado, proibido } from '../../erros.js';
import { ehEquipe, type UsuarioAutenticado } from '../contas/tipos.js';
import { visivelPara } from '../contas/visibilidade.js';
import { eventoDeReserva } from '../../notificacoes/eventos.js';
import type { Repositorios } from '../../repositorios.js';
import { instanteLocal } from './conversao.js';
import type {
  LocacaoDetalhada,
  LocacaoRegistro,
  LocalRegistro,
  NovaLocacao,
  RepositorioLocacoes,
} from './repositorio.js';

export interface DependenciasLocacoes {
  repositorios: Pick<Repositorios, 'locacoes' | 'emTransacao'>;
  agora: () => Date;
  /** Hours kept free between a return and the next pickup of a vehicle. */
  intervaloEntreLocacoesHoras: number;
}

export const MENSAGEM_SEM_VEICULO =
  'Não há veículo disponível nesta categoria para o período escolhido.';

/** Why a reservation that is no longer 'reservada' cannot be changed or cancelled. */
function motivoDoStatus(status: StatusLocacao, acao: 'alterada' | 'cancelada'): string {
  switch (status) {
    case 'retirada':
      return `Esta locação já foi retirada e não pode ser ${acao}.`;
    case 'devolvida':
      return `Esta locação já foi devolvida e não pode ser ${acao}.`;
    case 'cancelada':
      return acao === 'cancelada'
        ? 'Esta locação já está cancelada.'
        : 'Esta locação foi cancelada e não pode ser alterada.';
    default:
      return `Esta locação não pode ser ${acao}.`;
  }
}

/** The booking form checked against the catalogue, with the instants and the price. */
interface PedidoConferido {
  local: { id: number; nome: string };
  categoriaId: number;
  descricaoCategoria: string;
  modeloId: number;
  nomeModelo: string;
  adicionalId: number;
  descricaoAdicional: string;
  inicio: Date;
  fim: Date;
  orcamento: Orcamento;
}

type CamposDoFormulario = Omit<CotacaoPedido, 'observacao'>;
type Catalogo = Awaited<ReturnType<RepositorioLocacoes['catalogoDoPedido']>>;

export function criarServicoLocacoes(deps: DependenciasLocacoes) {
  const repo = deps.repositorios.locacoes;

  const locacaoAusente = () => naoEncontrada('Locação');

  async function detalhada(r: RepositorioLocacoes, id: number): Promise<LocacaoDetalhada> {
    const l = await r.detalhada(id);
    if (!l) throw locacaoAusente();
    return l;
  }

  /**
   * Looks up everything the form names in one statement (`catalogoDoPedido`); with `travar`,
   * the category row stays locked until the transaction ends.
   */
  function catalogo(
    r: RepositorioLocacoes,
    pedido: CamposDoFormulario,
    travar: boolean,
    usuarioId?: number,
    reservarId = false,
  ): Promise<Catalogo> {
    return r.catalogoDoPedido({
      usuarioId,
      reservarId,
      localId: pedido.id_local,
      categoriaId: pedido.id_categoria,
      travarCategoria: travar,
      nomeModelo: pedido.modelo_veiculo,
      // The extra by id, else by its value in reais (the spec's form).
      adicional:
        pedido.id_adicional !== undefined
          ? { id: pedido.id_adicional }
          : { valorCentavos: reaisParaCentavos(pedido.custos_ad ?? 0) },
    });
  }

  /** The extra the form chose, or the reason it names none. */
  async function adicionalEscolhido(
    r: RepositorioLocacoes,
    pedido: CamposDoFormulario,
    adicional: Catalogo['adicional'],
  ) {
    if (adicional) return adicional;
    if (pedido.id_adicional !== undefined)
      throw entradaInvalida('id_adicional', 'Adicional não encontrado.');
    const valor = reaisParaCentavos(pedido.custos_ad ?? 0);
    const validos = (await r.valoresDosAdicionais())
      .map((v) => formatarReais(centavosParaReais(v)))
      .join(', ');
    throw entradaInvalida(
      'custos_ad',
      `Nenhum adicional custa ${formatarReais(centavosParaReais(valor))}. Valores aceitos: ${validos}.`,
    );
  }

  /**
   * Checks the place, category, model, extra and period against the catalogue (in this order,
   * the first problem answers) and prices the reservation.
   */
  async function conferirPedido(
    r: RepositorioLocacoes,
    pedido: CamposDoFormulario,
    c: Catalogo,
  ): Promise<PedidoConferido> {
    const { local, categoria, modelo } = c;
    if (!local) throw entradaInvalida('id_local', 'Local de retirada não encontrado.');
    if (!categoria) throw entradaInvalida('id_categoria', 'Categoria não encontrada.');
    if (!modelo) throw entradaInvalida('modelo_veiculo', 'Modelo não encontrado.');
    if (modelo.categoriaId !== categoria.id)
      throw entradaInvalida(
        'modelo_veiculo',
        `O modelo ${modelo.nome} não pertence à categoria ${categoria.descricao}.`,
      );
    const adicional = await adicionalEscolhido(r, pedido, c.adicional);
    const inicio = instanteLocal(pedido.data_retirada, pedido.hora_retirada);
    const fim = instanteLocal(pedido.data_entrega, pedido.hora_entrega);
    // Minute precision, as the form: a pickup within the current minute is not in the past.
    const inicioDoMinuto = Math.floor(deps.agora().getTime() / 60_000) * 60_000;
    if (inicio.getTime() < inicioDoMinuto)
      throw entradaInvalida('data_retirada', 'A retirada não pode ser no passado.');
    return {
      local,
      categoriaId: categoria.id,
      descricaoCategoria: categoria.descricao,
      modeloId: modelo.id,
      nomeModelo: modelo.nome,
      adicionalId: adicional.id,
      descricaoAdicional: adicional.descricao,
      inicio,
      fim,
      orcamento: calcularOrcamento({
        dataRetirada: pedido.data_retirada,
        dataEntrega: pedido.data_entrega,
        valorDiariaCentavos: categoria.valorDiariaCentavos,
        valorAdicionalCentavos: adicional.valorCentavos,
      }),
    };
  }

  /** Customers book for themselves; staff for anyone (checked before any lookup). */
  function conferirQuemReserva(usuario: UsuarioAutenticado, pedido: number | undefined) {
    if (pedido !== undefined && pedido !== usuario.id && !ehEquipe(usuario))
      throw proibido('Você não pode fazer reservas em nome de outro cliente.');
  }

  /** The customer a reservation is for, as the catalogue lookup found them. */
  function titular(u: Catalogo['usuario']) {
    if (!u || !u.ativo || u.anonimizadoEm)
      throw entradaInvalida('id_usuario', 'Cliente não encontrado.');
    return u;
  }

  function conferirCnh(
    u: { id: number; categoriaHabilitacao: string | null },
    usuario: UsuarioAutenticado,
  ) {
    if (u.categoriaHabilitacao && cnhHabilitaCarro(u.categoriaHabilitacao)) return;
    const quem = u.id === usuario.id ? 'Sua CNH' : 'A CNH do cliente';
    throw conflito(
      u.categoriaHabilitacao
        ? `${quem} (categoria ${u.categoriaHabilitacao}) não habilita a dirigir carros: é preciso categoria B ou superior.`
        : `${quem} não está cadastrada: informe uma CNH de categoria B ou superior para reservar.`,
    );
  }

  async function conferirDisponibilidade(
    r: RepositorioLocacoes,
    p: PedidoConferido,
    ignorarLocacaoId?: number,
  ): Promise<void> {
    const { livres } = await r.disponibilidade({
      categoriaId: p.categoriaId,
      inicio: p.inicio,
      fim: p.fim,
      intervaloHoras: deps.intervaloEntreLocacoesHoras,
      ignorarLocacaoId,
    });
    if (livres < 1) throw conflito(MENSAGEM_SEM_VEICULO);
  }

  function linhaDaReserva(
    p: PedidoConferido,
    observacao: string | null,
  ): Omit<NovaLocacao, 'usuarioId'> {
    return {
      localId: p.local.id,
      categoriaId: p.categoriaId,
      modeloId: p.modeloId,
      adicionalId: p.adicionalId,
      retiradaPrevista: p.inicio,
      entregaPrevista: p.fim,
      diarias: p.orcamento.diarias,
      valorDiariaCentavos: p.orcamento.valorDiariaCentavos,
      valorAdicionalCentavos: p.orcamento.valorAdicionalCentavos,
      valorTotalCentavos: p.orcamento.valorTotalCentavos,
      observacao,
    };
  }

  /** Reads and locks a reservation the caller may change. */
  async function paraAlterar(
    r: RepositorioLocacoes,
    usuario: UsuarioAutenticado,
    id: number,
  ): Promise<LocacaoRegistro> {
    return visivelPara(usuario, await r.porIdParaAlterar(id), locacaoAusente);
  }

  /** Customers list their own reservations; staff list all. Newest pickup first. */
  function listar(
    usuario: UsuarioAutenticado,
    filtro: { status?: StatusLocacao | undefined; pagina: number; limite: number },
  ): Promise<LocacaoDetalhada[]> {
    return repo.listar({ ...filtro, usuarioId: ehEquipe(usuario) ? undefined : usuario.id });
  }

  async function buscar(usuario: UsuarioAutenticado, id: number): Promise<LocacaoDetalhada> {
    return visivelPara(usuario, await repo.detalhada(id), locacaoAusente);
  }

  return {
    listar,
    buscar,

    /** The reservation and its pickup place, for the map. */
    async localizacao(
      usuario: UsuarioAutenticado,
      id: number,
    ): Promise<{ locacao: LocacaoDetalhada; local: LocalRegistro }> {
      const locacao = await buscar(usuario, id);
      const local = await repo.local(locacao.localId);
      // The foreign key keeps the place while a reservation points at it.
      if (!local) throw naoEncontrado('Local');
      return { locacao, local };
    },

    /** "Calcular Total": the price and how many vehicles are free, nothing written. */
    async cotar(pedido: CotacaoPedido): Promise<CotacaoSaida> {
      const p = await conferirPedido(repo, pedido, await catalogo(repo, pedido, false));
      const { livres } = await repo.disponibilidade({
        categoriaId: p.categoriaId,
        inicio: p.inicio,
        fim: p.fim,
        intervaloHoras: deps.intervaloEntreLocacoesHoras,
      });
      return {
        diarias: p.orcamento.diarias,
        vl_categoria: centavosParaReais(p.orcamento.valorDiariaCentavos),
        custos_ad: centavosParaReais(p.orcamento.valorAdicionalCentavos),
        vl_total: centavosParaReais(p.orcamento.valorTotalCentavos),
        disponiveis: livres,
      };
    },

    /**
     * Books a vehicle of the category. The form is checked against what it names, read without
     * locks; then one statement locks the category, counts its free vehicles and inserts the
     * reservation with its event (`inserirSeHouverVeiculo`), so two requests for the last free
     * vehicle cannot both win and the lock is never held across a round trip. Whatever changed
     * in between is held by the reservation's foreign keys (a place, model or extra deleted
     * meanwhile fails the insert).
     */
    async criar(usuario: UsuarioAutenticado, pedido: LocacaoPedido): Promise<LocacaoDetalhada> {
      conferirQuemReserva(usuario, pedido.id_usuario);
      const c = await catalogo(repo, pedido, false, pedido.id_usuario ?? usuario.id, true);
      const cliente = titular(c.usuario);
      const p = await conferirPedido(repo, pedido, c);
      conferirCnh(cliente, usuario);
      const linha = {
        ...linhaDaReserva(p, pedido.observacao),
        id: c.proximoId!,
        usuarioId: cliente.id,
      };
      const nomes = {
        nomeCliente: cliente.nome,
        nomeLocal: p.local.nome,
        descricaoCategoria: p.descricaoCategoria,
        nomeModelo: p.nomeModelo,
        descricaoAdicional: p.descricaoAdicional,
        placa: null,
        modeloDoVeiculo: null,
      };
      // With the reservation, in the same statement: the customer hears of the booking if
      // and only if it commits.
      const evento = eventoDeReserva('reserva-confirmada', { ...linha, ...nomes });
      const criada = await repo.inserirSeHouverVeiculo(
        linha,
        { intervaloHoras: deps.intervaloEntreLocacoesHoras },
        evento,
      );
      if (!criada) throw conflito(MENSAGEM_SEM_VEICULO);
      // The names were read just before: no need to read the new row back.
      return { ...criada, ...nomes };
    },

    /** Changes a reservation before pickup; the price is recomputed and availability re-checked. */
    async alterar(
      usuario: UsuarioAutenticado,
      id: number,
      pedido: LocacaoPedido,
    ): Promise<LocacaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.locacoes;
        const atual = await paraAlterar(r, usuario, id);
        if (atual.status !== 'reservada') throw conflito(motivoDoStatus(atual.status, 'alterada'));
        conferirQuemReserva(usuario, pedido.id_usuario);
        const c = await catalogo(r, pedido, true, pedido.id_usuario ?? atual.usuarioId);
        const cliente = titular(c.usuario);
        const p = await conferirPedido(r, pedido, c);
        conferirCnh(cliente, usuario);
        await conferirDisponibilidade(r, p, id);
        await r.atualizar(id, {
          ...linhaDaReserva(p, pedido.observacao),
          usuarioId: cliente.id,
          atualizadoEm: deps.agora(),
        });
        const alterada = await detalhada(r, id);
        await tx.outbox.registrar(eventoDeReserva('reserva-alterada', alterada));
        return alterada;
      });
    },

    /** Cancels before pickup; the record is kept (it is a contract). */
    async cancelar(usuario: UsuarioAutenticado, id: number): Promise<LocacaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.locacoes;
        const atual = await paraAlterar(r, usuario, id);
        if (atual.status !== 'reservada') throw conflito(motivoDoStatus(atual.status, 'cancelada'));
        const agora = deps.agora();
        await r.atualizar(id, { status: 'cancelada', canceladaEm: agora, atualizadoEm: agora });
        const cancelada = await detalhada(r, id);
        await tx.outbox.registrar(eventoDeReserva('reserva-cancelada', cancelada));
        return cancelada;
      });
    },

    /**
     * Pickup (staff): assigns a vehicle of the reservation's category that is active, not in
     * the workshop and not out with another contract; the one asked for, or the first free.
     */
    async retirar(id: number, pedido: RetiradaPedido): Promise<LocacaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.locacoes;
        const atual = await r.porIdParaAlterar(id);
        if (!atual) throw locacaoAusente();
        if (atual.status !== 'reservada')
          throw conflito(
            atual.status === 'retirada'
              ? 'Esta locação já foi retirada.'
              : `Só uma locação reservada pode ser retirada; esta está ${atual.status}.`,
          );
        // Same lock as bookings: two pickups of the category cannot take the same vehicle.
        await r.travarCategoria(atual.categoriaId);
        const agora = deps.agora();
        let veiculoId: number;
        if (pedido.id_veiculo !== undefined) {
          const v = await r.veiculo(pedido.id_veiculo);
          if (!v) throw entradaInvalida('id_veiculo', 'Veículo não encontrado.');
          if (v.categoriaId !== atual.categoriaId)
            throw entradaInvalida(
              'id_veiculo',
              'O veículo escolhido é de outra categoria que não a da reserva.',
            );
          if (!v.ativo) throw conflito('Este veículo está inativo e não pode ser retirado.');
          if (await r.veiculoEmManutencao(v.id, agora))
            throw conflito('Este veículo está em manutenção e não pode ser retirado.');
          if (await r.veiculoEmUso(v.id, id))
            throw conflito('Este veículo está em uso em outra locação.');
          veiculoId = v.id;
        } else {
          const livre = await r.primeiroVeiculoLivre({
            categoriaId: atual.categoriaId,
            modeloPreferidoId: atual.modeloId,
            locacaoId: id,
            momento: agora,
          });
          if (!livre)
            throw conflito('Nenhum veículo desta categoria está livre para retirada agora.');
          veiculoId = livre.id;
        }
        await r.atualizar(id, {
          status: 'retirada',
          veiculoId,
          retiradaEm: agora,
          atualizadoEm: agora,
        });
        return detalhada(r, id);
      });
    },

    /** Return (staff): closes the contract and records the vehicle's odometer. */
    async devolver(id: number, pedido: DevolucaoPedido): Promise<LocacaoDetalhada> {
      return deps.repositorios.emTransacao(async (tx) => {
        const r = tx.locacoes;
        const atual = await r.porIdParaAlterar(id);
        if (!atual) throw locacaoAusente();
        if (atual.status !== 'retirada' || atual.veiculoId === null)
          throw conflito(
            atual.status === 'devolvida'
              ? 'Esta locação já foi devolvida.'
              : `Só uma locação retirada pode ser devolvida; esta está ${atual.status}.`,
          );
        const veiculo = await r.travarVeiculo(atual.veiculoId);
        if (pedido.quilometragem !== undefined && veiculo) {
          if (pedido.quilometragem < veiculo.quilometragem)
            throw entradaInvalida(
              'quilometragem',
              `A quilometragem não pode ser menor que a atual do veículo (${veiculo.quilometragem.toLocaleString('pt-BR')} km).`,
            );
          await r.registrarQuilometragem(veiculo.id, pedido.quilometragem);
        }
        const agora = deps.agora();
        // The return note joins the booking's, so the history shows both.
        const observacao = pedido.observacao
          ? [atual.observacao, pedido.observacao].filter(Boolean).join('\n')
          : atual.observacao;
        await r.atualizar(id, {
          status: 'devolvida',
          devolvidaEm: agora,
          observacao,
          atualizadoEm: agora,
        });
        return detalhada(r, id);
      });
    },

    /** A contract of the history screen: the reservation itself, owner or staff. */
    historico: buscar,
    /** The history screen's list: every status, newest pickup first. */
    listarHistorico: (usuario: UsuarioAutenticado, filtro: { pagina: number; limite: number }) =>
      listar(usuario, filtro),
  };
}
export type ServicoLocacoes = ReturnType<typeof criarServicoLocacoes>;
