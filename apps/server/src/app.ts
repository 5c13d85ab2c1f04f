import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { DestinationStream } from 'pino';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { openDatabase } from '@locadora/db';
import {
  criarEntregadorDoOutbox,
  garantirFluxos,
  locadoraApi,
  migracoesLocadora,
  semearDados,
  type EntregadorDoOutbox,
} from '@locadora/api';
import { sinoCore, sinoMigrations, type DevelopmentCredentials } from '@sino/core';
import type { Configuracao } from './configuracao.js';
import { segredosDoDiretorio, type Segredos } from './segredos.js';
import { guardarCredenciaisSino, type Terminal } from './credenciais-sino.js';
import { chaveSinoDoDiretorio, clienteSinoLocal, exigirHashDoAssinante } from './sino-local.js';
import { opcoesDeRegistro } from './registro.js';
import { rotaDeSaude } from './saude.js';
import { iniciarObservabilidade } from './observabilidade.js';
import { origensExternas, rotasDoWeb } from './web.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker sending Locadora's outbox to Sino; null where this process runs no workers. */
    outboxDaLocadora: EntregadorDoOutbox | null;
  }
}

export interface OpcoesDoApp {
  /** Where log lines go (tests capture them); standard output by default. */
  destinoDosLogs?: DestinationStream;
  /** Fixed clock for the rental rules (tests). */
  agora?: () => Date;
  /** Check every response against its route's schema before writing it (tests). */
  conferirRespostas?: boolean;
  /**
   * Receives Sino's development credentials when the first start creates them; by default they
   * are shown on `terminal` and written to `<DATA_DIR>/sino-development.json`.
   */
  aoCriarCredenciaisSino?: (credenciais: DevelopmentCredentials) => void;
  /** The operator's terminal: the only place the first start shows Sino's API key. */
  terminal?: Terminal;
  /** Prefix of Sino's queue keys in Redis, `sino` by default (tests use their own). */
  prefixoDaFilaSino?: string;
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
  // First: every route registered after it is timed.
  const observabilidade = await iniciarObservabilidade(app, config);

  const banco = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.PGLITE_DIR ?? join(config.DATA_DIR, 'pglite'),
    poolMax: config.DATABASE_POOL_MAX,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    statementTimeoutMs: config.DATABASE_QUERY_TIMEOUT_SECONDS * 1000,
  });
  app.addHook('onClose', () => banco.close());
  try {
    await banco.migrate([migracoesLocadora, sinoMigrations]);
    await semearDados(banco.db, { contasDemo: config.SEED_DEMO_ACCOUNTS });
  } catch (erro) {
    await banco.close();
    throw erro;
  }
  app.log.info({ driver: banco.driver }, 'database ready');

  // The web app runs under a strict policy: its own scripts only, tiles from the configured map
  // server, frames only from the configured BI report. Swagger UI gets its own, below.
  const externas = origensExternas(config);
  // Built once: @fastify/helmet builds helmet's middleware again at every request, parsing
  // every directive of the policy, which was 7% of the server's CPU per Sino trigger.
  const cabecalhosDeSeguranca = helmet({
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
  app.addHook('onRequest', (request, reply, done) =>
    cabecalhosDeSeguranca(request.raw, reply.raw, (erro?: unknown) =>
      erro ? done(erro as Error) : done(),
    ),
  );
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

  await app.register(rotaDeSaude, {
    banco,
    // Read when asked: Sino's plugin, registered below, opens the queue.
    ...(config.REDIS_URL && { redis: () => app.sino.queue.ping() }),
  });
  await app.register(rotasDoWeb, { config });
  // Read (or generated) only when the environment leaves one of them unset.
  let doDiretorio: Segredos | undefined;
  const segredo = (nome: keyof Segredos) =>
    (doDiretorio ??= segredosDoDiretorio(config.DATA_DIR))[nome];

  await app.register(sinoCore, {
    db: banco.db,
    database: banco,
    redisUrl: config.REDIS_URL,
    redisPrefix: config.SINO_REDIS_PREFIX,
    redisCommandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_SECONDS * 1000,
    ...(opcoes.prefixoDaFilaSino && { queuePrefix: opcoes.prefixoDaFilaSino }),
    runWorkers: config.ROLE === 'all' || config.ROLE === 'worker',
    workerConcurrency: config.SINO_WORKER_CONCURRENCY,
    metrics: observabilidade.metricasSino,
    widgetTokenSecret: config.SINO_WIDGET_JWT_SECRET ?? segredo('sinoWidgetSecret'),
    encryptionKey: config.SINO_ENCRYPTION_KEY ?? segredo('sinoEncryptionKey'),
    rateLimit: {
      triggerPerSecond: config.SINO_RATE_LIMIT_TRIGGERS,
      generalPerSecond: config.SINO_RATE_LIMIT_GENERAL,
    },
    delivery: {
      timeoutMs: config.SINO_DELIVERY_TIMEOUT_MS,
      retryDelaysMs: config.SINO_DELIVERY_RETRY_SECONDS,
      baseUrls: config.SINO_PROVIDER_BASE_URLS,
      allowedNetworks: config.SINO_PROVIDER_ALLOWED_NETWORKS,
      publicUrl: config.SINO_PUBLIC_URL,
      tlsCa: config.SINO_PROVIDER_CA_FILE
        ? readFileSync(config.SINO_PROVIDER_CA_FILE, 'utf8')
        : undefined,
    },
  });
  const credenciais = await app.sino.identity.bootstrapDevelopment(config.SINO_ORGANIZATION_NAME, {
    requireSubscriberHash: true,
  });
  if (credenciais) {
    if (opcoes.aoCriarCredenciaisSino) opcoes.aoCriarCredenciaisSino(credenciais);
    else guardarCredenciaisSino(config.DATA_DIR, credenciais, app.log, opcoes.terminal);
  }

  const chaveSino =
    config.SINO_API_KEY ?? credenciais?.apiKey ?? chaveSinoDoDiretorio(config.DATA_DIR);
  // The environment Locadora's key opens: its bell's sessions are of that environment.
  const ambienteSino = chaveSino
    ? await app.sino.identity.environmentForApiKey(chaveSino)
    : undefined;
  await app.register(locadoraApi, {
    db: banco.db,
    segredoJwt: config.JWT_SECRET ?? segredo('jwtSecret'),
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
    ...(ambienteSino &&
      chaveSino && {
        sino: { applicationIdentifier: ambienteSino.identifier, apiKey: chaveSino },
        clienteSino: clienteSinoLocal(app, chaveSino),
      }),
    ...(opcoes.agora && { agora: opcoes.agora }),
    ...(opcoes.conferirRespostas && { conferirRespostas: true }),
  });
  // Locadora's business events reach Sino from its outbox, sent by the worker processes.
  const entregador =
    chaveSino && (config.ROLE === 'all' || config.ROLE === 'worker')
      ? criarEntregadorDoOutbox({
          db: banco.db,
          escutar: (canal, aoAvisar) => banco.listen(canal, aoAvisar),
          sino: clienteSinoLocal(app, chaveSino),
          log: app.log.child({ modulo: 'outbox-locadora' }),
        })
      : null;
  app.decorate('outboxDaLocadora', entregador);
  if (entregador) observabilidade.observarOutboxDaLocadora(entregador.pendencias);
  // Before the database closes: the delivery under way finishes, nothing new starts.
  app.addHook('preClose', async () => entregador?.parar());
  // Locadora's notification workflows, kept in Sino through its HTTP API like any customer's.
  await app.ready();
  if (chaveSino) {
    await exigirHashDoAssinante(app, chaveSino);
    const fluxos = await garantirFluxos(clienteSinoLocal(app, chaveSino));
    app.log.info({ fluxos }, 'Sino: fluxos da Locadora garantidos');
  } else {
    app.log.warn(
      'Sino: sem chave de API (SINO_API_KEY ou $DATA_DIR/sino-development.json); os fluxos da Locadora não foram conferidos nem os avisos serão enviados',
    );
  }
  // After the workflows exist: an event sent before them would be refused as unknown.
  entregador?.iniciar();
  return app;
}
