import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { DestinationStream, LoggerOptions } from 'pino';

// Anything that could carry a credential is censored before a log line is written.
const CAMINHOS_CENSURADOS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.senha',
  '*.senhaHash',
  '*.password',
  '*.confirmacaoSenha',
  '*.jwtToken',
];

/** Errors from the database driver carry the query's parameters (a password hash, say): never log them. */
function serializarErro(erro: unknown) {
  const serializado = pino.stdSerializers.err(erro as Error) as Record<string, unknown>;
  delete serializado.params;
  if (serializado.cause && typeof serializado.cause === 'object') {
    const causa = { ...(serializado.cause as Record<string, unknown>) };
    delete causa.params;
    serializado.cause = causa;
  }
  return serializado;
}

export function opcoesDeRegistro(
  nivel: string,
  destino?: DestinationStream,
): FastifyServerOptions['loggerInstance'] {
  const opcoes: LoggerOptions = {
    level: nivel,
    redact: { paths: CAMINHOS_CENSURADOS, censor: '[oculto]' },
    serializers: { err: serializarErro },
  };
  return destino ? pino(opcoes, destino) : pino(opcoes);
}
