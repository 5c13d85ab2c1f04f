import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { estoqueSaidaSchema, estoqueSchema, type EstoquePedido } from '@locadora/contract/frota';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados, idParams, idQuery } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { EstoqueRegistro } from './repositorio.js';

export function paraEstoqueSaida(e: EstoqueRegistro): z.infer<typeof estoqueSaidaSchema> {
  return {
    id_estoque: e.id,
    modelo_veiculo: e.modelo,
    marca_veiculo: e.marca,
    cor_veiculo: e.cor,
    quantidade: e.quantidade,
  };
}

const REGRAS =
  'One row per model, brand and colour, regardless of case (409 on a second one: change the ' +
  'quantity of the existing row instead). `quantidade` is a whole number, zero or more.';

/** Stock by model and colour (the spec's Estoques screen), staff only. */
export const rotasDeEstoques: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { estoques } = servicos.frota;
  const tags = ['Estoques'];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.get(
    '/Estoques',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Stock rows, by model and colour (staff)',
        security: comLogin,
        response: { 200: z.array(estoqueSaidaSchema), ...errosDocumentados(401, 403) },
      },
    },
    async () => (await estoques.listar()).map(paraEstoqueSaida),
  );

  app.get(
    '/Estoques/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'One stock row (staff)',
        security: comLogin,
        params: idParams,
        response: { 200: estoqueSaidaSchema, ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request) => paraEstoqueSaida(await estoques.buscar(request.params.id)),
  );

  app.post(
    '/Estoques',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Add a stock row (staff)',
        description: REGRAS,
        security: comLogin,
        body: estoqueSchema,
        response: { 201: estoqueSaidaSchema, ...errosDocumentados(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(paraEstoqueSaida(await estoques.criar(request.body))),
  );

  const alterar = async (id: number, dados: EstoquePedido) =>
    paraEstoqueSaida(await estoques.atualizar(id, dados));
  const alteracao = {
    tags,
    description: REGRAS,
    security: comLogin,
    body: estoqueSchema,
    response: { 200: estoqueSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
  };
  app.put(
    '/Estoques',
    {
      onRequest: somenteEquipe,
      schema: {
        ...alteracao,
        summary: 'Change a stock row (staff), by `?id=` as the spec calls it',
        querystring: idQuery,
      },
    },
    async (request) => alterar(request.query.id, request.body),
  );
  app.put(
    '/Estoques/:id',
    {
      onRequest: somenteEquipe,
      schema: { ...alteracao, summary: 'Change a stock row (staff)', params: idParams },
    },
    async (request) => alterar(request.params.id, request.body),
  );

  const exclusao = {
    tags,
    description: 'Deletes exactly the row with this `id_estoque`.',
    security: comLogin,
    response: { 204: z.null(), ...errosDocumentados(401, 403, 404) },
  };
  app.delete(
    '/Estoques',
    {
      onRequest: somenteEquipe,
      schema: {
        ...exclusao,
        summary: 'Delete a stock row (staff), by `?id=`',
        querystring: idQuery,
      },
    },
    async (request, reply) => {
      await estoques.excluir(request.query.id);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/Estoques/:id',
    {
      onRequest: somenteEquipe,
      schema: { ...exclusao, summary: 'Delete a stock row (staff)', params: idParams },
    },
    async (request, reply) => {
      await estoques.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
