import type { StepType } from '@sino/shared';
import { stepAnswer, workflowTriggers } from '../workflows/present.js';
import type {
  ActivityDetail,
  ActivityJob,
  ActivityStep,
  ActivitySubscriber,
  ActivityWorkflow,
  Notification,
} from './repository.js';
import type { ActivityJobWire, ActivityNotificationWire, ExecutionDetailWire } from './schemas.js';

/** The provider a detail names in its raw data (a sent message), if any. */
function providerOf(raw: Record<string, unknown> | null): string | undefined {
  const id = raw?.providerId;
  return typeof id === 'string' ? id : undefined;
}

export function detailWire(d: ActivityDetail): ExecutionDetailWire {
  const providerId = providerOf(d.raw);
  return {
    _id: d.id,
    _jobId: d.jobId,
    _environmentId: d.environmentId,
    _organizationId: d.organizationId,
    _notificationId: d.notificationId,
    _notificationTemplateId: d.workflowId,
    _subscriberId: d.subscriberId,
    transactionId: d.transactionId,
    channel: d.channel,
    ...(providerId && { providerId }),
    status: d.status,
    source: d.source,
    detail: d.detail,
    code: d.code,
    isRetry: d.isRetry,
    isTest: d.isTest,
    raw: d.raw === null ? null : JSON.stringify(d.raw),
    createdAt: d.createdAt.toISOString(),
  };
}

/** Everything the notifications of a page refer to, loaded once for the page. */
export interface ActivityContext {
  subscribers: Map<string, ActivitySubscriber>;
  workflows: Map<string, ActivityWorkflow>;
  /** Each workflow's steps in order. */
  steps: Map<string, ActivityStep[]>;
  /** Each notification's jobs in step order. */
  jobs: Map<string, ActivityJob[]>;
  /** Each notification's details, oldest first. */
  details: Map<string, ActivityDetail[]>;
}

function jobWire(
  job: ActivityJob,
  steps: ActivityStep[],
  details: ExecutionDetailWire[],
): ActivityJobWire {
  const index = steps.findIndex((s) => s.id === job.stepId);
  const providerId = details.find((d) => d.providerId)?.providerId;
  return {
    _id: job.id,
    type: job.type,
    status: job.status,
    ...(providerId && { providerId }),
    payload: job.payload,
    overrides: job.overrides ?? {},
    ...(job.digest && { digest: job.digest }),
    ...(index >= 0 && { step: stepAnswer(steps[index]!, steps[index - 1]) }),
    executionDetails: details,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

export function notificationWire(n: Notification, ctx: ActivityContext): ActivityNotificationWire {
  const subscriber = ctx.subscribers.get(n.subscriberId);
  const workflow = ctx.workflows.get(n.workflowId);
  const steps = ctx.steps.get(n.workflowId) ?? [];
  const jobs = ctx.jobs.get(n.id) ?? [];
  const details = (ctx.details.get(n.id) ?? []).map(detailWire);
  // What happened before any step ran (the trigger received) opens the first step's log: Novu's
  // feed has no other place for it.
  const before = details.filter((d) => d._jobId === null);
  const byJob = (job: ActivityJob, i: number) => [
    ...(i === 0 ? before : []),
    ...details.filter((d) => d._jobId === job.id),
  ];
  return {
    _id: n.id,
    _environmentId: n.environmentId,
    _organizationId: n.organizationId,
    _subscriberId: n.subscriberId,
    _templateId: n.workflowId,
    transactionId: n.transactionId,
    channels: [...new Set<StepType | 'trigger'>(jobs.map((j) => j.type))],
    payload: n.payload,
    ...(n.tenant && { tenant: n.tenant }),
    createdAt: n.createdAt.toISOString(),
    ...(subscriber && {
      subscriber: {
        _id: subscriber.id,
        subscriberId: subscriber.subscriberId,
        firstName: subscriber.firstName,
        lastName: subscriber.lastName,
        email: subscriber.email,
        phone: subscriber.phone,
      },
    }),
    ...(workflow && {
      template: {
        _id: workflow.id,
        name: workflow.name,
        triggers: workflowTriggers({ workflow, steps }),
      },
    }),
    jobs: jobs.map((job, i) => jobWire(job, steps, byJob(job, i))),
  };
}
