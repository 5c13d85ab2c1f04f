import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listaModelosQuery, modeloSaidaSchema, modeloSchema } from '@locadora/contract/frota';
import { centavosParaReais } from '@locadora/contract/preco';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { ModeloDetalhado } from './repositorio.js';
import { MENSAGEM_MODELO_EM_USO } from './servico.js';

export function paraModeloSaida(m: ModeloDetalhado): z.infer<typeof modeloSaidaSchema> {
  return {
    id_modelo: m.id,
    nome: m.nome,
    marca: m.marca,
    id_categoria: m.categoriaId,
    categoria: m.categoria,
    vl_categoria: centavosParaReais(m.valorDiariaCentavos),
  };
}

const REGRAS =
  'Model names are unique regardless of case (409 on `nome`); `id_categoria` must exist (400). ' +
  'A model with open reservations keeps its category (409).';

/** Vehicle models: read by anyone logged in (the booking form lists them), changed by staff. */
export const rotasDeModelos: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { modelos } = servicos.frota;
  const tags = ['Modelos'];
  const logado = [guardas.autenticar];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.get(
    '/Modelos',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'Vehicle models by name, optionally of one category',
        security: comLogin,
        querystring: listaModelosQuery,
        response: { 200: z.array(modeloSaidaSchema), ...errosDocumentados(400, 401) },
      },
    },
    async (request) =>
      (await modelos.listar({ categoriaId: request.query.id_categoria })).map(paraModeloSaida),
  );

  app.get(
    '/Modelos/:id',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'One vehicle model',
        security: comLogin,
        params: idParams,
        response: { 200: modeloSaidaSchema, ...errosDocumentados(401, 404) },
      },
    },
    async (request) => paraModeloSaida(await modelos.buscar(request.params.id)),
  );

  app.post(
    '/Modelos',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Create a vehicle model (staff)',
        description: REGRAS,
        security: comLogin,
        body: modeloSchema,
        response: { 201: modeloSaidaSchema, ...errosDocumentados(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(paraModeloSaida(await modelos.criar(request.body))),
  );

  app.put(
    '/Modelos/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Change a vehicle model (staff)',
        description: REGRAS,
        security: comLogin,
        params: idParams,
        body: modeloSchema,
        response: { 200: modeloSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
      },
    },
    async (request) => paraModeloSaida(await modelos.atualizar(request.params.id, request.body)),
  );

  app.delete(
    '/Modelos/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Delete a vehicle model (staff)',
        description: `A model with vehicles or reservations cannot be deleted (409 "${MENSAGEM_MODELO_EM_USO}").`,
        security: comLogin,
        params: idParams,
        response: { 204: z.null(), ...errosDocumentados(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await modelos.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
