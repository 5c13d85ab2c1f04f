import type { Log } from '../log.js';
import type { EgressPolicy } from '@sino/providers';
import { renderTemplate } from '../templates/render.js';
import { evaluateFilters, type FilterGroup } from '../filters/evaluate.js';
import { createWebhookCaller } from '../filters/webhook.js';
import { resolveChannel } from '../modules/preferences/resolve.js';
import type { IdentityService } from '../modules/identity/service.js';
import type { SubscriberRepository } from '../modules/subscribers/repository.js';
import type { MessageService } from '../modules/messages/service.js';
import { createEventsService } from '../modules/events/service.js';
import type { SinoRepositories } from '../repositories.js';
import { createEngine, subscriberView } from './engine.js';
import { createRecipientResolver } from './recipients.js';
import { withSetStatements } from './sets.js';
import type { WorkflowCache } from './workflow-cache.js';
import type { EmailLooks } from '../modules/layouts/for-email.js';
import { layoutOverride } from '../delivery/overrides.js';
import type { DeliveryPort, EngineQueue, RetrySchedule } from './ports.js';
import type { SinoMetrics } from '../observability/metrics.js';
import type { DeliveryStats } from '../modules/analytics/recorder.js';
import type { ConsoleEvents } from '../realtime/port.js';
import type { EngineRepository, Job } from './repository.js';

/**
 * Puts the engine together from Sino's parts: templates, filters, preferences, in-app
 * messages, the durable queue. Answers the engine (the queue's handler) and the trigger intake.
 */
export function createWorkflowEngine(deps: {
  repositories: Pick<
    SinoRepositories,
    'engine' | 'topics' | 'workflowOverrides' | 'inEngineTransaction'
  >;
  queue: EngineQueue;
  /** Email, SMS, chat and push delivery (src/delivery). */
  delivery?: DeliveryPort | undefined;
  retries: RetrySchedule;
  identity: IdentityService;
  subscribers: SubscriberRepository;
  messages: MessageService;
  /** Workflows as the engine reads them; the workflow service clears it on every write. */
  workflowCache: WorkflowCache;
  /** Email layouts and branding; absent, emails render their content alone. */
  emailLooks?: EmailLooks | undefined;
  /** Where workflow webhook filters may connect (decision 024). */
  egress: EgressPolicy;
  log: Log;
  metrics: SinoMetrics;
  /** Delivery analytics of in-app messages. */
  stats?: DeliveryStats | undefined;
  /** The console's live activity: notifications created, jobs' statuses. */
  console?: ConsoleEvents | undefined;
  now?: () => Date;
}) {
  const stored = withConsoleEvents(withSetStatements(deps.repositories.engine), deps.console);
  const repo: typeof stored = {
    ...stored,
    workflowForTrigger: (environmentId, identifier) =>
      deps.workflowCache.forTrigger(environmentId, identifier, () =>
        stored.workflowForTrigger(environmentId, identifier),
      ),
    workflowWithSteps: (workflowId) =>
      deps.workflowCache.byId(workflowId, () => stored.workflowWithSteps(workflowId)),
  };
  const recipients = createRecipientResolver({
    repo,
    subscribers: deps.subscribers,
    topics: deps.repositories.topics,
  });
  const now = deps.now ?? (() => new Date());

  const engine = createEngine({
    repo,
    transaction: (work) => deps.repositories.inEngineTransaction(work),
    subscribers: deps.subscribers,
    queue: deps.queue,
    resolveRecipients: (task) => recipients.resolveRecipients(task),
    resolveActor: (task) => recipients.resolveActor(task),
    render: (template, context, as) => renderTemplate(template, context, as),
    async evaluateFilters({ step, job, subscriber, tenant }) {
      const apiKey = await deps.identity.apiKeyOf(job.environmentId);
      return evaluateFilters(
        step.filters as unknown as FilterGroup[],
        {
          payload: job.payload,
          subscriber: subscriberView(subscriber),
          tenant,
          identifier: undefined,
          channel: step.type,
        },
        {
          callWebhook: createWebhookCaller({
            apiKey: apiKey ?? '',
            environmentId: job.environmentId,
            egress: deps.egress,
          }),
          previousStepMessage: (uuid) => repo.messageOfStep(job.notificationId, uuid),
          now,
        },
      );
    },
    async checkPreferences({ workflow, channel, subscriberId, stored, tenantPreferences }) {
      const rows = stored ?? (await repo.preferencesOf(subscriberId, workflow.id));
      const decision = resolveChannel({
        workflow,
        workflowPreference: rows.workflow,
        globalPreference: rows.global,
        tenantOverride: tenantPreferences,
        channel,
      });
      return {
        enabled: decision.enabled,
        reason:
          decision.source === 'workflowOverride'
            ? `${channel} is off (the tenant's workflow override)`
            : `${channel} is off (${decision.source} preference)`,
      };
    },
    createInAppMessage: async (input) => {
      await deps.messages.deliverInApp(input);
    },
    ...(deps.emailLooks && {
      emailLook: (job, template) =>
        deps.emailLooks!.lookFor({
          environmentId: job.environmentId,
          organizationId: job.organizationId,
          layoutId: template.layoutId,
          layoutIdentifier: layoutOverride(job.overrides),
        }),
    }),
    delivery: deps.delivery,
    retries: deps.retries,
    metrics: deps.metrics,
    stats: deps.stats,
    now,
    log: deps.log,
  });

  const events = createEventsService({
    repo,
    overrides: deps.repositories.workflowOverrides,
    queue: deps.queue,
    engine,
    metrics: deps.metrics,
  });
  return { engine, events };
}

/**
 * The engine's repository telling the console what changed, after each write that did: a
 * notification created, a job's status moved (ids and statuses only). Best effort, as the
 * widget's events are: a console that reconnects reads the activity again.
 */
function withConsoleEvents(
  repo: EngineRepository,
  console: ConsoleEvents | undefined,
): EngineRepository {
  if (!console) return repo;
  const moved = (job: Job | undefined) => {
    if (job)
      console.emit(job.environmentId, 'job_status_changed', {
        jobId: job.id,
        notificationId: job.notificationId,
        type: job.type,
        status: job.status,
      });
    return job;
  };
  return {
    ...repo,
    async createNotification(n, ...rest) {
      const created = await repo.createNotification(n, ...rest);
      const first = created?.jobs[0];
      if (first)
        console.emit(n.environmentId, 'notification_created', {
          notificationId: first.notificationId,
          transactionId: n.transactionId,
          workflowId: n.workflowId,
        });
      return created;
    },
    transition: async (...args) => moved(await repo.transition(...args)),
    finish: async (...args) => moved(await repo.finish(...args)),
  };
}
