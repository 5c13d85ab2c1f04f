import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adicionalSaidaSchema, localSaidaSchema } from '@locadora/contract/frota';
import { centavosParaReais } from '@locadora/contract/preco';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados, idParams } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import type { AdicionalRegistro, LocalRegistro } from './repositorio.js';

export function paraLocalSaida(l: LocalRegistro): z.infer<typeof localSaidaSchema> {
  return {
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
}

export function paraAdicionalSaida(a: AdicionalRegistro): z.infer<typeof adicionalSaidaSchema> {
  return { id_adicional: a.id, descricao: a.descricao, valor: centavosParaReais(a.valorCentavos) };
}

/** Reference data of the booking form: pickup places (with map coordinates) and extras. */
export const rotasDeReferencia: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { locais, adicionais } = servicos.frota;
  const logado = [guardas.autenticar];

  app.get(
    '/Locais',
    {
      onRequest: logado,
      schema: {
        tags: ['Locais'],
        summary: 'Pickup places with map coordinates, by code',
        security: comLogin,
        response: { 200: z.array(localSaidaSchema), ...errosDocumentados(401) },
      },
    },
    async () => (await locais.listar()).map(paraLocalSaida),
  );

  app.get(
    '/Locais/:id',
    {
      onRequest: logado,
      schema: {
        tags: ['Locais'],
        summary: 'One pickup place with map coordinates',
        security: comLogin,
        params: idParams,
        response: { 200: localSaidaSchema, ...errosDocumentados(401, 404) },
      },
    },
    async (request) => paraLocalSaida(await locais.buscar(request.params.id)),
  );

  app.get(
    '/Adicionais',
    {
      onRequest: logado,
      schema: {
        tags: ['Adicionais'],
        summary: 'Extras of a reservation, with their value in reais',
        security: comLogin,
        response: { 200: z.array(adicionalSaidaSchema), ...errosDocumentados(401) },
      },
    },
    async () => (await adicionais.listar()).map(paraAdicionalSaida),
  );
};
