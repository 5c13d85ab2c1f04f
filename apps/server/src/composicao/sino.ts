import { readFileSync } from 'node:fs';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '@locadora/db';
import type { FastifyBaseLogger } from 'fastify';
import {
  describeUnopened,
  sinoCore,
  type AdminCredentials,
  type DevelopmentCredentials,
  type ResealReport,
  type SinoMetrics,
} from '@sino/core';
import type { Configuracao } from '../configuracao.js';
import type { Papeis } from '../papeis.js';
import { TRAVAS } from '../banco.js';

export interface OpcoesDoSino {
  /** The opened database (migrated): Sino's tables and, without Redis, its queue. */
  banco: DatabaseHandle;
  config: Configuracao;
  papeis: Papeis;
  /**
   * The installation's secrets: from the environment, or the data folder's (ROLE=all); with
   * the former ones a rotation keeps for reading (decision 038).
   */
  segredos: {
    widget: string;
    widgetAnteriores?: readonly string[] | undefined;
    cifra: string;
    cifraAnteriores?: readonly string[] | undefined;
  };
  /** Prefix of the queue's Redis keys, when it differs from SINO_REDIS_PREFIX (tests). */
  prefixoDaFila?: string | undefined;
  /** Where Sino counts triggers, jobs, deliveries and sockets (METRICS_ENABLED); none when absent. */
  metricas?: SinoMetrics | undefined;
  /** Receives the credentials of the organisation a first start creates (once). */
  aoCriarCredenciais(credenciais: DevelopmentCredentials): void;
  /** The console admins this start made (their generated passwords, shown once). */
  aoCriarAdmins(admins: AdminCredentials[]): void;
}

/**
 * Sino's composition root: its plugin with what this process's role needs (the API, the
 * socket, the queue's workers), on the database it is given, then the first start's
 * organisation, environment and API key, created once under a lock however many processes
 * start together. With SINO_API_KEY set, that key is the environment's: every process of the
 * installation (and a Locadora elsewhere) already knows it.
 */
export const sinoDaInstalacao = fp<OpcoesDoSino>(
  async (
    app,
    { banco, config, papeis, segredos, prefixoDaFila, metricas, aoCriarCredenciais, aoCriarAdmins },
  ) => {
    await app.register(sinoCore, {
      db: banco.db,
      database: banco,
      redisUrl: config.REDIS_URL,
      redisPrefix: config.SINO_REDIS_PREFIX,
      redisCommandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_SECONDS * 1000,
      ...(prefixoDaFila && { queuePrefix: prefixoDaFila }),
      serveApi: papeis.api,
      serveSocket: papeis.ws,
      runWorkers: papeis.worker,
      workerConcurrency: config.SINO_WORKER_CONCURRENCY,
      shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
      messageRetentionDays: config.SINO_MESSAGE_RETENTION_DAYS,
      analyticsRetentionDays: config.SINO_ANALYTICS_RETENTION_DAYS,
      apiKeyGraceMs: config.SINO_API_KEY_GRACE_HOURS * 60 * 60 * 1000,
      ...(metricas && { metrics: metricas }),
      widgetTokenSecret: segredos.widget,
      previousWidgetTokenSecrets: segredos.widgetAnteriores,
      encryptionKey: segredos.cifra,
      previousEncryptionKeys: segredos.cifraAnteriores,
      accounts: { signUp: config.SINO_SIGNUP },
      consoleMailRequests: {
        maxFailuresPerEmail: config.SINO_MAIL_REQUESTS_PER_EMAIL,
        maxFailuresPerAddress: config.SINO_MAIL_REQUESTS_PER_ADDRESS,
        blockMinutes: 60,
      },
      consoleSignIn: {
        publicUrl: config.SINO_PUBLIC_URL,
        ...(config.SINO_GITHUB_CLIENT_ID &&
          config.SINO_GITHUB_CLIENT_SECRET && {
            github: {
              clientId: config.SINO_GITHUB_CLIENT_ID,
              clientSecret: config.SINO_GITHUB_CLIENT_SECRET,
              url: config.SINO_GITHUB_URL,
              apiUrl: config.SINO_GITHUB_API_URL,
            },
          }),
        ...(config.SINO_GOOGLE_CLIENT_ID &&
          config.SINO_GOOGLE_CLIENT_SECRET && {
            google: {
              clientId: config.SINO_GOOGLE_CLIENT_ID,
              clientSecret: config.SINO_GOOGLE_CLIENT_SECRET,
              issuer: config.SINO_GOOGLE_ISSUER,
            },
          }),
      },
      rateLimit: {
        triggerPerSecond: config.SINO_RATE_LIMIT_TRIGGERS,
        generalPerSecond: config.SINO_RATE_LIMIT_GENERAL,
      },
      platformMail: { url: config.SINO_MAIL_URL, from: config.SINO_MAIL_FROM },
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
    if (!config.REDIS_URL && !papeis.ws)
      app.log.warn(
        `ROLE=${config.ROLE} without REDIS_URL: this process holds no sockets and has no way to the ones that do, so its socket events reach nobody (widgets see them when they next read their feed)`,
      );
    const { credenciais, admins } = await banco.exclusive(TRAVAS.inicioDoSino, async () => ({
      credenciais: await app.sino.identity.bootstrapDevelopment(config.SINO_ORGANIZATION_NAME, {
        requireSubscriberHash: true,
        apiKey: config.SINO_API_KEY,
      }),
      // Each organization without an admin gets one: the first start, and the first start
      // after an upgrade from before console accounts.
      admins: await app.sino.accounts.ensureAdmins({
        email: config.SINO_ADMIN_EMAIL,
        password: config.SINO_ADMIN_PASSWORD,
      }),
    }));
    if (credenciais) aoCriarCredenciais(credenciais);
    if (admins.length > 0) aoCriarAdmins(admins);
    // A rotation of SINO_ENCRYPTION_KEY: what the previous keys sealed is sealed again under
    // the current one, by one process at a time (the workers' roles), before serving.
    if (papeis.worker)
      await banco.exclusive(TRAVAS.resselagemDoSino, async () =>
        relatarResselagem(app.log, await app.sino.resealing.reseal(), segredos.cifraAnteriores),
      );
  },
  { name: 'sino-da-instalacao', fastify: '5.x' },
);

/**
 * The re-seal's outcome in the log, one line each, naming values and key ids, never a secret:
 * how many were sealed again; what no configured key opens (they stay as they are); and, while
 * previous keys are configured, whether they may now go.
 */
export function relatarResselagem(
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  relatorio: ResealReport,
  anteriores: readonly string[] | undefined,
): void {
  if (relatorio.resealed > 0)
    log.info(
      { resealed: relatorio.resealed, keyId: relatorio.keyId },
      'Sino: sealed values re-sealed under the current encryption key',
    );
  const naoAbertos = describeUnopened(relatorio);
  if (naoAbertos) log.warn(`Sino: ${naoAbertos}`);
  else if (anteriores?.length)
    log.info(
      { keyId: relatorio.keyId },
      'Sino: every sealed value is under the current encryption key; SINO_ENCRYPTION_KEYS_PREVIOUS can be removed',
    );
}
