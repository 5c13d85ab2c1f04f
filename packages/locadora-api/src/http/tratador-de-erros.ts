import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '@locadora/db';
import { ErroLocadora } from '../erros.js';
import { camposInvalidos } from './validacao.js';
import { nomeDoStatus } from './respostas.js';

type ErroHttp = FastifyError & { validationContext?: string };

// Messages for Fastify's own client errors, in Portuguese.
const mensagensDoFastify: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'O corpo da requisição não é um JSON válido.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'O corpo da requisição está vazio.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'O corpo da requisição é grande demais.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Tipo de conteúdo não suportado: envie application/json.',
};

/** What a 503 for a database that does not answer asks the caller to wait, in seconds. */
export const ESPERA_SE_INDISPONIVEL_S = 5;

/**
 * One error handler for the rental API: invalid input answers 400 naming each field; a
 * malformed id in the path is a 404 like an unknown one; business refusals keep their
 * status; a database that cannot be reached or does not answer in time is a 503 with
 * `Retry-After`; anything else is logged and answered as a generic 500 without details.
 */
export function instalarTratadorDeErros(app: FastifyInstance): void {
  app.setErrorHandler((erro: ErroHttp, request, reply) => {
    if (erro instanceof z.ZodError) {
      if (
        erro.validationContext === 'params' ||
        (erro.validationContext === 'querystring' && erro.issues.some((i) => i.path[0] === 'id'))
      ) {
        return reply
          .code(404)
          .send({ statusCode: 404, error: nomeDoStatus(404), message: 'Registro não encontrado.' });
      }
      const campos = camposInvalidos(erro);
      const primeiro = campos[0];
      return reply.code(400).send({
        statusCode: 400,
        error: nomeDoStatus(400),
        message: primeiro ? `${primeiro.campo}: ${primeiro.mensagem}` : 'Dados inválidos.',
        campos,
      });
    }
    if (erro instanceof ErroLocadora) {
      const campos = erro.campo ? [{ campo: erro.campo, mensagem: erro.message }] : undefined;
      return reply.code(erro.statusCode).send({
        statusCode: erro.statusCode,
        error: nomeDoStatus(erro.statusCode),
        message:
          erro.campo && erro.statusCode === 400 ? `${erro.campo}: ${erro.message}` : erro.message,
        ...(campos && { campos }),
      });
    }
    const status = erro.statusCode ?? 500;
    if (status < 500 && !isResponseSerializationError(erro)) {
      request.log.info({ code: erro.code, status }, 'requisição recusada');
      return reply.code(status).send({
        statusCode: status,
        error: nomeDoStatus(status),
        message: mensagensDoFastify[erro.code] ?? 'Requisição inválida.',
      });
    }
    if (isDatabaseUnavailable(erro)) {
      // Not a bug: the log says what failed, the answer only when to try again.
      request.log.warn({ err: erro }, 'o banco de dados não respondeu');
      return reply
        .code(503)
        .header('retry-after', ESPERA_SE_INDISPONIVEL_S)
        .send({
          statusCode: 503,
          error: nomeDoStatus(503),
          message: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
        });
    }
    request.log.error({ err: erro }, 'erro inesperado');
    return reply.code(500).send({
      statusCode: 500,
      error: nomeDoStatus(500),
      message: 'Erro interno. Tente novamente em instantes.',
    });
  });

  app.setNotFoundHandler((request, reply) => {
    // Only the path: a query string may carry personal data (an e-mail, a CPF).
    request.log.info({ caminho: request.url.split('?')[0] }, 'rota não encontrada');
    return reply
      .code(404)
      .send({ statusCode: 404, error: nomeDoStatus(404), message: 'Rota não encontrada.' });
  });
}
