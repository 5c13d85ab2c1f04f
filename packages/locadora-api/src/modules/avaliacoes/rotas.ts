import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FUSO_HORARIO } from '@locadora/contract/dominio';
import {
  avaliacaoSaidaSchema,
  avaliacaoSchema,
  listaAvaliacoesQuery,
  type AvaliacaoSaida,
} from '@locadora/contract/operacao';
import { comLogin, usuarioDe } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import { ehEquipe } from '../contas/tipos.js';
import type { AvaliacaoRegistro } from './repositorio.js';

/** A review with both spellings of name and text; the contact data only when asked. */
export function paraAvaliacaoSaida(
  a: AvaliacaoRegistro,
  { comContato }: { comContato: boolean },
): AvaliacaoSaida {
  return {
    id_avaliacao: a.id,
    titulo: a.titulo,
    nota: a.nota,
    data: format(new TZDate(a.criadoEm.getTime(), FUSO_HORARIO), 'dd/MM/yyyy'),
    nomeUsuario: a.nomeExibicao,
    nomeUsaurio: a.nomeExibicao,
    observacao: a.observacao,
    observaceo: a.observacao,
    ...(comContato && { email: a.email, telefone: a.telefone }),
  };
}

export const rotasDeAvaliacoes: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { avaliacoes } = servicos;
  const tags = ['Avaliações'];

  app.post(
    '/Avaliacao',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'Send a review',
        description:
          'Accepts `observacao` or `observaceo` and `nomeUsuario` or `nomeUsaurio`; answers both spellings. ' +
          'The author is the logged-in account; without a name, the account name is shown.',
        security: comLogin,
        body: avaliacaoSchema,
        response: { 201: avaliacaoSaidaSchema, ...errosDocumentados(400, 401) },
      },
    },
    async (request, reply) => {
      const usuario = usuarioDe(request);
      const criada = await avaliacoes.publicar(usuario, request.body);
      return reply.code(201).send(paraAvaliacaoSaida(criada, { comContato: true }));
    },
  );

  app.get(
    '/Avaliacao',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'List reviews, newest first',
        description:
          'The e-mail and phone a reviewer left are answered to staff and to the author only.',
        security: comLogin,
        querystring: listaAvaliacoesQuery,
        response: { 200: z.array(avaliacaoSaidaSchema), ...errosDocumentados(400, 401) },
      },
    },
    async (request) => {
      const usuario = usuarioDe(request);
      return (await avaliacoes.listar(request.query)).map((a) =>
        paraAvaliacaoSaida(a, { comContato: ehEquipe(usuario) || a.usuarioId === usuario.id }),
      );
    },
  );

  app.delete(
    '/Avaliacao/:id',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'Delete a review (its author or staff)',
        description: "Another customer's review answers 404, as an unknown one.",
        security: comLogin,
        params: idParams,
        response: { 204: z.null(), ...errosDocumentados(401, 404) },
      },
    },
    async (request, reply) => {
      await avaliacoes.excluir(usuarioDe(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
