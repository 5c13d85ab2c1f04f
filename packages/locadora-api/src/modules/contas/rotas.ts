import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cadastroSchema,
  exclusaoContaSchema,
  loginSchema,
  perfilSchema,
  sessaoSaidaSchema,
  trocaPapelSchema,
  usuarioSaidaSchema,
  verificacaoDeEmailSchema,
} from '@locadora/contract/contas';
import { comLogin, usuarioDe } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { SessaoAberta } from './servico.js';
import { LoginBloqueado } from './limitador.js';
import type { UsuarioRegistro } from './repositorio.js';

const COOKIE_RENOVACAO = 'locadora_renovacao';

/**
 * The refresh cookie's attributes, the same when it is written and when it is cleared: `Secure`
 * whenever the request came over HTTPS (`request.protocol`, which honours `X-Forwarded-Proto`
 * from a trusted proxy when TRUST_PROXY is on), left off on plain HTTP so a development server
 * without TLS still keeps the session.
 */
const OPCOES_COOKIE = {
  path: '/api/Cadastro',
  httpOnly: true,
  sameSite: 'strict',
  secure: 'auto',
} as const;

/**
 * Every answer that carries an access token or writes the refresh cookie goes through here or
 * `apagarCookie`: neither a browser nor a proxy may keep a copy of it.
 */
function naoArmazenar(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

function apagarCookie(reply: FastifyReply) {
  naoArmazenar(reply);
  reply.clearCookie(COOKIE_RENOVACAO, OPCOES_COOKIE);
}

export function paraUsuarioSaida(u: UsuarioRegistro): z.infer<typeof usuarioSaidaSchema> {
  const partes = [u.rua, u.numero, u.bairro, u.cidade, u.municipio].filter(Boolean);
  return {
    id: u.id,
    nome: u.nome,
    email: u.email,
    papel: u.papel,
    dataNascimento: u.dataNascimento,
    cpf: u.cpf,
    telefone: u.telefone,
    categoriaHabilitacao: u.categoriaHabilitacao,
    rua: u.rua,
    numero: u.numero,
    bairro: u.bairro,
    cidade: u.cidade,
    municipio: u.municipio,
    endereco: partes.length ? partes.join(', ') : null,
    emailVerificado: u.emailVerificadoEm !== null,
    criadoEm: u.criadoEm.toISOString(),
  };
}

function responderSessao(reply: FastifyReply, sessao: SessaoAberta) {
  naoArmazenar(reply);
  reply.setCookie(COOKIE_RENOVACAO, sessao.tokenDeRenovacao, {
    ...OPCOES_COOKIE,
    expires: sessao.renovacaoExpiraEm,
  });
  const { id, nome, email, papel } = sessao.usuario;
  return {
    jwtToken: sessao.tokenDeAcesso,
    expiraEmSegundos: sessao.expiraEmSegundos,
    id,
    nome,
    email,
    papel,
  };
}

export const rotasDeContas: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { contas } = servicos;
  const tags = ['Contas'];

  // The shared error handler writes the 429; the throttle's wait goes into `Retry-After`.
  app.addHook('onError', async (_request, reply, erro) => {
    if (erro instanceof LoginBloqueado) reply.header('retry-after', String(erro.esperaSegundos));
  });

  app.post(
    '/Cadastro',
    {
      schema: {
        tags,
        summary: 'Sign up as a customer',
        body: cadastroSchema,
        response: { 201: usuarioSaidaSchema, ...errosDocumentados(400, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(paraUsuarioSaida(await contas.cadastrar(request.body))),
  );

  app.post(
    '/Cadastro/authenticate',
    {
      schema: {
        tags,
        summary: 'Log in with e-mail and password',
        description:
          'Answers a short-lived access token and sets an httpOnly refresh cookie. Repeated failures are throttled (429).',
        body: loginSchema,
        response: { 200: sessaoSaidaSchema, ...errosDocumentados(400, 401, 429) },
      },
    },
    async (request, reply) => responderSessao(reply, await contas.entrar(request.body, request.ip)),
  );

  app.post(
    '/Cadastro/refresh',
    {
      schema: {
        tags,
        summary: 'New access token from the refresh cookie (rotates the cookie)',
        response: { 200: sessaoSaidaSchema, ...errosDocumentados(401) },
      },
    },
    async (request, reply) =>
      responderSessao(reply, await contas.renovar(request.cookies[COOKIE_RENOVACAO])),
  );

  app.post(
    '/Cadastro/logout',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'Log out: ends this session',
        security: comLogin,
        response: { 204: z.null(), ...errosDocumentados(401) },
      },
    },
    async (request, reply) => {
      await contas.sair(usuarioDe(request).sessaoId);
      apagarCookie(reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/Cadastro/verificar-email',
    {
      schema: {
        tags,
        summary: "Confirm the account's e-mail with the link's token (works once)",
        description:
          'The token of the link e-mailed at sign-up or on request; it is the credential. A used, replaced, expired or unknown token is a 400.',
        body: verificacaoDeEmailSchema,
        response: { 204: z.null(), ...errosDocumentados(400) },
      },
    },
    async (request, reply) => {
      await contas.verificarEmail(request.body.token);
      naoArmazenar(reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/verificacao-de-email',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'Send me a new e-mail confirmation link (at most one a minute)',
        security: comLogin,
        response: { 204: z.null(), ...errosDocumentados(401, 409, 429) },
      },
    },
    async (request, reply) => {
      await contas.reenviarVerificacao(usuarioDe(request).id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'My profile',
        security: comLogin,
        response: { 200: usuarioSaidaSchema, ...errosDocumentados(401) },
      },
    },
    async (request) => paraUsuarioSaida(await contas.perfil(usuarioDe(request).id)),
  );

  app.patch(
    '/me',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'Change my profile (CPF and e-mail cannot change)',
        security: comLogin,
        body: perfilSchema,
        response: { 200: usuarioSaidaSchema, ...errosDocumentados(400, 401) },
      },
    },
    async (request) =>
      paraUsuarioSaida(await contas.alterarPerfil(usuarioDe(request).id, request.body)),
  );

  app.delete(
    '/me',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary:
          'Delete my account (LGPD): personal data is anonymised, contracts and fines are kept; the Sino inbox is erased',
        security: comLogin,
        body: exclusaoContaSchema,
        response: { 204: z.null(), ...errosDocumentados(400, 401, 409) },
      },
    },
    async (request, reply) => {
      await contas.excluirConta(usuarioDe(request).id, request.body.senha);
      apagarCookie(reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/Usuarios',
    {
      onRequest: [guardas.autenticar, guardas.somenteEquipe],
      schema: {
        tags,
        summary: 'List accounts (staff)',
        security: comLogin,
        querystring: z.object({
          busca: z.string().trim().max(100).optional(),
          pagina: z.coerce.number().int().min(1).default(1),
          limite: z.coerce.number().int().min(1).max(100).default(50),
        }),
        response: { 200: z.array(usuarioSaidaSchema), ...errosDocumentados(400, 401, 403) },
      },
    },
    async (request) => (await contas.listarUsuarios(request.query)).map(paraUsuarioSaida),
  );

  app.patch(
    '/Usuarios/:id/papel',
    {
      onRequest: [guardas.autenticar, guardas.somenteAdmin],
      schema: {
        tags,
        summary: "Change an account's role (admin)",
        security: comLogin,
        params: idParams,
        body: trocaPapelSchema,
        response: { 200: usuarioSaidaSchema, ...errosDocumentados(400, 401, 403, 404) },
      },
    },
    async (request) =>
      paraUsuarioSaida(await contas.definirPapel(request.params.id, request.body.papel)),
  );
};
