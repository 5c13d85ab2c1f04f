import { naoEncontrado } from '../../erros.js';
import type { UsuarioRegistro } from '../contas/repositorio.js';
import type { Repositorios } from '../../repositorios.js';
import type { AvaliacaoRegistro } from '../avaliacoes/repositorio.js';
import type { InfracaoDetalhada } from '../infracoes/repositorio.js';
import type { LocacaoDoTitular } from './repositorio.js';

export interface DependenciasPrivacidade {
  repositorios: Pick<Repositorios, 'privacidade' | 'infracoes' | 'avaliacoes'>;
  agora: () => Date;
}

/** Everything the company holds about one person (LGPD, art. 18: access and portability). */
export interface DadosDoTitular {
  geradoEm: Date;
  titular: UsuarioRegistro;
  locacoes: LocacaoDoTitular[];
  infracoes: InfracaoDetalhada[];
  avaliacoes: AvaliacaoRegistro[];
  sessoes: { criadaEm: Date; expiraEm: Date; revogadaEm: Date | null }[];
}

export function criarServicoPrivacidade(deps: DependenciasPrivacidade) {
  const { privacidade: repo, infracoes, avaliacoes } = deps.repositorios;

  return {
    async exportar(usuarioId: number): Promise<DadosDoTitular> {
      const titular = await repo.titular(usuarioId);
      if (!titular) throw naoEncontrado('Usuário');
      return {
        geradoEm: deps.agora(),
        titular,
        locacoes: await repo.locacoes(usuarioId),
        infracoes: await infracoes.doCliente(usuarioId),
        avaliacoes: await avaliacoes.doAutor(usuarioId),
        sessoes: await repo.sessoes(usuarioId),
      };
    },
  };
}
export type ServicoPrivacidade = ReturnType<typeof criarServicoPrivacidade>;
