import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  infracaoSaidaSchema,
  infracaoSchema,
  listaInfracoesQuery,
  type InfracaoSaida,
} from '@locadora/contract/operacao';
import { formatarPlaca } from '@locadora/contract/placa';
import { centavosParaReais } from '@locadora/contract/preco';
import { comLogin, usuarioDe } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { InfracaoDetalhada } from './repositorio.js';

export function paraInfracaoSaida(i: InfracaoDetalhada): InfracaoSaida {
  return {
    id_infracao: i.id,
    placa: formatarPlaca(i.placa),
    id_locacao: i.locacaoId,
    descricao: i.descricao,
    data: i.ocorridaEm.toISOString(),
    valor: centavosParaReais(i.valorCentavos),
    local: i.local,
    prazo_indicacao_condutor: i.prazoIndicacao,
  };
}

const contratoParams = z.object({
  contrato: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .describe('Contract number (id_locacao)'),
});

export const rotasDeInfracoes: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { infracoes } = servicos;
  const tags = ['Infrações'];

  app.post(
    '/infracoes',
    {
      onRequest: [guardas.autenticar, guardas.somenteEquipe],
      schema: {
        tags,
        summary: 'Register a traffic fine (staff)',
        description:
          'The plate must be of the fleet. The fine is matched to the contract that had the vehicle at ' +
          '`data_hora` (picked up at or before it and not returned before it); without one, `id_locacao` ' +
          'is null. The driver-indication deadline counts from today in Belo Horizonte.',
        security: comLogin,
        body: infracaoSchema,
        response: { 201: infracaoSaidaSchema, ...errosDocumentados(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const criada = await infracoes.registrar(request.body, usuarioDe(request).id);
      return reply.code(201).send(paraInfracaoSaida(criada));
    },
  );

  app.get(
    '/infracoes',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'List fines, newest first (customers: those of their contracts)',
        security: comLogin,
        querystring: listaInfracoesQuery,
        response: { 200: z.array(infracaoSaidaSchema), ...errosDocumentados(400, 401) },
      },
    },
    async (request) =>
      (await infracoes.listar(usuarioDe(request), request.query)).map(paraInfracaoSaida),
  );

  app.get(
    '/infracoes/:contrato',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags,
        summary: 'Fines of one contract (its owner or staff)',
        description:
          "A contract without fines answers an empty list; another customer's contract answers 404, as an unknown one.",
        security: comLogin,
        params: contratoParams,
        response: {
          200: z.array(infracaoSaidaSchema),
          ...errosDocumentados(401, 404),
        },
      },
    },
    async (request) =>
      (await infracoes.daLocacao(usuarioDe(request), request.params.contrato)).map(
        paraInfracaoSaida,
      ),
  );

  app.delete(
    '/infracoes/registro/:id',
    {
      onRequest: [guardas.autenticar, guardas.somenteEquipe],
      schema: {
        tags,
        summary: 'Remove a fine registered by mistake (staff)',
        security: comLogin,
        params: idParams,
        response: { 204: z.null(), ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await infracoes.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
