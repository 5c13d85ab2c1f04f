import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { DestinationStream } from 'pino';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { DatabaseHandle, Migrations } from '@locadora/db';
import { migracoesLocadora, semearDados } from '@locadora/api';
import {
  sinoApi,
  sinoMigrations,
  type AdminCredentials,
  type DevelopmentCredentials,
} from '@sino/core';
import { createSinoClient, type SinoClient } from '@sino/client';
import type { Configuracao } from './configuracao.js';
import { segredosDoDiretorio, type Segredos } from './segredos.js';
import { guardarAdminsSino, guardarCredenciaisSino, type Terminal } from './credenciais-sino.js';
import { chaveSinoDoDiretorio, clienteSinoLocal, exigirHashDoAssinante } from './sino-local.js';
import { opcoesDeRegistro } from './registro.js';
import { rotaDeSaude } from './saude.js';
import { iniciarObservabilidade } from './observabilidade.js';
import { origensExternas } from './web.js';
import { rotasDoConsole } from './console.js';
import { TRAVAS } from './banco.js';

export { abrirBanco } from './banco.js';
import { papeisDe } from './papeis.js';
import { sinoDaInstalacao } from './composicao/sino.js';
import { locadoraDaInstalacao } from './composicao/locadora.js';

/** Opens the database the server runs on; the server then closes it with itself. */
export type AbridorDoBanco = () => Promise<DatabaseHandle>;

export interface OpcoesDoApp {
  /**
   * The database: an opened one (the caller closes it after the server: tests keep theirs to
   * look into), or an opener whose database the server closes with itself (`abrirBanco`).
   */
  banco: DatabaseHandle | AbridorDoBanco;
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
  /** Tests: the console admins made (instead of the data folder's file and the terminal). */
  aoCriarAdminsSino?: (admins: AdminCredentials[]) => void;
  /** The operator's terminal: the only place the first start shows Sino's API key. */
  terminal?: Terminal;
  /** Prefix of Sino's queue keys in Redis, `sino` by default (tests use their own). */
  prefixoDaFilaSino?: string;
}

/**
 * The server's entry: one Fastify instance with what this process's ROLE and HALVES need. It
 * applies the migrations of the halves it runs, seeds Locadora's reference data once, then
 * registers health and readiness (every role), the docs and security headers (role `api`),
 * and each half's composition root, giving Locadora a Sino client: in this process (Sino's
 * API answered without a socket) or remote at SINO_URL.
 */
export async function construirApp(
  config: Configuracao,
  opcoes: OpcoesDoApp,
): Promise<FastifyInstance> {
  const papeis = papeisDe(config.ROLE);
  const comLocadora = config.HALVES.includes('locadora');
  const comSino = config.HALVES.includes('sino');
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
  // First: every route registered after it is timed; every role answers /metrics when enabled.
  const observabilidade = await iniciarObservabilidade(app, config);

  const proprio = typeof opcoes.banco === 'function';
  const banco = typeof opcoes.banco === 'function' ? await opcoes.banco() : opcoes.banco;
  if (proprio) app.addHook('onClose', () => banco.close());
  try {
    const migracoes: Migrations[] = [
      ...(comLocadora ? [migracoesLocadora] : []),
      ...(comSino ? [sinoMigrations] : []),
    ];
    await banco.migrate(migracoes);
    if (comLocadora)
      await banco.exclusive(TRAVAS.sementes, () =>
        semearDados(banco.db, { contasDemo: config.SEED_DEMO_ACCOUNTS }),
      );
  } catch (erro) {
    if (proprio) await banco.close();
    throw erro;
  }
  app.log.info(
    { driver: banco.driver, role: config.ROLE, halves: config.HALVES },
    'database ready',
  );

  if (papeis.api) await registrarDocsECabecalhos(app, config);
  await app.register(rotaDeSaude, {
    banco,
    // Read when asked: Sino's plugin, registered below, opens the queue.
    ...(config.REDIS_URL && comSino && { redis: () => app.sino.queue.ping() }),
  });
  // Read (or generated) only when the environment leaves one of them unset (ROLE=all).
  let doDiretorio: Segredos | undefined;
  const segredo = (nome: keyof Segredos) =>
    (doDiretorio ??= segredosDoDiretorio(config.DATA_DIR))[nome];

  let credenciais: DevelopmentCredentials | undefined;
  // Sino's console is served wherever Sino's API is (its own policy, its own deep links).
  if (comSino && papeis.api) await app.register(rotasDoConsole, { config });
  if (comSino) {
    await app.register(sinoDaInstalacao, {
      banco,
      config,
      papeis,
      segredos: {
        widget: config.SINO_WIDGET_JWT_SECRET ?? segredo('sinoWidgetSecret'),
        widgetAnteriores: config.SINO_WIDGET_JWT_SECRETS_PREVIOUS,
        cifra: config.SINO_ENCRYPTION_KEY ?? segredo('sinoEncryptionKey'),
        cifraAnteriores: config.SINO_ENCRYPTION_KEYS_PREVIOUS,
      },
      prefixoDaFila: opcoes.prefixoDaFilaSino,
      metricas: observabilidade.metricasSino,
      aoCriarCredenciais(c) {
        credenciais = c;
        if (opcoes.aoCriarCredenciaisSino) opcoes.aoCriarCredenciaisSino(c);
        // The operator gave the key (SINO_API_KEY): nothing to show nor to keep.
        else if (config.SINO_API_KEY)
          app.log.info('Sino: first organisation created with SINO_API_KEY');
        else guardarCredenciaisSino(config.DATA_DIR, c, app.log, opcoes.terminal);
      },
      aoCriarAdmins(admins) {
        if (opcoes.aoCriarAdminsSino) opcoes.aoCriarAdminsSino(admins);
        else guardarAdminsSino(config.DATA_DIR, admins, app.log, opcoes.terminal);
      },
    });
  }

  // A socket node runs nothing of Locadora's (it has no socket of its own).
  if (comLocadora && (papeis.api || papeis.worker)) {
    const chaveSino =
      config.SINO_API_KEY ?? credenciais?.apiKey ?? chaveSinoDoDiretorio(config.DATA_DIR);
    let cliente: SinoClient | undefined;
    if (chaveSino && config.SINO_URL) {
      cliente = createSinoClient({ baseUrl: config.SINO_URL, apiKey: chaveSino });
    } else if (chaveSino && comSino) {
      // This process's Sino answers Locadora's calls: on this server when it serves Sino's API,
      // else on a private instance that never listens (roles worker and ws).
      const local = papeis.api ? app : await instanciaPrivadaDoSino(app);
      cliente = clienteSinoLocal(local, chaveSino);
      // Both halves in one process: Locadora's environment requires the subscriber's hash (an
      // environment created before that rule is brought to it here).
      await exigirHashDoAssinante(app, chaveSino);
    }
    await app.register(locadoraDaInstalacao, {
      banco,
      config,
      papeis,
      segredoJwt: config.JWT_SECRET ?? segredo('jwtSecret'),
      segredosJwtAnteriores: config.JWT_SECRETS_PREVIOUS,
      sino: cliente && chaveSino ? { cliente, apiKey: chaveSino } : undefined,
      agora: opcoes.agora,
      conferirRespostas: opcoes.conferirRespostas,
    });
  }
  // The outbox's backlog is counted where it is delivered (role worker).
  if (app.hasDecorator('outboxDaLocadora') && app.outboxDaLocadora)
    observabilidade.observarOutboxDaLocadora(app.outboxDaLocadora.pendencias);
  await app.ready();
  // Locadora's workflows and outbox, once Sino answers (in this process: now that it is ready).
  if (comLocadora && (papeis.api || papeis.worker)) await app.ligarLocadoraAoSino();
  return app;
}

/** Sino's API on an instance of its own, for the in-process client of a role without it. */
async function instanciaPrivadaDoSino(app: FastifyInstance): Promise<FastifyInstance> {
  const privada = Fastify({ loggerInstance: app.log.child({ instancia: 'sino-local' }) });
  await privada.register(sinoApi, { services: app.sino });
  await privada.ready();
  app.addHook('onClose', () => privada.close());
  return privada;
}

/** Security headers, the OpenAPI document and Swagger UI: what a role serving HTTP needs. */
async function registrarDocsECabecalhos(app: FastifyInstance, config: Configuracao) {
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
    // Schemas registered with an id (Sino's trigger overrides) become shared components.
    transformObject: jsonSchemaTransformObject,
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
}
