import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { comLogin, usuarioDe } from '../http/autenticacao.js';
import { errosDocumentados } from '../http/respostas.js';
import type { ContextoDasRotas } from '../contexto.js';
import type { SessoesDoSino } from './sessao.js';
import type { ServicoDeTeste } from './teste.js';

const sessaoSchema = z.object({
  applicationIdentifier: z.string(),
  subscriberId: z.string(),
  subscriberHash: z.string(),
});

/** The bell's session: the logged-in account's Sino subscriber and its hash. */
export const rotasDeNotificacoes: FastifyPluginAsyncZod<
  ContextoDasRotas & { sessoes: SessoesDoSino; teste: ServicoDeTeste }
> = async (app, { guardas, servicos, sessoes, teste }) => {
  app.get(
    '/me/notificacoes',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags: ['Notificações'],
        summary:
          "The logged-in account's inbox session in Sino (application identifier, subscriberId and its HMAC hash), for the bell",
        security: comLogin,
        response: { 200: sessaoSchema, ...errosDocumentados(401, 503) },
      },
    },
    async (request, reply) => {
      // A credential of this account: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return sessoes.de(usuarioDe(request).id);
    },
  );

  app.post(
    '/me/notificacoes/teste',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags: ['Notificações'],
        summary: 'Send a test notification to myself through Sino (the button of /notificacoes)',
        security: comLogin,
        response: { 204: z.null(), ...errosDocumentados(401, 429, 503) },
      },
    },
    async (request, reply) => {
      const perfil = await servicos.contas.perfil(usuarioDe(request).id);
      await teste.enviar({ id: perfil.id, nome: perfil.nome, email: perfil.email });
      return reply.code(204).send(null);
    },
  );
};
