import type { AvaliacaoPedido } from '@locadora/contract/operacao';
import { naoEncontrada } from '../../erros.js';
import { eventoDeAvaliacao } from '../../notificacoes/eventos.js';
import type { Repositorios } from '../../repositorios.js';
import type { UsuarioAutenticado } from '../contas/tipos.js';
import { visivelPara } from '../contas/visibilidade.js';
import type { AvaliacaoRegistro } from './repositorio.js';

export interface DependenciasAvaliacoes {
  repositorios: Pick<Repositorios, 'avaliacoes' | 'emTransacao'>;
  agora: () => Date;
}

export function criarServicoAvaliacoes(deps: DependenciasAvaliacoes) {
  const repo = deps.repositorios.avaliacoes;

  return {
    /** The author is the logged-in account; the name shown is the one sent, else the account's. */
    publicar(
      autor: Pick<UsuarioAutenticado, 'id' | 'nome'>,
      pedido: AvaliacaoPedido,
    ): Promise<AvaliacaoRegistro> {
      return deps.repositorios.emTransacao(async (tx) => {
        const avaliacao = await tx.avaliacoes.inserir({
          usuarioId: autor.id,
          nomeExibicao: pedido.nomeExibicao ?? autor.nome,
          titulo: pedido.titulo,
          nota: pedido.nota,
          email: pedido.email,
          telefone: pedido.telefone,
          observacao: pedido.observacao,
          criadoEm: deps.agora(),
        });
        // Staff hear of the review if and only if it is stored.
        await tx.outbox.registrar(eventoDeAvaliacao(avaliacao));
        return avaliacao;
      });
    },

    listar: (filtro: { pagina: number; limite: number }) => repo.listar(filtro),

    /** Its author or staff may remove a review; to anyone else it does not exist. */
    async excluir(solicitante: Pick<UsuarioAutenticado, 'id' | 'papel'>, id: number) {
      visivelPara(solicitante, await repo.porId(id), () => naoEncontrada('Avaliação'));
      await repo.excluir(id);
    },
  };
}
export type ServicoAvaliacoes = ReturnType<typeof criarServicoAvaliacoes>;
