import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isStoreUnavailable, SinoError, STORE_RETRY_AFTER_SECONDS } from '../errors.js';
import { validationMessages } from './validation.js';
import { isUnopenable } from '../secret-box.js';

const statusName = (status: number) => STATUS_CODES[status] ?? 'Error';

// Fastify's own client errors, said plainly.
const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Body cannot be empty when content-type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
};

/** One error handler for Sino's API: Novu's error body, no internals on a 500. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof z.ZodError) {
      return reply
        .code(400)
        .send({ statusCode: 400, message: validationMessages(error), error: statusName(400) });
    }
    if (error instanceof SinoError) {
      if (error.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send({
        statusCode: error.statusCode,
        message: error.message,
        error: statusName(error.statusCode),
        ...(error.code && { code: error.code }),
      });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      request.log.info({ code: error.code, status }, 'request refused');
      return reply.code(status).send({
        statusCode: status,
        message: fastifyMessages[error.code] ?? error.message,
        error: statusName(status),
      });
    }
    if (isStoreUnavailable(error)) {
      // Not a bug: the operator learns which store from the log line, the caller when to retry.
      request.log.warn({ err: error }, 'a store did not answer');
      return reply
        .code(503)
        .header('retry-after', STORE_RETRY_AFTER_SECONDS)
        .send({
          statusCode: 503,
          message: 'The service is temporarily unavailable, please try again later',
          error: statusName(503),
        });
    }
    if (isUnopenable(error)) {
      // The operator's to fix (a key removed too soon): what cannot be opened and why, in
      // words that name the value and its key id, never a secret (decision 038).
      request.log.error(
        { err: { type: error.name, message: error.message } },
        'sealed value not opened',
      );
      return reply
        .code(500)
        .send({ statusCode: 500, message: error.message, error: statusName(500) });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply
      .code(500)
      .send({ statusCode: 500, message: 'Internal server error', error: statusName(500) });
  });

  app.setNotFoundHandler((request, reply) => {
    // The path only: a query string may carry personal data (`?emails=`).
    request.log.info({ path: request.url.split('?')[0] }, 'route not found');
    return reply.code(404).send({
      statusCode: 404,
      message: `Cannot ${request.method} ${request.url.split('?')[0]}`,
      error: statusName(404),
    });
  });
}
