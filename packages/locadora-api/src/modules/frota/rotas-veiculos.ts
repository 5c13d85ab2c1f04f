import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listaVeiculosQuery,
  veiculoAlteracaoSchema,
  veiculoSaidaSchema,
  veiculoSchema,
} from '@locadora/contract/frota';
import { formatarPlaca } from '@locadora/contract/placa';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { VeiculoDetalhado } from './repositorio.js';

export function paraVeiculoSaida(v: VeiculoDetalhado): z.infer<typeof veiculoSaidaSchema> {
  return {
    id_veiculo: v.id,
    placa: formatarPlaca(v.placa),
    id_modelo: v.modeloId,
    modelo: v.modelo,
    marca: v.marca,
    id_categoria: v.categoriaId,
    categoria: v.categoria,
    cor: v.cor,
    quilometragem: v.quilometragem,
    ativo: v.ativo,
  };
}

const REGRAS =
  'Plates in the Mercosul (ABC1D23) or old (ABC-1234) format, in any case, with or without ' +
  'hyphen; they are stored normalised and unique (409 on `placa`) and answered with the hyphen ' +
  'for old plates. `id_modelo` must exist (400). Inactive vehicles (`ativo: false`) leave the ' +
  'fleet that availability counts.';

/** The fleet, staff only. */
export const rotasDeVeiculos: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { veiculos } = servicos.frota;
  const tags = ['Veículos'];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.get(
    '/Veiculos',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'The fleet by plate (staff)',
        description:
          'Filters: `id_categoria`; `placa`, whole or in part, with or without hyphen; `ativo`.',
        security: comLogin,
        querystring: listaVeiculosQuery,
        response: { 200: z.array(veiculoSaidaSchema), ...errosDocumentados(400, 401, 403) },
      },
    },
    async (request) =>
      (
        await veiculos.listar({
          categoriaId: request.query.id_categoria,
          placa: request.query.placa,
          ativo: request.query.ativo,
        })
      ).map(paraVeiculoSaida),
  );

  app.get(
    '/Veiculos/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'One vehicle (staff)',
        security: comLogin,
        params: idParams,
        response: { 200: veiculoSaidaSchema, ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request) => paraVeiculoSaida(await veiculos.buscar(request.params.id)),
  );

  app.post(
    '/Veiculos',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Add a vehicle to the fleet (staff)',
        description: REGRAS,
        security: comLogin,
        body: veiculoSchema,
        response: { 201: veiculoSaidaSchema, ...errosDocumentados(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(paraVeiculoSaida(await veiculos.criar(request.body))),
  );

  app.put(
    '/Veiculos/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Change a vehicle (staff)',
        description:
          `${REGRAS} Absent \`quilometragem\` and \`ativo\` keep their value. A vehicle assigned ` +
          'to an open reservation keeps its model (409).',
        security: comLogin,
        params: idParams,
        body: veiculoAlteracaoSchema,
        response: { 200: veiculoSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
      },
    },
    async (request) => paraVeiculoSaida(await veiculos.atualizar(request.params.id, request.body)),
  );

  app.delete(
    '/Veiculos/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Delete a vehicle without history (staff)',
        description:
          'A vehicle with reservations, inspections, maintenance or fines is kept for the ' +
          'records (409): deactivate it with `PUT` and `ativo: false` instead.',
        security: comLogin,
        params: idParams,
        response: { 204: z.null(), ...errosDocumentados(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await veiculos.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
