import { isUniqueViolation } from '@locadora/db';
import type { Cadastro, Login } from '@locadora/contract/contas';
import type { Papel } from '@locadora/contract/dominio';
import { ErroLocadora, conflito, naoAutenticado, naoEncontrado } from '../../erros.js';
import type { Repositorios } from '../../repositorios.js';
import type { UsuarioRegistro } from './repositorio.js';
import { hashPassword as gerarHashDeSenha, verifyPassword as conferirSenha } from '@locadora/login';
import { hashDoToken, novoTokenDeRenovacao, type EmissorDeTokens } from './tokens.js';
import { LoginBloqueado, type LimitadorDeLogin } from './limitador.js';
import type { UsuarioAutenticado } from './tipos.js';

export interface DependenciasContas {
  repositorios: Pick<Repositorios, 'contas' | 'emTransacao'>;
  tokens: EmissorDeTokens;
  limitador: LimitadorDeLogin;
  validadeSessaoDias: number;
  agora: () => Date;
}

export interface SessaoAberta {
  tokenDeAcesso: string;
  expiraEmSegundos: number;
  tokenDeRenovacao: string;
  renovacaoExpiraEm: Date;
  usuario: UsuarioRegistro;
}

export type PerfilAlteracao = Partial<
  Pick<
    UsuarioRegistro,
    | 'nome'
    | 'telefone'
    | 'categoriaHabilitacao'
    | 'rua'
    | 'numero'
    | 'bairro'
    | 'cidade'
    | 'municipio'
  >
>;

export function criarServicoContas(deps: DependenciasContas) {
  const repo = deps.repositorios.contas;

  async function abrirSessao(usuario: UsuarioRegistro): Promise<SessaoAberta> {
    const renovacao = novoTokenDeRenovacao();
    const renovacaoExpiraEm = new Date(
      deps.agora().getTime() + deps.validadeSessaoDias * 86_400_000,
    );
    const sessaoId = await repo.criarSessao(usuario.id, renovacao.hash, renovacaoExpiraEm);
    return {
      tokenDeAcesso: await deps.tokens.emitir({
        usuarioId: usuario.id,
        sessaoId,
        papel: usuario.papel,
      }),
      expiraEmSegundos: deps.tokens.validadeSegundos,
      tokenDeRenovacao: renovacao.token,
      renovacaoExpiraEm,
      usuario,
    };
  }

  return {
    async cadastrar(dados: Cadastro, papel: Papel = 'cliente'): Promise<UsuarioRegistro> {
      if (await repo.existeEmail(dados.email)) throw conflito('E-mail já cadastrado.', 'email');
      if (await repo.existeCpf(dados.cpf)) throw conflito('CPF já cadastrado.', 'cpf');
      const { senha, ...resto } = dados;
      try {
        return await repo.inserir({
          ...resto,
          email: dados.email.toLowerCase(),
          senhaHash: await gerarHashDeSenha(senha),
          papel,
        });
      } catch (erro) {
        // Two sign-ups racing for the same e-mail or CPF: the unique index decides.
        if (isUniqueViolation(erro)) throw conflito('E-mail ou CPF já cadastrado.', 'email');
        throw erro;
      }
    },

    /**
     * Login by e-mail and password. The throttle counts the attempt before the password is
     * checked (per e-mail and per client address), so concurrent guesses cannot slip past it.
     */
    async entrar(credenciais: Login, enderecoCliente: string): Promise<SessaoAberta> {
      const tentativa = await deps.limitador.reservar(
        credenciais.email,
        enderecoCliente,
        deps.agora(),
      );
      if (tentativa.bloqueada) throw new LoginBloqueado(tentativa.esperaSegundos);
      const usuario = await repo.porEmail(credenciais.email);
      const confere = await conferirSenha(
        usuario?.ativo ? usuario.senhaHash : null,
        credenciais.senha,
      );
      if (!usuario || !confere) throw naoAutenticado('E-mail ou senha incorretos.');
      await tentativa.acertou();
      return abrirSessao(usuario);
    },

    /** Exchanges a valid refresh token for a new access token, rotating the refresh token. */
    async renovar(tokenDeRenovacao: string | undefined): Promise<SessaoAberta> {
      const agora = deps.agora();
      const sessao = tokenDeRenovacao
        ? await repo.sessaoPorRefresh(hashDoToken(tokenDeRenovacao), agora)
        : undefined;
      const usuario = sessao && (await repo.porId(sessao.usuarioId));
      if (!sessao || !usuario?.ativo)
        throw naoAutenticado('Sua sessão expirou. Faça login novamente.');
      const renovacao = novoTokenDeRenovacao();
      const renovacaoExpiraEm = new Date(agora.getTime() + deps.validadeSessaoDias * 86_400_000);
      await repo.renovarSessao(sessao.id, renovacao.hash, renovacaoExpiraEm);
      return {
        tokenDeAcesso: await deps.tokens.emitir({
          usuarioId: usuario.id,
          sessaoId: sessao.id,
          papel: usuario.papel,
        }),
        expiraEmSegundos: deps.tokens.validadeSegundos,
        tokenDeRenovacao: renovacao.token,
        renovacaoExpiraEm,
        usuario,
      };
    },

    sair: (sessaoId: string) => repo.revogarSessao(sessaoId, deps.agora()),

    /** The caller behind an access token, or null (bad token, logged out, account closed). */
    async autenticar(token: string): Promise<UsuarioAutenticado | null> {
      const conteudo = await deps.tokens.verificar(token);
      if (!conteudo) return null;
      const usuario = await repo.usuarioDaSessao(conteudo.sessaoId, deps.agora());
      if (!usuario || usuario.id !== conteudo.usuarioId) return null;
      return { ...usuario, sessaoId: conteudo.sessaoId };
    },

    async perfil(usuarioId: number): Promise<UsuarioRegistro> {
      const u = await repo.porId(usuarioId);
      if (!u) throw naoEncontrado('Usuário');
      return u;
    },

    async alterarPerfil(usuarioId: number, alteracao: PerfilAlteracao): Promise<UsuarioRegistro> {
      const u = await repo.atualizar(usuarioId, alteracao);
      if (!u) throw naoEncontrado('Usuário');
      return u;
    },

    listarUsuarios: (filtro: { busca?: string | undefined; pagina: number; limite: number }) =>
      repo.listar(filtro),

    async definirPapel(usuarioId: number, papel: Papel): Promise<UsuarioRegistro> {
      const u = await repo.porId(usuarioId);
      if (!u || u.anonimizadoEm) throw naoEncontrado('Usuário');
      return (await repo.definirPapel(usuarioId, papel))!;
    },

    /**
     * LGPD: checks the password, then anonymises the account, ends every session and queues
     * the erasure of its Sino subscriber (decision 026).
     */
    async excluirConta(usuarioId: number, senha: string): Promise<void> {
      const u = await repo.porId(usuarioId);
      if (!u) throw naoEncontrado('Usuário');
      if (!(await conferirSenha(u.senhaHash, senha)))
        throw new ErroLocadora(400, 'Senha incorreta.', 'senha');
      if (await repo.temLocacaoEmAndamento(usuarioId)) {
        throw conflito(
          'Você tem uma locação em andamento. Devolva o veículo antes de excluir a conta.',
        );
      }
      const agora = deps.agora();
      await deps.repositorios.emTransacao(async (tx) => {
        const r = tx.contas;
        await r.anonimizar(usuarioId, agora);
        await r.revogarSessoesDoUsuario(usuarioId, agora);
        // Sino too: its inbox and what it holds of the person go, through the outbox, once
        // this commits; the outbox's own events about the account keep nothing of it.
        const outbox = tx.outbox;
        await outbox.esquecerUsuario(usuarioId);
        await outbox.registrarApagamento(usuarioId);
      });
    },
  };
}
export type ServicoContas = ReturnType<typeof criarServicoContas>;
