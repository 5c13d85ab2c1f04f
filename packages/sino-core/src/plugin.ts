import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import { errorCodes, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { validatorCompiler } from './http/validation.js';
import type { SinoContext } from './context.js';
import type { SinoOptions } from './options.js';
import { createSinoServices, type SinoServices } from './services.js';
import { createGuards } from './http/guards.js';
import { installErrorHandler } from './http/error-handler.js';
import { installIdempotency } from './http/idempotency.js';
import { installRateLimit } from './http/rate-limit.js';
import { subscriberRoutes } from './modules/subscribers/routes.js';
import { topicRoutes } from './modules/topics/routes.js';
import { tenantRoutes } from './modules/tenants/routes.js';
import { widgetSessionRoutes } from './modules/widget/routes.js';
import {
  createSocketGateway,
  type ConsoleSessionOf,
  type CountsOnConnect,
} from './realtime/gateway.js';
import { createRealtimeEmitter } from './realtime/emitter.js';
import { createWidgetTokens } from './modules/widget/tokens.js';
import { createRepositories } from './repositories.js';
import {
  feedRoutes,
  notificationTemplateRoutes,
  workflowRoutes,
} from './modules/workflows/routes.js';
import { inboundParseRoutes } from './modules/inbound-parse/routes.js';
import {
  subscriberPreferenceRoutes,
  widgetPreferenceRoutes,
} from './modules/preferences/routes.js';
import { widgetMessageRoutes } from './modules/messages/widget-routes.js';
import { serverMessageRoutes } from './modules/messages/server-routes.js';
import { eventRoutes } from './modules/events/routes.js';
import { environmentRoutes } from './modules/environments/routes.js';
import { notificationGroupRoutes } from './modules/notification-groups/routes.js';
import { consoleAuthRoutes, consolePersonRoutes } from './modules/accounts/routes.js';
import { consoleSignInRoutes } from './modules/accounts/oauth-routes.js';
import { peopleRoutes } from './modules/accounts/people-routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { organizationRoutes } from './modules/organizations/routes.js';
import { workflowOverrideRoutes } from './modules/workflow-overrides/routes.js';
import { layoutRoutes } from './modules/layouts/routes.js';
import { changeRoutes } from './modules/changes/routes.js';
import { organizationBrandingRoutes } from './modules/organizations/branding-routes.js';
import { environmentMessageRoutes } from './modules/messages/environment-routes.js';
import { activityRoutes } from './modules/activity/routes.js';
import { integrationRoutes } from './modules/integrations/routes.js';
import { previewRoutes } from './modules/previews/routes.js';
import { providerWebhookRoutes, sandboxRoutes } from './delivery/routes.js';
import { analyticsRoutes } from './modules/analytics/routes.js';
import { createJobQueue } from './queue/factory.js';
import type { SinoTask } from './tasks.js';
import { noMetrics } from './observability/metrics.js';
import { carryingTraceContext, observedHandler } from './observability/jobs.js';

/**
 * Sino's HTTP API under `/v1`, with its own validator, serializer and error handler (English,
 * Novu's error body), encapsulated so the rental API keeps its own.
 */
const api: FastifyPluginAsync<SinoContext> = async (app, options) => {
  // Only the context travels on: the options also hold this plugin's own `prefix`.
  const ctx: SinoContext = { services: options.services, guards: options.guards };
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  app.decorateRequest('environment', null);
  app.decorateRequest('actor', null);
  app.decorateRequest('widget', null);

  // The widget is embedded in other sites: its API is open to every origin. Tokens travel in
  // the Authorization header, never in cookies, so this exposes nothing.
  await app.register(
    async (widgets) => {
      await widgets.register(cors, { origin: '*', methods: ['GET', 'POST', 'PATCH', 'DELETE'] });
      // Widget API modules, one line each.
      await widgets.register(widgetPreferenceRoutes, ctx);
      await widgets.register(widgetSessionRoutes, ctx);
      await widgets.register(widgetMessageRoutes, ctx);
    },
    { prefix: '/widgets' },
  );

  // The console's sign-in: no credentials yet (its refresh cookie, at most).
  await app.register(consoleAuthRoutes, ctx);
  await app.register(consoleSignInRoutes, ctx);

  // The server API: every route below needs `Authorization: ApiKey <key>`, or a console
  // person's `Authorization: Bearer <access token>`.
  await app.register(async (server) => {
    server.addHook('onRequest', ctx.guards.apiKey);
    acceptEmptyForms(server);
    installRateLimit(server, ctx.services.rateLimits);
    installIdempotency(server, ctx.services.idempotency);
    // Server API modules, one line each.
    await server.register(subscriberRoutes, ctx);
    await server.register(topicRoutes, ctx);
    await server.register(tenantRoutes, ctx);
    await server.register(workflowRoutes, ctx);
    await server.register(notificationTemplateRoutes, ctx);
    await server.register(feedRoutes, ctx);
    await server.register(notificationGroupRoutes, ctx);
    await server.register(workflowOverrideRoutes, ctx);
    await server.register(layoutRoutes, ctx);
    await server.register(changeRoutes, ctx);
    await server.register(organizationBrandingRoutes, ctx);
    await server.register(subscriberPreferenceRoutes, ctx);
    await server.register(serverMessageRoutes, ctx);
    await server.register(eventRoutes, ctx);
    await server.register(environmentRoutes, ctx);
    await server.register(environmentMessageRoutes, ctx);
    await server.register(activityRoutes, ctx);
    await server.register(integrationRoutes, ctx);
    await server.register(previewRoutes, ctx);
    await server.register(sandboxRoutes, ctx);
    await server.register(analyticsRoutes, ctx);
    await server.register(inboundParseRoutes, ctx);
    await server.register(consolePersonRoutes, ctx);
    await server.register(peopleRoutes, ctx);
    await server.register(auditRoutes, ctx);
    await server.register(organizationRoutes, ctx);
  });

  // Providers' delivery webhooks: authenticated by their signatures, not by an API key.
  await app.register(providerWebhookRoutes, ctx);
};

/**
 * @novu/node 0.24 posts without a body under axios' default form type (a layout's default,
 * regenerating API keys): an empty form is no body; a form with something in it is refused
 * (415), as every body but JSON is.
 */
function acceptEmptyForms(server: FastifyInstance) {
  server.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => {
      if (body === '') done(null, undefined);
      else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    sino: SinoServices;
  }
}

/**
 * Sino's HTTP API under `/v1` on `app`, over services built elsewhere: a private instance
 * answering Locadora's in-process client where this process's own server does not serve it
 * (roles `worker` and `ws`).
 */
export const sinoApi = fp<{ services: SinoServices }>(
  async (app, { services }) => {
    await app.register(api, {
      services,
      guards: createGuards(services),
      prefix: '/v1',
    } as SinoContext & {
      prefix: string;
    });
  },
  { name: 'sino-api', fastify: '5.x' },
);

/**
 * Registers what this process's role of Sino needs and exposes its services as `app.sino`
 * (bootstrap, Locadora): the API under `/v1` (`serveApi`), the widget's socket
 * (`serveSocket`), the queue's workers (`runWorkers`). The queue is always there: every role
 * enqueues (a trigger, a snooze) or consumes.
 */
/** See `SinoOptions.shutdownGraceMs`. */
const DEFAULT_SHUTDOWN_GRACE_MS = 8000;

/**
 * Steps a worker runs at once. Their rows are written in shared statements (decision 036), so
 * many steps in flight cost a few statements, not a connection each: more of them, fewer
 * statements per step.
 */
const DEFAULT_WORKER_CONCURRENCY = 256;

export const sinoCore = fp<SinoOptions>(
  async (app, options) => {
    const repositories = options.repositories ?? createRepositories(options.db, options);
    // Now rather than at the first request: tombstone keys that no configured encryption key
    // opens stop the start, saying which key is missing (decision 038).
    await repositories.tombstones.load();
    // The services are built after the gateway, which they publish through; no socket connects
    // before the server listens.
    let countsOf: CountsOnConnect = () => Promise.reject(new Error('Sino is not ready'));
    let consoleSessionOf: ConsoleSessionOf = () => Promise.reject(new Error('Sino is not ready'));
    const redis = {
      log: app.log,
      redisUrl: options.redisUrl,
      redisPrefix: options.redisPrefix,
      redisCommandTimeoutMs: options.redisCommandTimeoutMs,
    };
    const gateway =
      options.serveSocket === false
        ? createRealtimeEmitter(redis)
        : createSocketGateway({
            ...redis,
            server: app.server,
            tokens: createWidgetTokens({
              current: options.widgetTokenSecret,
              previous: options.previousWidgetTokenSecrets,
            }),
            subscribers: repositories.subscribers,
            countsOf: (scope) => countsOf(scope),
            consoleSessionOf: (token) => consoleSessionOf(token),
          });
    // Widgets go to other nodes first; events of the requests and queue tasks that finish
    // meanwhile still reach them there (the fan-out closes last).
    app.addHook('preClose', () => gateway.closeSockets());
    app.addHook('onClose', () => gateway.close());
    const metrics = options.metrics ?? noMetrics;
    const unwatchSockets = metrics.watchSockets(() => gateway.connections());
    app.addHook('onClose', async () => unwatchSockets());
    const queuePrefix = options.queuePrefix ?? options.redisPrefix;
    const stored = await createJobQueue<SinoTask>({
      name: 'sino-jobs',
      database: options.database,
      redisUrl: options.redisUrl,
      ...(queuePrefix && { redisPrefix: queuePrefix }),
      ...(options.redisCommandTimeoutMs !== undefined && {
        redisCommandTimeoutMs: options.redisCommandTimeoutMs,
      }),
      ...(options.queuePollingIntervalMs !== undefined && {
        pollingIntervalMs: options.queuePollingIntervalMs,
      }),
      onError: (err) => app.log.error({ err }, 'job queue error'),
    });
    // Jobs carry the trace context of what enqueued them (a trigger's, a step's).
    const queue = carryingTraceContext(stored);
    const unwatchQueue = metrics.watchQueue(queue);
    app.addHook('onClose', async () => unwatchQueue());
    // Stopped before the database closes: nothing new starts, running jobs finish or, past the
    // grace, go back to the queue for another node.
    app.addHook('preClose', () =>
      queue.stop({ graceMs: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS }),
    );
    const services = createSinoServices(options, repositories, gateway, queue, app.log);
    countsOf = (scope) => services.messages.socketCounts(scope);
    consoleSessionOf = (token) => services.accounts.socketSession(token);
    // Before the first request: a change another node makes from now on is heard.
    await services.caches.start();
    app.addHook('onClose', () => services.caches.stop());
    // After the queue: no delivery is running when pooled provider connections close.
    app.addHook('onClose', () => services.providers.close());
    // Shared rate limits (Redis) counted from the first request on; closed with the rest.
    app.addHook('onReady', () => services.rateLimits.ready());
    app.addHook('onClose', () => services.rateLimits.close());
    app.decorate('sino', services);
    if (options.serveApi !== false) await app.register(sinoApi, { services });
    if (options.runWorkers !== false) {
      await queue.work(
        observedHandler(queue.name, metrics, async ({ data }) => {
          if (data.kind === 'wake-snoozed') return services.messages.wakeSnoozed(data);
          if (data.kind === 'purge-sandbox') {
            await services.sandboxRetention.run(data);
            return;
          }
          if (data.kind === 'purge-analytics') {
            await services.analyticsRetention.run(data);
            return;
          }
          if (data.kind === 'purge-messages') {
            const purged = await services.messageRetention.run(data);
            if (purged.notifications > 0)
              app.log.info({ purged }, 'message retention: old notifications deleted');
            return;
          }
          return services.engine.process(data);
        }),
        {
          concurrency: options.workerConcurrency ?? DEFAULT_WORKER_CONCURRENCY,
        },
      );
      await services.sandboxRetention.start();
      await services.messageRetention.start();
      await services.analyticsRetention.start();
      // Integrations the egress rule refuses are told once the server is up, without holding
      // the start back (names may take a while to resolve).
      app.addHook('onReady', async () => {
        void services
          .reportRefused()
          .catch((err: unknown) =>
            app.log.warn({ err }, 'the start report of refused integrations did not run'),
          );
      });
    }
  },
  { name: 'sino-core', fastify: '5.x' },
);
