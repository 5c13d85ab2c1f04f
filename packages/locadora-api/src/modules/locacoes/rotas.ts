import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cotacaoSaidaSchema,
  cotacaoSchema,
  devolucaoSchema,
  historicoSaidaSchema,
  listaHistoricoQuery,
  listaLocacoesQuery,
  locacaoSaidaSchema,
  locacaoSchema,
  localizacaoSaidaSchema,
  retiradaSchema,
  type LocacaoPedido,
  type LocalizacaoSaida,
} from '@locadora/contract/locacoes';
import { comLogin, usuarioDe } from '../../http/autenticacao.js';
import { errosDocumentados, idParams, idQuery } from '../../http/respostas.js';
import { naoEncontrada } from '../../erros.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { UsuarioAutenticado } from '../contas/tipos.js';
import { idDoCodigo, paraHistorico, paraLocacaoSaida } from './conversao.js';
import { MENSAGEM_SEM_VEICULO } from './servico.js';
import type { LocacaoDetalhada, LocalRegistro } from './repositorio.js';

function paraLocalizacao(r: { locacao: LocacaoDetalhada; local: LocalRegistro }): LocalizacaoSaida {
  const l = r.local;
  const local: LocalizacaoSaida['local'] = {
    id_local: l.id,
    codigo: l.codigo,
    nome: l.nome,
    endereco: l.endereco,
    bairro: l.bairro,
    cidade: l.cidade,
    uf: l.uf,
    latitude: l.latitude,
    longitude: l.longitude,
  };
  return { locacao: paraLocacaoSaida(r.locacao), local };
}

const REGRAS =
  'Dates (aaaa-mm-dd) and hours (hh:mm) are local to Belo Horizonte. The server prices the ' +
  'reservation: `vl_categoria` (daily value of the category) x days + the extra, chosen by ' +
  '`id_adicional` or by its value in reais in `custos_ad` (0, 99, 249, 499); prices sent by the ' +
  'client are ignored. `modelo_veiculo` must be a model of `id_categoria`. Customers book for ' +
  "themselves; staff may name the customer in `id_usuario`. The customer's CNH must allow cars " +
  `(B or higher), else 409. When every vehicle of the category is taken for the period (turnaround ` +
  `gap included) or in maintenance: 409 "${MENSAGEM_SEM_VEICULO}"`;

const contratoParams = z.object({ contrato: idParams.shape.id });

/** Reservations, their lifecycle, the history screen and the location screen. */
export const rotasDeLocacoes: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { locacoes } = servicos;
  const tags = ['Locação'];
  const logado = [guardas.autenticar];
  const somenteEquipe = [guardas.autenticar, guardas.somenteEquipe];

  app.get(
    '/Locacao',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'Reservations, newest pickup first (customers: their own; staff: all)',
        security: comLogin,
        querystring: listaLocacoesQuery,
        response: { 200: z.array(locacaoSaidaSchema), ...errosDocumentados(400, 401) },
      },
    },
    async (request) =>
      (await locacoes.listar(usuarioDe(request), request.query)).map(paraLocacaoSaida),
  );

  app.get(
    '/Locacao/:id',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'One reservation (its customer or staff)',
        description: "Another customer's reservation answers 404, as an unknown one.",
        security: comLogin,
        params: idParams,
        response: { 200: locacaoSaidaSchema, ...errosDocumentados(401, 404) },
      },
    },
    async (request) =>
      paraLocacaoSaida(await locacoes.buscar(usuarioDe(request), request.params.id)),
  );

  app.post(
    '/Locacao',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'Book a reservation ("Reservar")',
        description: REGRAS,
        security: comLogin,
        body: locacaoSchema,
        response: { 201: locacaoSaidaSchema, ...errosDocumentados(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(paraLocacaoSaida(await locacoes.criar(usuarioDe(request), request.body))),
  );

  app.post(
    '/Locacao/cotacao',
    {
      onRequest: logado,
      schema: {
        tags,
        summary: 'Price a reservation without booking it ("Calcular Total")',
        description:
          'Same fields and checks as booking (except the CNH); answers the days, values in reais ' +
          'and how many vehicles of the category are free for the period. Nothing is written.',
        security: comLogin,
        body: cotacaoSchema,
        response: { 200: cotacaoSaidaSchema, ...errosDocumentados(400, 401) },
      },
    },
    async (request) => locacoes.cotar(request.body),
  );

  const alterar = async (usuario: UsuarioAutenticado, id: number, corpo: LocacaoPedido) =>
    paraLocacaoSaida(await locacoes.alterar(usuario, id, corpo));
  const alteracao = {
    tags,
    description: `Only while the reservation is 'reservada' (409 otherwise); the total is recomputed and availability checked again. ${REGRAS}`,
    security: comLogin,
    body: locacaoSchema,
    response: { 200: locacaoSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
  };
  app.put(
    '/Locacao',
    {
      onRequest: logado,
      schema: {
        ...alteracao,
        summary: 'Change a reservation, by `?id=` as the spec calls it',
        querystring: idQuery,
      },
    },
    async (request) => alterar(usuarioDe(request), request.query.id, request.body),
  );
  app.put(
    '/Locacao/:id',
    {
      onRequest: logado,
      schema: { ...alteracao, summary: 'Change a reservation', params: idParams },
    },
    async (request) => alterar(usuarioDe(request), request.params.id, request.body),
  );

  const cancelamento = {
    tags,
    description:
      "Cancels (status 'cancelada'): the record is kept. Only before pickup (409 otherwise).",
    security: comLogin,
    response: { 200: locacaoSaidaSchema, ...errosDocumentados(401, 404, 409) },
  };
  app.delete(
    '/Locacao',
    {
      onRequest: logado,
      schema: {
        ...cancelamento,
        summary: 'Cancel a reservation, by `?id=` as the spec calls it ("Excluir")',
        querystring: idQuery,
      },
    },
    async (request) =>
      paraLocacaoSaida(await locacoes.cancelar(usuarioDe(request), request.query.id)),
  );
  app.delete(
    '/Locacao/:id',
    {
      onRequest: logado,
      schema: { ...cancelamento, summary: 'Cancel a reservation', params: idParams },
    },
    async (request) =>
      paraLocacaoSaida(await locacoes.cancelar(usuarioDe(request), request.params.id)),
  );

  app.post(
    '/Locacao/:id/retirada',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Pickup: assign a vehicle and open the contract (staff)',
        description:
          'Assigns `id_veiculo`, or the first free vehicle of the category (the booked model ' +
          'first): active, not in maintenance now, not out with another contract. 400 on ' +
          '`id_veiculo` when it does not exist or is of another category; 409 when the ' +
          "reservation is not 'reservada' or the vehicle cannot leave.",
        security: comLogin,
        params: idParams,
        body: retiradaSchema.nullish(),
        response: { 200: locacaoSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      paraLocacaoSaida(await locacoes.retirar(request.params.id, request.body ?? {})),
  );

  app.post(
    '/Locacao/:id/devolucao',
    {
      onRequest: somenteEquipe,
      schema: {
        tags,
        summary: 'Return: close the contract (staff)',
        description:
          "Only from 'retirada'. `quilometragem`, when given, becomes the vehicle's odometer " +
          'and cannot be below its current reading; `observacao` is added to the contract.',
        security: comLogin,
        params: idParams,
        body: devolucaoSchema.nullish(),
        response: { 200: locacaoSaidaSchema, ...errosDocumentados(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      paraLocacaoSaida(
        await locacoes.devolver(request.params.id, request.body ?? { observacao: null }),
      ),
  );

  app.get(
    '/Locacao/:id/localizacao',
    {
      onRequest: logado,
      schema: {
        tags: [...tags, 'Localização'],
        summary: 'A reservation with its pickup place and map coordinates',
        security: comLogin,
        params: idParams,
        response: { 200: localizacaoSaidaSchema, ...errosDocumentados(401, 404) },
      },
    },
    async (request) =>
      paraLocalizacao(await locacoes.localizacao(usuarioDe(request), request.params.id)),
  );

  app.get(
    '/find-by-locacao',
    {
      onRequest: logado,
      schema: {
        tags: [...tags, 'Localização'],
        summary: 'The location lookup by `?id_locacao=` as the spec calls it',
        description:
          'Accepts the number (123) or the code (LOC-000123). Anything else, or an unknown ' +
          'reservation, answers 404.',
        security: comLogin,
        querystring: z.object({
          id_locacao: z
            .string({ error: 'Informe o código da locação.' })
            .trim()
            .min(1, { error: 'Informe o código da locação.' }),
        }),
        response: { 200: localizacaoSaidaSchema, ...errosDocumentados(400, 401, 404) },
      },
    },
    async (request) => {
      const id = idDoCodigo(request.query.id_locacao);
      if (id === null) throw naoEncontrada('Locação');
      return paraLocalizacao(await locacoes.localizacao(usuarioDe(request), id));
    },
  );

  app.get(
    '/Historico',
    {
      onRequest: logado,
      schema: {
        tags: ['Histórico'],
        summary: 'Contract history, newest first (customers: their own; staff: all)',
        security: comLogin,
        querystring: listaHistoricoQuery,
        response: { 200: z.array(historicoSaidaSchema), ...errosDocumentados(400, 401) },
      },
    },
    async (request) =>
      (await locacoes.listarHistorico(usuarioDe(request), request.query)).map(paraHistorico),
  );

  app.get(
    '/Historico/:contrato',
    {
      onRequest: logado,
      schema: {
        tags: ['Histórico'],
        summary: 'One contract of the history (its customer or staff)',
        description:
          'The spec called `/api/Historico={contrato}`. `Encerramento` is the local date of the ' +
          'return (null while open); `Observacao` defaults to "Nenhuma observação disponível".',
        security: comLogin,
        params: contratoParams,
        response: { 200: historicoSaidaSchema, ...errosDocumentados(401, 404) },
      },
    },
    async (request) =>
      paraHistorico(await locacoes.historico(usuarioDe(request), request.params.contrato)),
  );
};
