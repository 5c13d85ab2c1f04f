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
  now?: () => Date;
}) {
  const stored = withSetStatements(deps.repositories.engine);
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
