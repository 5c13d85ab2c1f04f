import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TIPOS_VISTORIA } from '@locadora/contract/dominio';
import {
  buscaVistoriasQuery,
  vistoriaSaidaSchema,
  vistoriaSchema,
} from '@locadora/contract/operacao';
import { formatarPlaca } from '@locadora/contract/placa';
import { comLogin, usuarioDe } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { VistoriaDetalhada } from './repositorio.js';
import { MAXIMO_VISTORIAS_POR_BUSCA } from './servico.js';

export function paraVistoriaSaida(v: VistoriaDetalhada): z.infer<typeof vistoriaSaidaSchema> {
  return {
    id_vistoria: v.id,
    id_veiculo: v.veiculoId,
    placa: formatarPlaca(v.placa),
    tipo: v.tipo,
    tipo_descricao: TIPOS_VISTORIA[v.tipo as keyof typeof TIPOS_VISTORIA],
    data: v.realizadaEm.toISOString(),
    descricao: v.descricao,
    observacoes: v.observacoes,
    cria_ordem_manut: v.criaOrdemManutencao,
    id_manutencao: v.idManutencao,
    id_locacao: v.locacaoId,
    quilometragem: v.quilometragem,
  };
}

const REGRAS =
  'Tipo 0 = devolução do veículo, 1 = saída. The date may be `data_vistoria` or `data` ' +
  '(aaaa-mm-dd means midnight in Belo Horizonte) and cannot be in the future; the vehicle may be ' +
  '`id_veiculo` or `veiculo`. `id_locacao`, when given, must be a contract of that vehicle. ' +
  '`cria_ordem_manut: true` opens a linked repair order (no expected end: it blocks the vehicle ' +
  'until closed), never a second one.';

export const rotasDeVistorias: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { vistorias } = servicos;
  const tags = ['Vistorias'];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.get(
    '/Vistorias',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: `A vehicle's newest ${MAXIMO_VISTORIAS_POR_BUSCA} inspections (staff)`,
        security: comLogin,
        querystring: buscaVistoriasQuery,
        response: {
          200: z.array(vistoriaSaidaSchema),
          ...errosDocumentados(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      (await vistorias.listarPorVeiculo(request.query.veiculo)).map(paraVistoriaSaida),
  );

  app.get(
    '/Vistorias/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'One inspection (staff)',
        security: comLogin,
        params: idParams,
        response: { 200: vistoriaSaidaSchema, ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request) => paraVistoriaSaida(await vistorias.buscar(request.params.id)),
  );

  app.post(
    '/Vistorias',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Register an inspection (staff)',
        description: REGRAS,
        security: comLogin,
        body: vistoriaSchema,
        response: { 201: vistoriaSaidaSchema, ...errosDocumentados(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(paraVistoriaSaida(await vistorias.registrar(request.body, usuarioDe(request).id))),
  );

  app.put(
    '/Vistorias/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Change an inspection (staff)',
        description:
          `${REGRAS} Absent \`id_locacao\` and \`quilometragem\` keep their value. ` +
          'The vehicle of an inspection with a maintenance order cannot change (409).',
        security: comLogin,
        params: idParams,
        body: vistoriaSchema,
        response: { 200: vistoriaSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      paraVistoriaSaida(await vistorias.atualizar(request.params.id, request.body)),
  );

  app.delete(
    '/Vistorias/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Delete an inspection (staff); its maintenance order is kept, unlinked',
        security: comLogin,
        params: idParams,
        response: { 204: z.null(), ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await vistorias.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
