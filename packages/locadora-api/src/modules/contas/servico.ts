import { randomBytes } from 'node:crypto';
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

/** How long an e-mail confirmation link works, and how the e-mail says it. */
export const VALIDADE_DA_VERIFICACAO_HORAS = 24;
/** The shortest wait between two confirmation e-mails of an account ("reenviar"). */
export const ESPERA_PARA_REENVIAR_S = 60;

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

  /**
   * A new confirmation link for the account's address (its earlier ones stop working), and the
   * e-mail that carries it, queued in the same transaction. Only the token's hash is kept
   * here; the token itself travels in the event's payload to Sino, which e-mails it.
   */
  async function pedirVerificacao(tx: Repositorios, u: { id: number; email: string }) {
    const token = randomBytes(32).toString('base64url');
    await tx.contas.novaVerificacao({
      usuarioId: u.id,
      email: u.email,
      tokenHash: hashDoToken(token),
      expiraEm: new Date(deps.agora().getTime() + VALIDADE_DA_VERIFICACAO_HORAS * 3_600_000),
      criadoEm: deps.agora(),
    });
    await tx.outbox.registrar({
      fluxo: 'verificacao-de-email',
      usuarioId: u.id,
      payload: { token, validade: `${VALIDADE_DA_VERIFICACAO_HORAS} horas` },
    });
  }

  return {
    /** Signs up, and e-mails the link that confirms the address (nothing else is e-mailed before). */
    async cadastrar(dados: Cadastro, papel: Papel = 'cliente'): Promise<UsuarioRegistro> {
      if (await repo.existeEmail(dados.email)) throw conflito('E-mail já cadastrado.', 'email');
      if (await repo.existeCpf(dados.cpf)) throw conflito('CPF já cadastrado.', 'cpf');
      const { senha, ...resto } = dados;
      const senhaHash = await gerarHashDeSenha(senha);
      try {
        return await deps.repositorios.emTransacao(async (tx) => {
          const criado = await tx.contas.inserir({
            ...resto,
            email: dados.email.toLowerCase(),
            senhaHash,
            papel,
          });
          await pedirVerificacao(tx, criado);
          return criado;
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

    /** "Reenviar": a new confirmation e-mail, at most one a minute, while unconfirmed. */
    async reenviarVerificacao(usuarioId: number): Promise<void> {
      const u = await repo.porId(usuarioId);
      if (!u?.ativo) throw naoEncontrado('Usuário');
      if (u.emailVerificadoEm) throw conflito('Seu e-mail já está confirmado.', 'email');
      const desde = await repo.verificacaoPendenteDesde(usuarioId);
      const espera =
        desde &&
        Math.ceil(ESPERA_PARA_REENVIAR_S - (deps.agora().getTime() - desde.getTime()) / 1000);
      if (espera && espera > 0)
        throw new ErroLocadora(429, `Aguarde ${espera} s para pedir outro e-mail de confirmação.`);
      await deps.repositorios.emTransacao((tx) => pedirVerificacao(tx, u));
    },

    /** Consumes a confirmation link; a used, expired, replaced or unknown one is a 400. */
    async verificarEmail(token: string): Promise<void> {
      const confirmado = await repo.consumirVerificacao(hashDoToken(token), deps.agora());
      if (confirmado === undefined)
        throw new ErroLocadora(
          400,
          'Este link de confirmação não vale mais (já usado, substituído por outro ou expirado). Entre na sua conta e peça um novo.',
          'token',
        );
    },

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
