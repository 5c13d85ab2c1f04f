import type { Database } from '@locadora/db';
import type { AvaliacaoPedido } from '@locadora/contract/operacao';
import { naoEncontrada } from '../../erros.js';
import { emTransacao } from '../../db/transacao.js';
import { eventoDeAvaliacao } from '../../notificacoes/eventos.js';
import { criarRepositorioOutbox } from '../../notificacoes/repositorio-outbox.js';
import type { UsuarioAutenticado } from '../contas/tipos.js';
import { visivelPara } from '../contas/visibilidade.js';
import {
  criarRepositorioAvaliacoes,
  type AvaliacaoRegistro,
  type RepositorioAvaliacoes,
} from './repositorio.js';

export interface DependenciasAvaliacoes {
  db: Database;
  agora: () => Date;
}

export function criarServicoAvaliacoes(deps: DependenciasAvaliacoes) {
  const repo: RepositorioAvaliacoes = criarRepositorioAvaliacoes(deps.db);

  return {
    /** The author is the logged-in account; the name shown is the one sent, else the account's. */
    publicar(
      autor: Pick<UsuarioAutenticado, 'id' | 'nome'>,
      pedido: AvaliacaoPedido,
    ): Promise<AvaliacaoRegistro> {
      return emTransacao(deps.db, async (tx) => {
        const avaliacao = await criarRepositorioAvaliacoes(tx).inserir({
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
        await criarRepositorioOutbox(tx).registrar(eventoDeAvaliacao(avaliacao));
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
