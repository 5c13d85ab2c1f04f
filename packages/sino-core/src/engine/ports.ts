import type { Channel } from '@sino/shared';
import type { Job, WorkflowStep } from './repository.js';

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
      tenant?: unknown;
    }
  | { kind: 'step'; jobId: string };

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
  tenant?: Record<string, unknown> | undefined;
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

/** Sends a rendered message through the environment's integration (providers issue). */
export interface DeliveryPort {
  send(input: {
    channel: Exclude<Channel, 'in_app'>;
    integration: { providerId: string; credentialsCiphertext: string | null };
    subscriber: Record<string, unknown>;
    content: string;
    subject?: string | undefined;
  }): Promise<{ id?: string }>;
}
