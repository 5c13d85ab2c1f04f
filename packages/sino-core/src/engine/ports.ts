import type { Channel } from '@sino/shared';
import type { ChannelSwitches } from '../db/schema.js';
import type { Subscriber } from '../modules/subscribers/repository.js';
import type { Job, WorkflowStep } from './repository.js';
import type { TraceCarrier } from '../observability/tracing.js';

/** What the engine puts on the durable queue. */
export type EngineTask =
  | {
      kind: 'trigger';
      environmentId: string;
      organizationId: string;
      workflowId: string;
      transactionId: string;
      /** Recipients as given, or every subscriber of the environment. */
      to: unknown[] | 'broadcast';
      payload: Record<string, unknown>;
      overrides: Record<string, unknown>;
      actor?: unknown;
      /** The tenant the trigger named, as templates see it: identifier, name and data. */
      tenant?: unknown;
      /**
       * The channel switches of the tenant's override of the workflow, when it has one: they
       * stand for the workflow's defaults in every step of the trigger.
       */
      tenantPreferences?: ChannelSwitches | undefined;
      /** The trigger's trace context, set where the trigger is admitted (when traced). */
      trace?: TraceCarrier | undefined;
    }
  | { kind: 'step'; jobId: string };

/**
 * A recipient whose subscriberId was erased (it has a tombstone): no subscriber, no message;
 * the engine records that the trigger reached an erased subscriber, under a name drawn from
 * the tombstone's key, never the id.
 */
export interface ErasedRecipient {
  erased: true;
  /** The tombstone's key (src/modules/subscribers/tombstones.ts). */
  key: string;
}

/** Who a trigger reaches: a subscriber, or an erased one. */
export type ResolvedRecipient = Subscriber | ErasedRecipient;

export const isErasedRecipient = (r: ResolvedRecipient): r is ErasedRecipient => 'erased' in r;

/** The slice of the queue port the engine uses (see src/queue). */
export interface EngineQueue {
  enqueue(task: EngineTask, options?: { delayMs?: number; dedupeKey?: string }): Promise<string>;
  enqueueMany(tasks: { data: EngineTask }[]): Promise<string[]>;
  cancel(queueJobId: string): Promise<boolean>;
}

/** Everything a step's content is rendered over. */
export interface RenderContext {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown>;
  step: Record<string, unknown>;
  /** Email steps: the organisation's branding. */
  branding?: Record<string, unknown> | undefined;
  tenant?: Record<string, unknown> | undefined;
}

/** What an email step renders in (src/modules/layouts/for-email.ts). */
export interface EmailLook {
  /** The layout, placing the email's content with `{{{body}}}`; none: the content alone. */
  layout:
    { content: string; variables: readonly { name: string; defaultValue?: unknown }[] } | undefined;
  /** `branding` in the email's templates. */
  branding: Record<string, unknown>;
  /** Why the layout is not the one named, for the step's execution details. */
  warning?: string | undefined;
}

/** An in-app message the engine asks to create (and to push over the socket). */
export interface InAppMessageInput {
  job: Job;
  step: WorkflowStep;
  templateIdentifier: string;
  content: string;
  payload: Record<string, unknown>;
  cta: Record<string, unknown>;
  actor: { type: string; data: string | null } | null;
  feedId: string | null;
}

/** Outcome of a step filter evaluation: why a step runs or is skipped. */
export interface FilterOutcome {
  passed: boolean;
  conditions: unknown[];
}

/** Result of checking a subscriber's preferences for a channel. */
export interface PreferenceOutcome {
  enabled: boolean;
  reason?: string;
}

/** A channel step rendered from its template, ready for the providers. */
export interface RenderedStep {
  content: string;
  subject?: string | undefined;
  preheader?: string | undefined;
  senderName?: string | undefined;
  title?: string | undefined;
}

/** How one delivery attempt (every integration of the channel tried once) ended. */
export type DeliveryOutcome =
  /** `detail` is recorded with the job's final status, in the same statement. */
  | { kind: 'sent'; detail: DeliveryDetail }
  /** The subscriber has no address for the channel: the step is skipped with `code`. */
  | { kind: 'skipped'; code: number; detail: string }
  /** `detail` says why when it is more than "none is active" (the trigger chose one). */
  | { kind: 'no-integration'; detail?: string | undefined }
  | {
      kind: 'failed';
      /** Some integration failed in a way a later attempt may not (network, 429, 5xx). */
      retryable: boolean;
      /** The longest wait a provider asked for (`Retry-After`). */
      retryAfterMs?: number | undefined;
    };

/** An execution detail as the delivery side records it (the engine fills the job's ids). */
export interface DeliveryDetail {
  code?: number | undefined;
  detail: string;
  status: 'Success' | 'Warning' | 'Failed' | 'Pending';
  source?: 'Internal' | 'Credentials' | 'Webhook' | undefined;
  raw?: Record<string, unknown> | undefined;
}

/**
 * Delivers a rendered email, SMS, chat or push step through the environment's integrations of
 * the channel, failing over from one to the next; one execution detail per try.
 */
export interface DeliveryPort {
  deliver(input: {
    job: Job;
    channel: Exclude<Channel, 'in_app'>;
    subscriber: Subscriber;
    templateIdentifier: string;
    rendered: RenderedStep;
    record(detail: DeliveryDetail): Promise<void>;
    /** No retry follows this attempt: a failure now is final. */
    lastAttempt: boolean;
  }): Promise<DeliveryOutcome>;
}

/** When failed deliveries are tried again: the waits before the 2nd, 3rd, ... attempt. */
export interface RetrySchedule {
  /** Milliseconds before each retry; its length is the number of retries. */
  delaysMs: readonly number[];
  /** Each wait is drawn within ±this fraction of its value, so retries do not come in waves. */
  jitter: number;
}
