import { EgressPolicy } from '@sino/providers';
import type { SinoOptions } from './context.js';
import type { FastifyBaseLogger } from 'fastify';
import type { RealtimePublisher } from './realtime/port.js';
import type { JobQueue } from './queue/port.js';
import type { SinoTask } from './tasks.js';
import { createWorkflowEngine } from './engine/wiring.js';
import { createWorkflowCache } from './engine/workflow-cache.js';
import { createSecretBox } from './secret-box.js';
import { createIdentityService } from './modules/identity/service.js';
import { createSubscriberRepository } from './modules/subscribers/repository.js';
import { createSubscriberService } from './modules/subscribers/service.js';
import { createTombstoneKeys } from './modules/subscribers/tombstones.js';
import { createErasureRepository } from './modules/subscribers/erasure-repository.js';
import { createErasureService } from './modules/subscribers/erasure.js';
import { createTopicRepository } from './modules/topics/repository.js';
import { createTopicService } from './modules/topics/service.js';
import { createTenantRepository } from './modules/tenants/repository.js';
import { createTenantService } from './modules/tenants/service.js';
import { createIdempotencyStore } from './http/idempotency.js';
import { createRateLimits } from './http/rate-limit.js';
import { createWidgetTokens } from './modules/widget/tokens.js';
import { createSessionService } from './modules/widget/session-service.js';
import { createFeedService, createWorkflowService } from './modules/workflows/service.js';
import { createPreferenceService } from './modules/preferences/service.js';
import { createMessageService } from './modules/messages/service.js';
import { createActivityRepository } from './modules/activity/repository.js';
import { createActivityService } from './modules/activity/service.js';
import { createIntegrationRepository } from './modules/integrations/repository.js';
import { createIntegrationService } from './modules/integrations/service.js';
import { createDeliveryRepository } from './delivery/repository.js';
import { createProviderDirectory } from './delivery/directory.js';
import { createDeliveryService } from './delivery/service.js';
import { retryScheduleOf } from './delivery/options.js';
import { createWebhookReceiver } from './delivery/webhooks.js';
import { createCallbackUrls } from './delivery/callbacks.js';
import { createIntegrationCache } from './delivery/integration-cache.js';
import { createSandboxRetention } from './delivery/sandbox-retention.js';
import { createCacheInvalidation } from './cache-invalidation.js';
import { reportRefusedDestinations } from './delivery/destination-report.js';

/** Builds every Sino service once, on its dependencies (database, secrets, sockets). */
export function createSinoServices(
  options: SinoOptions,
  realtime: RealtimePublisher,
  queue: JobQueue<SinoTask>,
  log: FastifyBaseLogger,
) {
  const secrets = createSecretBox(options.encryptionKey);
  // What this node caches is forgotten when any node changes it (decision 034).
  const caches = createCacheInvalidation({ database: options.database, log });
  const identity = createIdentityService({ db: options.db, secrets, caches });
  const tombstones = createTombstoneKeys(options.encryptionKey);
  const subscribers = createSubscriberRepository(options.db, tombstones);
  const subscriberService = createSubscriberService({ subscribers });
  const erasure = createErasureService({
    erasure: createErasureRepository(options.db, tombstones),
    queue,
    realtime,
  });
  const topics = createTopicService({ topics: createTopicRepository(options.db) });
  const tenants = createTenantService({ tenants: createTenantRepository(options.db) });
  const idempotency = createIdempotencyStore(options.db);
  const rateLimits = createRateLimits(options.rateLimit, {
    redisUrl: options.redisUrl,
    prefix: options.redisPrefix,
    commandTimeoutMs: options.redisCommandTimeoutMs,
    log,
  });
  const tokens = createWidgetTokens(options.widgetTokenSecret);
  const session = createSessionService({ identity, subscribers, tokens });
  const messages = createMessageService({
    db: options.db,
    subscribers,
    realtime,
    scheduler: queue,
  });
  const workflowCache = createWorkflowCache();
  caches.on('workflows', () => workflowCache.invalidate());
  const workflows = createWorkflowService({
    db: options.db,
    changed: () => caches.changed('workflows'),
  });
  const feeds = createFeedService({ db: options.db });
  const preferences = createPreferenceService({ db: options.db, workflows, subscribers });
  const integrationRepository = createIntegrationRepository(options.db);
  const deliveries = createDeliveryRepository(options.db);
  const providers = createProviderDirectory({
    repo: deliveries,
    secrets,
    settings: options.delivery ?? {},
    log,
  });
  const integrationCache = createIntegrationCache();
  caches.on('integrations', () => integrationCache.clear());
  const callbacks = createCallbackUrls({
    secret: options.encryptionKey,
    publicUrl: options.delivery?.publicUrl,
  });
  const integrations = createIntegrationService({
    integrations: integrationRepository,
    secrets,
    providers: providers.checks,
    changed: () => caches.changed('integrations'),
  });
  const delivery = createDeliveryService({
    integrations: integrationRepository,
    repo: deliveries,
    directory: providers,
    integrationCache,
    callbacks,
    log,
  });
  const sandboxRetention = createSandboxRetention({ repo: deliveries, scheduler: queue });
  const webhooks = createWebhookReceiver({
    integrations: integrationRepository,
    repo: deliveries,
    directory: providers,
    callbacks,
  });
  const { engine, events } = createWorkflowEngine({
    db: options.db,
    delivery,
    retries: retryScheduleOf(options.delivery),
    queue,
    identity,
    subscribers,
    messages,
    workflowCache,
    // Workflow webhook filters: the allow-list, and no operator URL trusted (decision 024).
    egress: new EgressPolicy({ allowedNetworks: options.delivery?.allowedNetworks }),
    log,
  });
  const activity = createActivityService({
    repo: createActivityRepository(options.db),
    subscribers,
  });
  /** The start's report of integrations the egress rule refuses (decision 024). */
  const reportRefused = () =>
    reportRefusedDestinations({
      integrations: integrationRepository,
      secrets,
      settings: options.delivery ?? {},
      log,
    });
  return {
    /** The queue's store, for readiness. */
    queue: { ping: () => queue.ping() },
    caches,
    activity,
    integrations,
    reportRefused,
    deliveries,
    providers,
    webhooks,
    callbacks,
    sandboxRetention,
    engine,
    events,
    secrets,
    subscriberService,
    erasure,
    topics,
    tenants,
    idempotency,
    rateLimits,
    identity,
    subscribers,
    tokens,
    session,
    realtime,
    messages,
    workflows,
    feeds,
    preferences,
  };
}

export type SinoServices = ReturnType<typeof createSinoServices>;
