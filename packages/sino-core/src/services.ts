import { createChangeService } from './modules/changes/service.js';
import type { RecordChange } from './modules/changes/record.js';
import { EgressPolicy } from '@sino/providers';
import type { SinoOptions } from './options.js';
import type { Log } from './log.js';
import type { RealtimePublisher } from './realtime/port.js';
import type { JobQueue } from './queue/port.js';
import type { SinoTask } from './tasks.js';
import type { SinoRepositories } from './repositories.js';
import { createWorkflowEngine } from './engine/wiring.js';
import { createWorkflowCache } from './engine/workflow-cache.js';
import { createSecretBox } from './secret-box.js';
import { createResealing } from './sealed/reseal.js';
import { createIdentityService } from './modules/identity/service.js';
import { createSubscriberService } from './modules/subscribers/service.js';
import { createErasureService } from './modules/subscribers/erasure.js';
import { createTopicService } from './modules/topics/service.js';
import { createTenantService } from './modules/tenants/service.js';
import { createIdempotencyStore } from './http/idempotency.js';
import { createRateLimits } from './http/rate-limit.js';
import { createWidgetTokens } from './modules/widget/tokens.js';
import { createSessionService } from './modules/widget/session-service.js';
import { createFeedService, createWorkflowService } from './modules/workflows/service.js';
import { createNotificationGroupService } from './modules/notification-groups/service.js';
import { createWorkflowOverrideService } from './modules/workflow-overrides/service.js';
import { createLayoutService } from './modules/layouts/service.js';
import { createEmailLooks } from './modules/layouts/for-email.js';
import { createOrganizationService } from './modules/organizations/service.js';
import { createPreferenceService } from './modules/preferences/service.js';
import { createMessageService } from './modules/messages/service.js';
import { createMessageRetention } from './modules/messages/retention.js';
import { createActivityService } from './modules/activity/service.js';
import { createIntegrationService } from './modules/integrations/service.js';
import { createProviderDirectory } from './delivery/directory.js';
import { createDeliveryService } from './delivery/service.js';
import { retryScheduleOf } from './delivery/options.js';
import { createWebhookReceiver } from './delivery/webhooks.js';
import { createCallbackUrls } from './delivery/callbacks.js';
import { createTestSends } from './delivery/test-sends.js';
import { createPreviewService } from './modules/previews/service.js';
import { createIntegrationCache } from './delivery/integration-cache.js';
import { createSandboxRetention } from './delivery/sandbox-retention.js';
import { createDeliveryStats } from './modules/analytics/recorder.js';
import { createAnalyticsRetention } from './modules/analytics/retention.js';
import { createAnalyticsService } from './modules/analytics/service.js';
import { createCacheInvalidation } from './cache-invalidation.js';
import { reportRefusedDestinations } from './delivery/destination-report.js';
import { noMetrics } from './observability/metrics.js';
import { createLoginThrottle } from '@locadora/login';
import { consoleLoginAttempts, consoleMailRequests } from './db/schema.js';

/** A throttle's counters on one of Sino's tables of the same four columns. */
const countersOf = (table: typeof consoleLoginAttempts | typeof consoleMailRequests) => ({
  table,
  key: table.key,
  failures: table.failures,
  windowStart: table.windowStart,
  windowEnd: table.windowEnd,
});
import { createJwtKeys } from './jwt.js';
import { createAccountService } from './modules/accounts/service.js';
import { createPeopleService } from './modules/accounts/people.js';
import { createPlatformMail } from './modules/accounts/platform-mail.js';
import { createAuditService } from './modules/audit/service.js';
import { createConsoleSignIn } from './modules/accounts/oauth.js';

/**
 * Builds every Sino service once, on its dependencies (repositories, secrets, sockets, the
 * queue).
 */
export function createSinoServices(
  options: SinoOptions,
  repositories: SinoRepositories,
  realtime: RealtimePublisher,
  queue: JobQueue<SinoTask>,
  log: Log,
) {
  const metrics = options.metrics ?? noMetrics;
  const secrets = createSecretBox({
    current: options.encryptionKey,
    previous: options.previousEncryptionKeys,
  });
  // What this node caches is forgotten when any node changes it (decision 034).
  const caches = createCacheInvalidation({ database: options.database, log });
  const identity = createIdentityService({
    repo: repositories.identity,
    secrets,
    caches,
    ...(options.apiKeyGraceMs !== undefined && { apiKeyGraceMs: options.apiKeyGraceMs }),
  });
  const { subscribers } = repositories;
  const subscriberService = createSubscriberService({ subscribers });
  const erasure = createErasureService({ erasure: repositories.erasure, queue, realtime });
  const topics = createTopicService({ topics: repositories.topics });
  const tenants = createTenantService({ tenants: repositories.tenants });
  const idempotency = createIdempotencyStore(options.db);
  const rateLimits = createRateLimits(options.rateLimit, {
    redisUrl: options.redisUrl,
    prefix: options.redisPrefix,
    commandTimeoutMs: options.redisCommandTimeoutMs,
    log,
  });
  const tokenSecrets = {
    current: options.widgetTokenSecret,
    previous: options.previousWidgetTokenSecrets,
  };
  const tokens = createWidgetTokens(tokenSecrets);
  const audit = createAuditService({ audit: repositories.audit });
  // Console tokens are signed with the same keys as widget tokens, for another audience.
  const accounts = createAccountService({
    accounts: repositories.accounts,
    keys: createJwtKeys(tokenSecrets),
    throttle: createLoginThrottle(
      options.db,
      countersOf(consoleLoginAttempts),
      options.consoleLogin ?? {
        maxFailuresPerEmail: 5,
        maxFailuresPerAddress: 50,
        blockMinutes: 15,
      },
    ),
    audit,
    signUp: options.accounts?.signUp,
    // A person who signs up gets an organization of their own, as one made through the API.
    newOrganization: async (name) =>
      (await identity.createOrganization(name, { requireSubscriberHash: true })).organizationId,
    consoleSockets: realtime.console,
  });
  // Sign-in with GitHub and Google; the flow's cookie is signed with keys drawn from the
  // token keys.
  const consoleSignIn = createConsoleSignIn({
    options: options.consoleSignIn,
    accounts,
    secrets: tokenSecrets,
  });
  const platformMail = options.platformMail;
  const people = createPeopleService({
    people: repositories.people,
    accounts: repositories.accounts,
    accountService: accounts,
    identity,
    audit,
    mail:
      platformMail && 'send' in platformMail
        ? platformMail
        : createPlatformMail({ url: platformMail?.url, from: platformMail?.from }),
    publicUrl: options.delivery?.publicUrl,
    signUp: options.accounts?.signUp ?? 'invitation',
    log,
    consoleSockets: realtime.console,
    // Each request mails an address nobody signed in gave: counted as sign-ins are.
    mailRequests: createLoginThrottle(
      options.db,
      countersOf(consoleMailRequests),
      options.consoleMailRequests ?? {
        maxFailuresPerEmail: 5,
        maxFailuresPerAddress: 20,
        blockMinutes: 60,
      },
    ),
  });
  const session = createSessionService({ identity, subscribers, tokens });
  const messages = createMessageService({
    repo: repositories.messages,
    subscribers,
    realtime,
    scheduler: queue,
  });
  // SINO_MESSAGE_RETENTION_DAYS: old notifications go, and open inboxes hear their counts.
  const messageRetention = createMessageRetention({
    repo: repositories.retention,
    scheduler: queue,
    counts: messages,
    days: options.messageRetentionDays,
  });
  const workflowCache = createWorkflowCache();
  caches.on('workflows', () => workflowCache.invalidate());
  // Promotion (decision 052): writes in Development leave pending changes.
  const changes = createChangeService({
    changes: repositories.changes,
    workflows: repositories.workflows,
    groups: repositories.notificationGroups,
    layouts: repositories.layouts,
    feeds: repositories.feeds,
    changed: {
      workflows: () => caches.changed('workflows'),
      layouts: () => caches.changed('layouts'),
    },
  });
  const record: RecordChange = (env, type, id) =>
    changes.record(env, type, id, { userId: env.actorId ?? null });
  const workflows = createWorkflowService({
    workflows: repositories.workflows,
    feeds: repositories.feeds,
    groups: repositories.notificationGroups,
    identity: repositories.identity,
    layouts: repositories.layouts,
    changed: () => caches.changed('workflows'),
    record,
  });
  const feeds = createFeedService({ feeds: repositories.feeds, record });
  const notificationGroups = createNotificationGroupService({
    groups: repositories.notificationGroups,
    record,
  });
  const workflowOverrides = createWorkflowOverrideService({
    overrides: repositories.workflowOverrides,
  });
  // Email layouts and the organisation's branding, which every email reads (decision 046).
  const emailLooks = createEmailLooks({
    layouts: repositories.layouts,
    organizations: repositories.organizations,
  });
  caches.on('layouts', () => emailLooks.invalidate());
  const layouts = createLayoutService({
    layouts: repositories.layouts,
    changed: () => caches.changed('layouts'),
    record,
  });
  const organizations = createOrganizationService({
    organizations: repositories.organizations,
    changed: () => caches.changed('layouts'),
  });
  const preferences = createPreferenceService({
    repo: repositories.preferences,
    workflows,
    subscribers,
  });
  const { integrations: integrationRepository, deliveries } = repositories;
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
    previousSecrets: options.previousEncryptionKeys,
    publicUrl: options.delivery?.publicUrl,
  });
  const integrations = createIntegrationService({
    integrations: integrationRepository,
    secrets,
    providers: providers.checks,
    changed: () => caches.changed('integrations'),
    webhookUrls: callbacks,
  });
  // Delivery analytics, per environment in the database (decision 055).
  const stats = createDeliveryStats({ repo: repositories.analytics, log });
  const analytics = createAnalyticsService({ repo: repositories.analytics });
  const analyticsRetention = createAnalyticsRetention({
    repo: repositories.analytics,
    scheduler: queue,
    days: options.analyticsRetentionDays,
  });
  const delivery = createDeliveryService({
    integrations: integrationRepository,
    repo: deliveries,
    directory: providers,
    integrationCache,
    callbacks,
    log,
    metrics,
    stats,
  });
  const testSends = createTestSends({
    integrations: integrationRepository,
    directory: providers,
    log,
  });
  const previews = createPreviewService({ looks: emailLooks });
  const sandboxRetention = createSandboxRetention({ repo: deliveries, scheduler: queue });
  const webhooks = createWebhookReceiver({
    integrations: integrationRepository,
    repo: deliveries,
    directory: providers,
    callbacks,
    stats,
    console: realtime.console,
  });
  const { engine, events } = createWorkflowEngine({
    repositories,
    delivery,
    retries: retryScheduleOf(options.delivery),
    queue,
    identity,
    subscribers,
    messages,
    workflowCache,
    emailLooks,
    // Workflow webhook filters: the allow-list, and no operator URL trusted (decision 024).
    egress: new EgressPolicy({ allowedNetworks: options.delivery?.allowedNetworks }),
    log,
    metrics,
    stats,
    console: realtime.console,
  });
  const activity = createActivityService({
    repo: repositories.activity,
    subscribers,
  });
  // A rotation's re-seal, run at start under a lock by the composition root (decision 038).
  const resealing = createResealing({ repo: repositories.sealed, box: secrets });
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
    testSends,
    previews,
    sandboxRetention,
    messageRetention,
    analytics,
    analyticsRetention,
    engine,
    events,
    secrets,
    resealing,
    subscriberService,
    erasure,
    topics,
    tenants,
    idempotency,
    rateLimits,
    identity,
    accounts,
    consoleSignIn,
    people,
    audit,
    subscribers,
    tokens,
    session,
    realtime,
    messages,
    workflows,
    changes,
    feeds,
    notificationGroups,
    workflowOverrides,
    layouts,
    organizations,
    preferences,
  };
}

export type SinoServices = ReturnType<typeof createSinoServices>;
