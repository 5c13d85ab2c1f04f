import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  categoriaSaidaSchema,
  categoriaSchema,
  type CategoriaPedido,
} from '@locadora/contract/frota';
import { centavosParaReais } from '@locadora/contract/preco';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados, idParams, idQuery } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { CategoriaRegistro } from './repositorio.js';
import { MENSAGEM_CATEGORIA_EM_USO } from './servico.js';

export function paraCategoriaSaida(c: CategoriaRegistro): z.infer<typeof categoriaSaidaSchema> {
  return {
    id_categoria: c.id,
    desc_categoria: c.descricao,
    vl_categoria: centavosParaReais(c.valorDiariaCentavos),
    ind_promocao: c.emPromocao,
  };
}

const REGRAS =
  '`vl_categoria` is the daily value in reais (up to two decimals, above zero). Descriptions are ' +
  'unique regardless of case (409 on `desc_categoria`). Reservations already made keep the daily ' +
  'value of their booking.';

/** Categories: read by anyone logged in (booking needs them), changed by staff. */
export const rotasDeCategorias: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { categorias } = servicos.frota;
  const tags = ['Categorias'];
  const logado = [guardas.autenticar];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.get(
    '/Categorias',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'Vehicle categories, by description',
        security: comLogin,
        response: { 200: z.array(categoriaSaidaSchema), ...errosDocumentados(401) },
      },
    },
    async () => (await categorias.listar()).map(paraCategoriaSaida),
  );

  app.get(
    '/Categorias/:id',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'One category',
        security: comLogin,
        params: idParams,
        response: { 200: categoriaSaidaSchema, ...errosDocumentados(401, 404) },
      },
    },
    async (request) => paraCategoriaSaida(await categorias.buscar(request.params.id)),
  );

  app.post(
    '/Categorias',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Create a category (staff)',
        description: REGRAS,
        security: comLogin,
        body: categoriaSchema,
        response: { 201: categoriaSaidaSchema, ...errosDocumentados(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(paraCategoriaSaida(await categorias.criar(request.body))),
  );

  const alterar = async (id: number, dados: CategoriaPedido) =>
    paraCategoriaSaida(await categorias.atualizar(id, dados));
  const alteracao = {
    tags,
    description: REGRAS,
    security: comLogin,
    body: categoriaSchema,
    response: { 200: categoriaSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
  };
  app.put(
    '/Categorias',
    {
      onRequest: somenteEquipe,
      schema: {
        ...alteracao,
        summary: 'Change a category (staff), by `?id=` as the spec calls it',
        querystring: idQuery,
      },
    },
    async (request) => alterar(request.query.id, request.body),
  );
  app.put(
    '/Categorias/:id',
    {
      onRequest: somenteEquipe,
      schema: { ...alteracao, summary: 'Change a category (staff)', params: idParams },
    },
    async (request) => alterar(request.params.id, request.body),
  );

  const exclusao = {
    tags,
    description: `A category with models or reservations cannot be deleted (409 "${MENSAGEM_CATEGORIA_EM_USO}").`,
    security: comLogin,
    response: { 204: z.null(), ...errosDocumentados(401, 403, 404, 409) },
  };
  app.delete(
    '/Categorias',
    {
      onRequest: somenteEquipe,
      schema: {
        ...exclusao,
        summary: 'Delete a category (staff), by `?id=` as the spec calls it',
        querystring: idQuery,
      },
    },
    async (request, reply) => {
      await categorias.excluir(request.query.id);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/Categorias/:id',
    {
      onRequest: somenteEquipe,
      schema: { ...exclusao, summary: 'Delete a category (staff)', params: idParams },
    },
    async (request, reply) => {
      await categorias.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
