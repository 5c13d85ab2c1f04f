import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { logSerializers } from '@locadora/db';
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
  // Sino's sign-in providers (SINO_GITHUB_CLIENT_SECRET, SINO_GOOGLE_CLIENT_SECRET).
  '*.clientSecret',
];

export function opcoesDeRegistro(
  nivel: string,
  destino?: DestinationStream,
): FastifyServerOptions['loggerInstance'] {
  const opcoes: LoggerOptions = {
    level: nivel,
    redact: { paths: CAMINHOS_CENSURADOS, censor: '[oculto]' },
    // Errors without SQL, parameters or row values; requests by route, without what the
    // client sent in the path or the query (@locadora/db).
    serializers: logSerializers,
  };
  return destino ? pino(opcoes, destino) : pino(opcoes);
}
