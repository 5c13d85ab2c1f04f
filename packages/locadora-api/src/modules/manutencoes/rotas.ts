import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TIPOS_MANUTENCAO } from '@locadora/contract/dominio';
import {
  encerramentoManutencaoSchema,
  listaManutencoesQuery,
  manutencaoSaidaSchema,
  manutencaoSchema,
} from '@locadora/contract/operacao';
import { formatarPlaca } from '@locadora/contract/placa';
import { centavosParaReais } from '@locadora/contract/preco';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { ManutencaoDetalhada } from './repositorio.js';

export function paraManutencaoSaida(m: ManutencaoDetalhada): z.infer<typeof manutencaoSaidaSchema> {
  return {
    id_manutencao: m.id,
    id_veiculo: m.veiculoId,
    placa: formatarPlaca(m.placa),
    tipo: m.tipo,
    tipo_descricao: TIPOS_MANUTENCAO[m.tipo as keyof typeof TIPOS_MANUTENCAO],
    id_vistoria: m.vistoriaId,
    data_inicio: m.inicio.toISOString(),
    previsao_termino: m.previsaoTermino?.toISOString() ?? null,
    encerrada_em: m.encerradaEm?.toISOString() ?? null,
    descricao: m.descricao,
    hora_oficina: m.horasOficina,
    valor_nf: m.valorNfCentavos === null ? null : centavosParaReais(m.valorNfCentavos),
  };
}

const REGRAS =
  'Tipo 0 revisão de garantia, 1 sinistro, 2 preventiva, 3 reparo, 4 parada operacional / ' +
  'reserva técnica, 5 limpeza. The vehicle is out of the available fleet from `data_inicio` ' +
  'until closed, else until `previsao_termino`, else indefinitely. `id_vistoria`, when given, ' +
  'must be an inspection of the same vehicle. Dates aaaa-mm-dd mean midnight in Belo Horizonte; ' +
  '`valor_nf` is in reais, `hora_oficina` in workshop hours. `id_manutencao` in the body is ignored.';

export const rotasDeManutencoes: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { manutencoes } = servicos;
  const tags = ['Manutenção'];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.post(
    '/Manutencao',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Open a maintenance order (staff)',
        description: REGRAS,
        security: comLogin,
        body: manutencaoSchema,
        response: { 201: manutencaoSaidaSchema, ...errosDocumentados(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(paraManutencaoSaida(await manutencoes.registrar(request.body))),
  );

  app.get(
    '/Manutencao',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Maintenance orders, newest first (staff)',
        description:
          '`id_veiculo` narrows to one vehicle (404 if unknown); `abertas=true` lists the orders ' +
          'not closed yet, `abertas=false` the closed ones.',
        security: comLogin,
        querystring: listaManutencoesQuery,
        response: {
          200: z.array(manutencaoSaidaSchema),
          ...errosDocumentados(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { id_veiculo, abertas, pagina, limite } = request.query;
      const lista = await manutencoes.listar({ veiculoId: id_veiculo, abertas, pagina, limite });
      return lista.map(paraManutencaoSaida);
    },
  );

  app.get(
    '/Manutencao/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'One maintenance order (staff)',
        security: comLogin,
        params: idParams,
        response: { 200: manutencaoSaidaSchema, ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request) => paraManutencaoSaida(await manutencoes.buscar(request.params.id)),
  );

  app.put(
    '/Manutencao/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Change a maintenance order (staff)',
        description: `${REGRAS} An absent \`id_vistoria\` keeps the order's link to its inspection.`,
        security: comLogin,
        params: idParams,
        body: manutencaoSchema,
        response: { 200: manutencaoSaidaSchema, ...errosDocumentados(400, 401, 403, 404) },
      },
    },
    async (request) =>
      paraManutencaoSaida(await manutencoes.atualizar(request.params.id, request.body)),
  );

  app.post(
    '/Manutencao/:id/encerramento',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Close a maintenance order, freeing the vehicle (staff)',
        description:
          'Closes now, or at `encerrada_em` (not before the start, not in the future). ' +
          'An order already closed answers 409.',
        security: comLogin,
        params: idParams,
        body: encerramentoManutencaoSchema.nullish(),
        response: {
          200: manutencaoSaidaSchema,
          ...errosDocumentados(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) =>
      paraManutencaoSaida(await manutencoes.encerrar(request.params.id, request.body ?? {})),
  );

  app.delete(
    '/Manutencao/:id',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Delete a maintenance order (staff)',
        security: comLogin,
        params: idParams,
        response: { 204: z.null(), ...errosDocumentados(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await manutencoes.excluir(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
