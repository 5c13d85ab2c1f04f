import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { painelQuery, painelSaidaSchema } from '@locadora/contract/painel';
import { comLogin } from '../../http/autenticacao.js';
import { errosDocumentados } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';

/** The staff dashboard. */
export const rotasDoPainel: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  app.get(
    '/Dashboard',
    {
      onRequest: [guardas.autenticar, guardas.somenteEquipe],
      schema: {
        tags: ['Dashboard'],
        summary: 'Business figures of the last months (staff)',
        description:
          'Computed in SQL at each request. Months are counted in America/Sao_Paulo and run from the ' +
          'first day of the oldest month of the period to the end of the current one; reservations ' +
          'fall in the month of their planned pickup. Revenue sums the totals of reservations in ' +
          'status reservada, retirada or devolvida (never cancelada). Fleet figures are as of now: ' +
          'vehicles out are those of a reservation in status retirada; in maintenance, those whose ' +
          'maintenance has started and is not closed (nor past its expected end). Open fines are ' +
          'those that occurred in the last 90 days: no payment is recorded.',
        security: comLogin,
        querystring: painelQuery,
        response: { 200: painelSaidaSchema, ...errosDocumentados(400, 401, 403) },
      },
    },
    async (request) => servicos.painel.resumo(request.query),
  );
};
