import { createHash } from 'node:crypto';
import { add } from 'date-fns/add';
import type { Log } from '../log.js';
import {
  EXECUTION_CODES,
  MISSING_INTEGRATION_CODE,
  isChannel,
  type Channel,
  type TimeUnit,
} from '@sino/shared';
import type { ChannelSwitches, DelayMetadata, DigestMetadata, StepTemplate } from '../db/schema.js';
import type { Subscriber, SubscriberRepository } from '../modules/subscribers/repository.js';
import {
  FINAL_STATUSES,
  type EngineRepository,
  type Job,
  type NewExecutionDetail,
  type SubscriberPreferences,
  type Workflow,
  type WorkflowStep,
} from './repository.js';
import {
  isErasedRecipient,
  type DeliveryPort,
  type EmailLook,
  type EngineQueue,
  type EngineTask,
  type ErasedRecipient,
  type FilterOutcome,
  type InAppMessageInput,
  type PreferenceOutcome,
  type RenderContext,
  type ResolvedRecipient,
  type RetrySchedule,
} from './ports.js';
import { nextTimedRun } from './schedule.js';
import { layoutContext, withLayoutDefaults } from '../modules/layouts/for-email.js';
import { IN_APP_PROVIDER, type SinoMetrics } from '../observability/metrics.js';
import { inSpan } from '../observability/tracing.js';
import type { DeliveryStats } from '../modules/analytics/recorder.js';

export interface EngineDeps {
  repo: EngineRepository;
  /** Runs `work` in one database transaction, with a repository bound to it. */
  transaction<T>(work: (r: EngineRepository) => Promise<T>): Promise<T>;
  subscribers: SubscriberRepository;
  queue: EngineQueue;
  /** Recipients of a trigger: subscribers named inline, by id, or through topics. */
  resolveRecipients(
    task: Extract<EngineTask, { kind: 'trigger' }>,
  ): AsyncIterable<ResolvedRecipient[]>;
  /** The trigger's actor (created or updated when named inline), if any. */
  resolveActor(task: Extract<EngineTask, { kind: 'trigger' }>): Promise<Subscriber | null>;
  /** HTML for an email's body and the in-app content; text for the rest (Novu's apostrophe). */
  render(template: string, context: RenderContext, as: 'html' | 'text'): string;
  evaluateFilters(input: {
    step: WorkflowStep;
    job: Job;
    subscriber: Subscriber;
    tenant: Record<string, unknown> | undefined;
  }): Promise<FilterOutcome>;
  checkPreferences(input: {
    workflow: Workflow;
    step: WorkflowStep;
    channel: Channel;
    subscriberId: string;
    /** The subscriber's rows, when read already (with the notification); looked up if absent. */
    stored?: SubscriberPreferences | undefined;
    /** The switches of the trigger's tenant's override of the workflow, if it had one. */
    tenantPreferences?: ChannelSwitches | null | undefined;
  }): Promise<PreferenceOutcome>;
  createInAppMessage(input: InAppMessageInput): Promise<void>;
  /**
   * The layout and branding an email step renders in (decision 046); absent, emails render
   * their content alone.
   */
  emailLook?(job: Job, template: StepTemplate): Promise<EmailLook>;
  /** Email, SMS, chat and push providers; absent, those steps fail with "no delivery". */
  delivery?: DeliveryPort | undefined;
  /** When failed deliveries are tried again. */
  retries: RetrySchedule;
  /** Counts steps' outcomes, in-app messages and retries. */
  metrics: Pick<SinoMetrics, 'stepFinished' | 'delivery' | 'retryScheduled'>;
  /** The environment's delivery analytics of in-app messages (the delivery service counts the rest). */
  stats?: DeliveryStats | undefined;
  now(): Date;
  log: Log;
}

/** The subscriber as templates and filters see it (Novu's field names). */
export function subscriberView(s: Subscriber): Record<string, unknown> {
  return {
    _id: s.id,
    subscriberId: s.subscriberId,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
    phone: s.phone,
    avatar: s.avatar,
    locale: s.locale,
    data: s.data ?? {},
    isOnline: s.isOnline,
    lastOnlineAt: s.lastOnlineAt?.toISOString() ?? null,
  };
}

function windowEnd(from: Date, amount: number | undefined, unit: TimeUnit | undefined): Date {
  return add(from, { [unit ?? 'minutes']: amount ?? 0 });
}

/**
 * The workflow engine. A trigger becomes one queue task that fans out into a notification per
 * subscriber and a job per active step; each step job then runs as its own queue task, so
 * delays and digests wait in the durable queue (and survive a restart). The queue delivers at
 * least once: every status change is a compare-and-set, so a job delivered twice runs once.
 */
export function createEngine(deps: EngineDeps) {
  const { repo } = deps;

  type DetailInput = Omit<
    NewExecutionDetail,
    | 'environmentId'
    | 'organizationId'
    | 'notificationId'
    | 'transactionId'
    | 'jobId'
    | 'subscriberId'
    | 'stepId'
  >;

  const detailRow = (job: Job, d: DetailInput): NewExecutionDetail => ({
    environmentId: job.environmentId,
    organizationId: job.organizationId,
    notificationId: job.notificationId,
    transactionId: job.transactionId,
    jobId: job.id,
    subscriberId: job.subscriberId,
    stepId: job.stepId,
    channel: job.type,
    ...d,
  });

  const detail = (job: Job, d: DetailInput) => repo.recordDetail(detailRow(job, d));

  /**
   * Puts the job on the queue once per state: the dedupe key names the job and its due time,
   * so enqueueing again after a crash (at-least-once) stores nothing new.
   */
  async function enqueueJob(job: Job, delayMs?: number): Promise<void> {
    const queueJobId = await deps.queue.enqueue(
      { kind: 'step', jobId: job.id },
      {
        dedupeKey: `step:${job.id}:${job.runAt?.getTime() ?? 'now'}`,
        ...(delayMs && { delayMs }),
      },
    );
    await repo.setQueueJobId(job.id, queueJobId);
  }

  /**
   * Queues the job after `job` in its notification, or ends the notification. `siblings`, when
   * known, are the notification's jobs as created, in step order (or `job` alone when its step
   * is its workflow's last): a notification's jobs are fixed at its creation, so after the last
   * of them there is nothing to look up, and the one after `job` was created pending.
   */
  async function continueAfter(job: Job, siblings?: Job[]): Promise<void> {
    if (siblings?.at(-1)?.id === job.id) return;
    // A digest leader hands its merged events to the steps after it.
    const carried = job.type === 'digest' && job.digest ? { digest: job.digest } : {};
    const following = siblings?.[siblings.findIndex((j) => j.id === job.id) + 1];
    if (following) {
      // Still pending unless something ended it meanwhile: the compare-and-set tells, and only
      // its refusal needs the notification's jobs read.
      const queued = await repo.transition(following.id, ['pending'], 'queued', carried);
      if (queued) return enqueueJob(queued);
    }
    const all = await repo.jobsOfNotification(job.notificationId);
    const index = all.findIndex((j) => j.id === job.id);
    const next = all
      .slice(index + 1)
      .find((j) => j.status === 'pending' || (j.status === 'queued' && !j.queueJobId));
    if (!next) return;
    // Queued but never enqueued: a crash came between the two; enqueue it now.
    if (next.status === 'queued') return enqueueJob(next);
    const queued = await repo.transition(next.id, ['pending'], 'queued', carried);
    if (queued) await enqueueJob(queued);
  }

  async function fanOut(task: Extract<EngineTask, { kind: 'trigger' }>): Promise<void> {
    const found = await repo.workflowWithSteps(task.workflowId);
    if (!found) return;
    const steps = found.steps.filter((s) => s.active);
    if (steps.length === 0) return;
    const actor = await deps.resolveActor(task);
    // A trigger for a few subscribers named directly (the usual, transactional one) runs each
    // one's first step in this task. A queue task per subscriber would cost three more queue
    // statements and, the queue being first in first out, wait behind every trigger that
    // arrived meanwhile. Topics, broadcasts and long lists queue each first step, so that
    // every worker shares them.
    const inline =
      task.to !== 'broadcast' && task.to.length <= INLINE_RECIPIENTS && !task.to.some(isTopic);
    for await (const batch of deps.resolveRecipients(task)) {
      for (const subscriber of batch) {
        if (isErasedRecipient(subscriber)) {
          await recordErased(task, steps, subscriber);
          continue;
        }
        const created = await repo.createNotification(
          {
            environmentId: task.environmentId,
            organizationId: task.organizationId,
            workflowId: task.workflowId,
            subscriberId: subscriber.id,
            transactionId: task.transactionId,
            payload: task.payload,
            tenant: (task.tenant as Record<string, unknown> | undefined) ?? null,
            actorSubscriberId: actor?.id ?? null,
          },
          steps,
          task.payload,
          task.overrides,
          {
            channel: 'trigger',
            code: EXECUTION_CODES.TRIGGER_RECEIVED,
            detail: 'Trigger received',
            status: 'Success',
            raw: { payload: task.payload },
          },
          inline ? 'running' : 'queued',
          task.tenantPreferences ?? null,
        );
        if (!created) {
          // A fan-out delivered again (at-least-once) skips the subscribers it already served.
          const served = await repo.notificationOf(
            task.environmentId,
            task.transactionId,
            subscriber.id,
          );
          if (served) await resume(served);
          continue;
        }
        const first = created.jobs[0]!;
        if (inline) await runFirstHere(first, created, found, subscriber);
        else await enqueueJob(first);
      }
    }
  }

  /**
   * A trigger naming an erased subscriber is acknowledged and creates no subscriber and no
   * message. What it did is recorded as a notification whose steps are all canceled, the first
   * saying why, with no payload (it was about the erased person) and, for the subscriber, an id
   * drawn from the tombstone's key and the transaction: it names nobody, and two transactions'
   * records cannot be linked to one person. Done again after a crash, it changes nothing.
   */
  async function recordErased(
    task: Extract<EngineTask, { kind: 'trigger' }>,
    steps: WorkflowStep[],
    recipient: ErasedRecipient,
  ): Promise<void> {
    const subscriberId = createHash('sha256')
      .update(recipient.key)
      .update('\u0000')
      .update(task.transactionId)
      .digest('hex')
      .slice(0, 24);
    const created = await repo.createNotification(
      {
        environmentId: task.environmentId,
        organizationId: task.organizationId,
        workflowId: task.workflowId,
        subscriberId,
        transactionId: task.transactionId,
        payload: {},
        tenant: null,
        actorSubscriberId: null,
      },
      steps,
      {},
      {},
      {
        channel: 'trigger',
        code: EXECUTION_CODES.TRIGGER_RECEIVED,
        detail: 'Trigger received',
        status: 'Success',
      },
      'queued',
    );
    let jobs = created?.jobs;
    if (!jobs) {
      const notificationId = await repo.notificationOf(
        task.environmentId,
        task.transactionId,
        subscriberId,
      );
      jobs = notificationId ? await repo.jobsOfNotification(notificationId) : [];
    }
    for (const [index, job] of jobs.entries()) {
      const canceled = await repo.transition(job.id, ['pending', 'queued'], 'canceled', {
        error: SUBSCRIBER_ERASED,
      });
      if (canceled && index === 0)
        await detail(canceled, {
          code: EXECUTION_CODES.SUBSCRIBER_NOT_FOUND,
          detail: `${SUBSCRIBER_ERASED}: nothing is sent`,
          status: 'Warning',
        });
    }
  }

  /**
   * The first step of a new notification (created running), run by the fan-out; queued if it
   * throws, to be retried as any step is.
   */
  async function runFirstHere(
    first: Job,
    created: { jobs: Job[]; preferences: SubscriberPreferences },
    found: { workflow: Workflow; steps: WorkflowStep[] },
    subscriber: Subscriber,
  ): Promise<void> {
    try {
      const step = found.steps.find((s) => s.id === first.stepId)!;
      await runClaimed(first, step, found, subscriber, created.jobs, created.preferences);
    } catch (error) {
      deps.log.warn({ err: error, jobId: first.id }, 'step failed in the fan-out; queued again');
      await enqueueJob(first);
    }
  }

  /**
   * A notification found by a fan-out delivered again: its next job is queued if a crash kept
   * it from the queue (created queued, or running in the fan-out, with no queue job), and what
   * follows its last finished job is done if the crash came before (the next job still
   * pending).
   */
  async function resume(notificationId: string): Promise<void> {
    const all = await repo.jobsOfNotification(notificationId);
    const index = all.findIndex((j) => !FINAL_STATUSES.includes(j.status));
    const next = all[index];
    if (!next) return;
    if (next.status === 'pending' && index > 0) return followUp(all[index - 1]!);
    if (!next.queueJobId && (next.status === 'queued' || next.status === 'running'))
      await enqueueJob(next);
  }

  /**
   * What follows a job that reached a final status: the next job queued, or the rest of the
   * notification ended. Each part is a compare-and-set or a dedupe, so doing it again is
   * harmless: a job delivered again after a crash finishes here what the crash cut short.
   */
  async function followUp(job: Job, step?: WorkflowStep, siblings?: Job[]): Promise<void> {
    switch (job.status) {
      case 'merged':
        return endRest(job, 'skipped', 'Merged into a digest');
      case 'failed': {
        const stops =
          step?.shouldStopOnFail ??
          (await repo.workflowWithSteps(job.workflowId))?.steps.find((s) => s.id === job.stepId)
            ?.shouldStopOnFail;
        if (stops) return endRest(job, 'canceled', 'A previous step failed');
        return continueAfter(job, siblings);
      }
      case 'completed':
      case 'skipped':
        return continueAfter(job, siblings);
      default:
        // Canceled: nothing follows.
        return;
    }
  }

  /**
   * The template context of a step: payload at the top, plus subscriber, step and the tenant
   * the trigger named (its identifier, name and data as the trigger found them), and for an
   * email its layout's look (branding).
   */
  function contextOf(job: Job, subscriber: Subscriber, look?: EmailLook): RenderContext {
    const events = job.digest?.events ?? [];
    return {
      // A layout's variable defaults fill what the payload lacks, for the content too.
      payload: look?.layout ? withLayoutDefaults(job.payload, look.layout.variables) : job.payload,
      ...(look && { branding: look.branding }),
      subscriber: subscriberView(subscriber),
      step: job.digest
        ? { digest: true, events, total_count: events.length }
        : { digest: false, events: [], total_count: 0 },
      tenant: job.tenant ?? undefined,
    };
  }

  /** Sino delivers in-app messages itself: timed and counted as a provider's are. */
  async function inAppMessage(input: InAppMessageInput): Promise<void> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      await inSpan('sino.deliver', { attributes: { 'sino.channel': 'in_app' } }, () =>
        deps.createInAppMessage(input),
      );
    } catch (error) {
      // The step fails and the queue runs it again.
      deps.metrics.delivery(
        'in_app',
        IN_APP_PROVIDER,
        { outcome: 'failed', errorClass: 'retryable' },
        seconds(),
      );
      throw error;
    }
    deps.metrics.delivery('in_app', IN_APP_PROVIDER, { outcome: 'sent' }, seconds());
    await deps.stats?.count({
      environmentId: input.job.environmentId,
      channel: 'in_app',
      providerId: IN_APP_PROVIDER,
      kind: 'sent',
      latencyMs: deps.now().getTime() - input.job.createdAt.getTime(),
    });
  }

  async function runChannelStep(
    job: Job,
    step: WorkflowStep,
    workflow: Workflow,
    subscriber: Subscriber,
    channel: Channel,
    /** Details to record with the job's final status, in the same statement. */
    closing: DetailInput[],
    preferences: SubscriberPreferences | undefined,
  ): Promise<'completed' | 'failed' | 'skipped' | 'waiting'> {
    const preference = await deps.checkPreferences({
      workflow,
      step,
      channel,
      subscriberId: subscriber.id,
      stored: preferences,
      tenantPreferences: job.tenantPreferences,
    });
    if (!preference.enabled) {
      await detail(job, {
        detail: `Step skipped: ${preference.reason ?? 'the subscriber turned this channel off'}`,
        status: 'Warning',
        raw: { preference },
      });
      return 'skipped';
    }
    const template: StepTemplate = step.template;
    let look: EmailLook | undefined;
    if (channel === 'email' && deps.emailLook) {
      look = await deps.emailLook(job, template);
      if (look.warning && job.attempts === 0)
        await detail(job, { detail: look.warning, status: 'Warning' });
    }
    const context = contextOf(job, subscriber, look);
    let content: string;
    let subject: string | undefined;
    let preheader: string | undefined;
    try {
      const html = channel === 'email' || channel === 'in_app';
      content = deps.render(template.content ?? '', context, html ? 'html' : 'text');
      subject =
        template.subject === undefined ? undefined : deps.render(template.subject, context, 'text');
      preheader = renderOptional(template.preheader, context);
      if (look?.layout)
        // The email inside its layout.
        content = deps.render(
          look.layout.content,
          layoutContext(context, { body: content, subject, preheader }),
          'html',
        );
    } catch (error) {
      await detail(job, {
        code: EXECUTION_CODES.SYNTAX_ERROR_IN_EMAIL_EDITOR,
        detail: 'Template could not be rendered',
        status: 'Failed',
        raw: { error: String(error) },
      });
      return 'failed';
    }

    if (channel === 'in_app') {
      const url = template.cta?.data?.url;
      await inAppMessage({
        job,
        step,
        templateIdentifier: workflow.identifier,
        content,
        payload: job.payload,
        cta: {
          type: 'redirect',
          data: url ? { url: deps.render(url, context, 'text') } : {},
          ...(template.cta?.action && { action: template.cta.action }),
        },
        actor: template.actor
          ? { type: template.actor.type, data: template.actor.data ?? null }
          : null,
        feedId: template.feedId ?? null,
      });
      closing.push({
        code: EXECUTION_CODES.IN_APP_MESSAGE_CREATED,
        detail: 'In-app message created',
        status: 'Success',
      });
      return 'completed';
    }

    if (!deps.delivery) {
      await detail(job, {
        code: MISSING_INTEGRATION_CODE[channel],
        detail: `No ${channel} delivery is configured`,
        status: 'Failed',
      });
      return 'failed';
    }
    const outcome = await deps.delivery.deliver({
      job,
      channel,
      subscriber,
      templateIdentifier: workflow.identifier,
      rendered: {
        content,
        subject,
        preheader,
        senderName: renderOptional(template.senderName, context),
        title: renderOptional(template.title, context),
      },
      record: (d) => detail(job, d),
      lastAttempt: deps.retries.delaysMs[job.attempts] === undefined,
    });
    switch (outcome.kind) {
      case 'sent':
        closing.push(outcome.detail);
        return 'completed';
      case 'skipped':
        // No address for the channel: the step is skipped and the workflow goes on.
        await detail(job, { code: outcome.code, detail: outcome.detail, status: 'Warning' });
        return 'skipped';
      case 'no-integration':
        await detail(job, {
          code: MISSING_INTEGRATION_CODE[channel],
          detail: outcome.detail ?? `No active ${channel} integration`,
          status: 'Failed',
        });
        return 'failed';
      case 'failed':
        return retryOrFail(job, channel, outcome);
    }
  }

  /** Renders an optional template field; absent stays absent. */
  function renderOptional(template: string | undefined, context: RenderContext) {
    return template === undefined || template === ''
      ? undefined
      : deps.render(template, context, 'text');
  }

  /**
   * A delivery every integration failed: waits in the durable queue for the next attempt of
   * the schedule when a retry may help (so it survives a restart), else fails the step.
   */
  async function retryOrFail(
    job: Job,
    channel: Exclude<Channel, 'in_app'>,
    outcome: { retryable: boolean; retryAfterMs?: number | undefined },
  ): Promise<'failed' | 'waiting'> {
    const attempts = job.attempts + 1;
    const wait = deps.retries.delaysMs[attempts - 1];
    if (!outcome.retryable || wait === undefined) {
      await detail(job, {
        code: ERROR_CODES[channel],
        detail: outcome.retryable
          ? `Delivery failed after ${attempts} attempts`
          : 'Delivery failed; a retry would not help',
        status: 'Failed',
        raw: { attempts },
      });
      return 'failed';
    }
    const jitter = 1 + deps.retries.jitter * (2 * Math.random() - 1);
    // A provider's Retry-After may lengthen the wait, up to an hour.
    const asked = Math.min(outcome.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
    const delayMs = Math.max(Math.round(wait * jitter), asked);
    const runAt = new Date(deps.now().getTime() + delayMs);
    const delayed = await repo.transition(job.id, ['running'], 'delayed', { runAt, attempts });
    if (!delayed) return 'waiting';
    deps.metrics.retryScheduled(channel);
    await detail(job, {
      detail: `Attempt ${attempts} failed; attempt ${attempts + 1} at ${runAt.toISOString()}`,
      status: 'Pending',
      raw: { attempts, retryAt: runAt.toISOString(), delayMs },
    });
    await enqueueJob(delayed, delayMs);
    return 'waiting';
  }

  /** A delay step: waits in the queue until `runAt`, then the workflow goes on. */
  async function runDelay(
    job: Job,
    step: WorkflowStep,
    closing: DetailInput[],
  ): Promise<'completed' | 'waiting'> {
    if (job.runAt && job.runAt <= deps.now()) {
      // The timeline's "Delayed until" (Pending) gets its end, written with the step's.
      closing.push({ detail: 'Delay ended', status: 'Success' });
      return 'completed';
    }
    const metadata = (step.metadata ?? { type: 'regular' }) as DelayMetadata;
    let runAt: Date;
    if (metadata.type === 'scheduled' && metadata.delayPath) {
      const value = job.payload[metadata.delayPath];
      const at = typeof value === 'string' ? new Date(value) : undefined;
      if (!at || Number.isNaN(at.getTime())) {
        await detail(job, {
          code: EXECUTION_CODES.MISSING_PAYLOAD_VARIABLE,
          detail: `Payload has no valid date at "${metadata.delayPath}"`,
          status: 'Failed',
          source: 'Payload',
        });
        throw new StepFailed();
      }
      runAt = at;
    } else {
      runAt = windowEnd(deps.now(), metadata.amount, metadata.unit);
    }
    if (runAt <= deps.now()) return 'completed';
    const delayed = await repo.transition(job.id, ['running'], 'delayed', { runAt });
    if (!delayed) return 'waiting';
    await detail(job, {
      detail: `Delayed until ${runAt.toISOString()}`,
      status: 'Pending',
      raw: { runAt: runAt.toISOString() },
    });
    await enqueueJob(delayed, runAt.getTime() - deps.now().getTime());
    return 'waiting';
  }

  /**
   * A digest step: the first event of a subscriber (and digest key) leads and waits for the
   * window; events arriving meanwhile merge into it; when the window ends, the steps after
   * the leader run once with every merged event.
   */
  async function runDigest(
    job: Job,
    step: WorkflowStep,
    closing: DetailInput[],
  ): Promise<'completed' | 'waiting' | 'merged'> {
    if (job.runAt && job.runAt <= deps.now()) {
      // The timeline's "Digest open until" (Pending) gets its end, written with the step's.
      const count = job.digest?.events.length ?? 1;
      closing.push({
        detail: `Digest closed with ${count} ${count === 1 ? 'event' : 'events'}`,
        status: 'Success',
        raw: { events: count },
      });
      return 'completed';
    }
    const metadata = (step.metadata ?? { type: 'regular' }) as DigestMetadata;
    const digestValue =
      metadata.digestKey === undefined ? undefined : String(job.payload[metadata.digestKey] ?? '');
    const now = deps.now();
    const events = { events: [job.payload], ...(digestValue !== undefined && { digestValue }) };
    // Looking for an open digest and opening one happen under the same lock, so two events
    // arriving together never both open one.
    const outcome = await deps.transaction(async (tx) => {
      const leader = await tx.openDigestLocked(job, digestValue);
      if (leader && leader.id !== job.id) {
        await tx.transition(leader.id, ['delayed'], 'delayed', {
          digest: { ...leader.digest, events: [...(leader.digest?.events ?? []), job.payload] },
        });
        await tx.transition(job.id, ['running'], 'merged');
        return { kind: 'merged' as const, leader };
      }
      if (metadata.type === 'backoff' || metadata.backoff) {
        // Backoff: an event with no other in the backoff window goes out at once.
        const since = add(now, {
          [metadata.backoffUnit ?? 'minutes']: -(metadata.backoffAmount ?? 0),
        });
        if (!(await tx.recentJobOfStep(job, since))) {
          await tx.transition(job.id, ['running'], 'running', { digest: events });
          return { kind: 'alone' as const };
        }
      }
      const runAt =
        metadata.type === 'timed'
          ? nextTimedRun(now, metadata.timed ?? {})
          : windowEnd(now, metadata.amount, metadata.unit);
      const opened = await tx.transition(job.id, ['running'], 'delayed', { runAt, digest: events });
      return { kind: 'opened' as const, opened, runAt };
    });

    if (outcome.kind === 'merged') {
      await endRest(job, 'skipped', 'Merged into a digest');
      await detail(job, {
        detail: 'Event merged into an open digest',
        status: 'Success',
        raw: { leaderJobId: outcome.leader.id },
      });
      return 'merged';
    }
    if (outcome.kind === 'alone') {
      closing.push({
        detail: 'No other event in the backoff window: sent at once',
        status: 'Success',
      });
      return 'completed';
    }
    if (!outcome.opened) return 'waiting';
    await detail(job, {
      detail: `Digest open until ${outcome.runAt.toISOString()}`,
      status: 'Pending',
      raw: { runAt: outcome.runAt.toISOString(), digestValue: digestValue ?? null },
    });
    // Enqueued after the commit: the queue may share the database connection (PGlite).
    await enqueueJob(outcome.opened, Math.max(0, outcome.runAt.getTime() - now.getTime()));
    return 'waiting';
  }

  /** Runs one step job; safe to call again for the same job (at-least-once delivery). */
  async function runStep(jobId: string): Promise<void> {
    const current = await repo.job(jobId);
    if (!current) return;
    // Delivered again after it finished: a crash may have come before what follows it.
    if (FINAL_STATUSES.includes(current.status)) return followUp(current);
    // A waiting job delivered again before it is due: its own queue task is still ahead.
    if (current.status === 'delayed' && current.runAt && current.runAt > deps.now()) return;
    // Delayed jobs come back when due; queued ones on their first delivery.
    const job = await repo.transition(jobId, ['queued', 'delayed', 'running'], 'running');
    if (!job) return;
    const [subscriber, found] = await Promise.all([
      repo.subscriber(job.subscriberId),
      repo.workflowWithSteps(job.workflowId),
    ]);
    const step = found?.steps.find((s) => s.id === job.stepId);
    if (!step || !found) {
      await repo.transition(job.id, ['running'], 'canceled', { error: 'Workflow step removed' });
      return;
    }
    if (!subscriber) {
      await detail(job, {
        code: EXECUTION_CODES.SUBSCRIBER_NOT_FOUND,
        detail: 'Subscriber not found',
        status: 'Failed',
      });
      const failed = await repo.transition(job.id, ['running'], 'failed', {
        error: 'Subscriber not found',
      });
      if (failed) deps.metrics.stepFinished(failed.type, 'failed');
      return;
    }
    await runClaimed(job, step, found, subscriber);
  }

  /** A step job this process has moved to running: filters, the step itself, what follows. */
  async function runClaimed(
    job: Job,
    step: WorkflowStep,
    found: { workflow: Workflow; steps: WorkflowStep[] },
    subscriber: Subscriber,
    siblings?: Job[],
    /** The subscriber's preferences as read with the notification (its first step only). */
    preferences?: SubscriberPreferences,
  ): Promise<void> {
    // Nothing can follow the workflow's last step (the notification's jobs are ordered by
    // their steps' positions): what follows it needs no reading of the notification's jobs.
    siblings ??= found.steps.every((s) => s.position <= step.position) ? [job] : undefined;
    const resuming = job.runAt !== null && job.runAt <= deps.now();
    if (!resuming && step.filters.length > 0) {
      // Jobs carry their notification's tenant (those stored before they did, only it has it).
      const tenant = job.tenant ?? (await repo.notification(job.notificationId))?.tenant;
      const filter = await deps.evaluateFilters({
        step,
        job,
        subscriber,
        tenant: tenant ?? undefined,
      });
      if (!filter.passed) {
        await detail(job, {
          detail: 'Step skipped: filter not matched',
          status: 'Warning',
          raw: { conditions: filter.conditions },
        });
        const skipped = await repo.transition(job.id, ['running'], 'skipped');
        if (skipped) deps.metrics.stepFinished(skipped.type, 'skipped');
        await continueAfter(job, siblings);
        return;
      }
    }

    let result: 'completed' | 'failed' | 'skipped' | 'waiting' | 'merged';
    const closing: DetailInput[] = [];
    try {
      if (step.type === 'delay') result = await runDelay(job, step, closing);
      else if (step.type === 'digest') result = await runDigest(job, step, closing);
      else if (isChannel(step.type))
        result = await runChannelStep(
          job,
          step,
          found.workflow,
          subscriber,
          step.type,
          closing,
          preferences,
        );
      else result = 'skipped';
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
      result = 'failed';
    }

    if (result === 'waiting' || result === 'merged') return;
    const done = await repo.finish(
      job.id,
      ['running'],
      result,
      closing.map((d) => detailRow(job, d)),
    );
    if (!done) return;
    deps.metrics.stepFinished(done.type, result);
    await followUp(done, step, siblings);
  }

  /** Ends the notification's jobs that never started (a failed step, a merged digest). */
  async function endRest(job: Job, status: 'canceled' | 'skipped', reason: string): Promise<void> {
    for (const j of await repo.jobsOfNotification(job.notificationId)) {
      if (j.status === 'pending')
        await repo.transition(j.id, ['pending'], status, { error: reason });
    }
  }

  return {
    /** The queue's handler: one task, run to its next waiting point. */
    async process(task: EngineTask): Promise<void> {
      if (task.kind === 'trigger') await fanOut(task);
      else await runStep(task.jobId);
    },

    /**
     * Cancels a transaction's pending, queued and delayed jobs (delays and digests waiting in
     * the queue included). True when something was canceled.
     */
    async cancel(environmentId: string, transactionId: string): Promise<boolean> {
      let canceled = false;
      for (const job of await repo.cancelableJobs(environmentId, transactionId)) {
        const done = await repo.transition(job.id, ['pending', 'queued', 'delayed'], 'canceled');
        if (!done) continue;
        canceled = true;
        if (job.queueJobId) await deps.queue.cancel(job.queueJobId);
        await detail(job, { detail: 'Canceled by the API', status: 'Success' });
      }
      return canceled;
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** The longest wait a provider's `Retry-After` can impose on a retry. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** Why a trigger's steps for an erased subscriber were canceled. */
export const SUBSCRIBER_ERASED = 'Subscriber was erased';

/** Triggers naming at most this many subscribers (and no topic) run first steps in the fan-out. */
const INLINE_RECIPIENTS = 10;

const isTopic = (r: unknown) =>
  typeof r === 'object' && r !== null && (r as { type?: unknown }).type === 'Topic';

/** A step that failed in a way already recorded: the job ends failed, the queue does not retry. */
class StepFailed extends Error {}

const ERROR_CODES: Record<Exclude<Channel, 'in_app'>, number> = {
  email: EXECUTION_CODES.MAIL_PROVIDER_DELIVERY_ERROR,
  sms: EXECUTION_CODES.SMS_ERROR,
  chat: EXECUTION_CODES.CHAT_ERROR,
  push: EXECUTION_CODES.PUSH_ERROR,
};
