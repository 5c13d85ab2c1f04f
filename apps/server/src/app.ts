import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { DestinationStream } from 'pino';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { openDatabase } from '@locadora/db';
import { locadoraApi, migracoesLocadora, semearDados } from '@locadora/api';
import type { Configuracao } from './configuracao.js';
import { segredosDoDiretorio } from './segredos.js';
import { opcoesDeRegistro } from './registro.js';
import { rotaDeSaude } from './saude.js';
import { origensExternas, rotasDoWeb } from './web.js';

export interface OpcoesDoApp {
  /** Where log lines go (tests capture them); standard output by default. */
  destinoDosLogs?: DestinationStream;
  /** Fixed clock for the rental rules (tests). */
  agora?: () => Date;
}

/**
 * Builds the whole product on one Fastify instance: opens the database, applies the
 * migrations, seeds reference data, then registers docs, health and each half's plugin.
 */
export async function construirApp(
  config: Configuracao,
  opcoes: OpcoesDoApp = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opcoesDeRegistro(config.LOG_LEVEL, opcoes.destinoDosLogs),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const banco = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.PGLITE_DIR ?? join(config.DATA_DIR, 'pglite'),
    poolMax: config.DATABASE_POOL_MAX,
  });
  app.addHook('onClose', () => banco.close());
  try {
    await banco.migrate([migracoesLocadora]);
    await semearDados(banco.db, { contasDemo: config.SEED_DEMO_ACCOUNTS });
  } catch (erro) {
    await banco.close();
    throw erro;
  }
  app.log.info({ driver: banco.driver }, 'database ready');

  // The web app runs under a strict policy: its own scripts only, tiles from the configured map
  // server, frames only from the configured BI report. Swagger UI gets its own, below.
  const externas = origensExternas(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', externas.tiles],
        'connect-src': ["'self'"],
        'frame-src': externas.relatorioBi ? [externas.relatorioBi] : ["'none'"],
      },
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Locadora API',
        version: '0.1.0',
        description:
          'Vehicle-rental API (Brazilian Portuguese). Errors answer `{statusCode, error, message, campos?}`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    // Swagger UI needs inline scripts; only its pages get the looser policy.
    docs.addHook('onSend', async (_request, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
      );
    });
    await docs.register(swaggerUi, { routePrefix: '/docs' });
  });

  await app.register(rotaDeSaude, { banco });
  await app.register(rotasDoWeb, { config });
  await app.register(locadoraApi, {
    db: banco.db,
    segredoJwt: config.JWT_SECRET ?? segredosDoDiretorio(config.DATA_DIR).jwtSecret,
    regras: {
      intervaloEntreLocacoesHoras: config.RENTAL_TURNAROUND_HOURS,
      prazoIndicacaoCondutorDias: config.FINE_DRIVER_INDICATION_DAYS,
    },
    sessao: {
      validadeAcessoMinutos: config.ACCESS_TOKEN_TTL_MINUTES,
      validadeSessaoDias: config.SESSION_TTL_DAYS,
    },
    login: {
      maximoFalhasPorEmail: config.LOGIN_MAX_FAILURES,
      maximoFalhasPorEndereco: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      bloqueioMinutos: config.LOGIN_BLOCK_MINUTES,
    },
    ...(opcoes.agora && { agora: opcoes.agora }),
  });
  return app;
}
