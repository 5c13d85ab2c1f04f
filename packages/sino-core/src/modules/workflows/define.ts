import { z } from 'zod';
import type { Channel, StepType } from '@sino/shared';
import { validationMessages } from '../../http/validation.js';
import {
  preferenceSettings,
  stepsInput,
  workflowIdentifier,
  type FilterCondition,
  type StepInput,
} from './schemas.js';
import type { DelayMetadata, DigestMetadata, StepTemplate } from '../../db/schema.js';

/** One step of a workflow defined in code: Novu's step with its template fields inline. */
export interface CodeStep {
  type: StepType;
  /** Stable key of the step; `previousStep` conditions name it. Steps without one are matched by position. */
  uuid?: string;
  name?: string;
  active?: boolean;
  shouldStopOnFail?: boolean;
  filters?: {
    isNegated?: boolean;
    value: 'AND' | 'OR';
    children: FilterCondition[];
  }[];
  metadata?: DelayMetadata | DigestMetadata;
  content?: string;
  subject?: string;
  title?: string;
  senderName?: string;
  preheader?: string;
  cta?: StepTemplate['cta'];
  actor?: StepTemplate['actor'];
  /** Identifier of the in-app feed the messages go to; the feed is created when absent. */
  feed?: string;
}

/** A workflow defined in code (Locadora's), kept in the database by `upsertCodeWorkflows`. */
export interface WorkflowSpec {
  identifier: string;
  name: string;
  description?: string;
  tags?: string[];
  critical?: boolean;
  /** Whether a new workflow starts active (default true); an existing one keeps its status. */
  active?: boolean;
  preferenceSettings?: Partial<Record<Channel, boolean>>;
  data?: Record<string, unknown>;
  steps: CodeStep[];
}

/** A validated workflow spec, ready for `upsertCodeWorkflows`. */
export interface DefinedWorkflow {
  readonly identifier: string;
  readonly name: string;
  readonly description: string | null;
  readonly tags: string[];
  readonly critical: boolean;
  readonly active: boolean;
  readonly preferenceSettings: Partial<Record<Channel, boolean>>;
  readonly data: Record<string, unknown> | null;
  /** Each step in the API's shape, with the feed identifier it names. */
  readonly steps: readonly { step: StepInput; feed: string | null }[];
}

const header = z.object({
  identifier: workflowIdentifier,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(1000).optional(),
  tags: z.array(z.string().min(1).max(100)).max(50).optional(),
  critical: z.boolean().optional(),
  active: z.boolean().optional(),
  preferenceSettings: preferenceSettings.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  steps: z.array(z.object({ feed: z.string().min(1).max(100).optional() })).max(50),
});

const toStepInput = (s: CodeStep) => ({
  uuid: s.uuid,
  name: s.name,
  active: s.active,
  shouldStopOnFail: s.shouldStopOnFail,
  filters: s.filters,
  metadata: s.metadata,
  template: {
    type: s.type,
    content: s.content,
    subject: s.subject,
    title: s.title,
    senderName: s.senderName,
    preheader: s.preheader,
    cta: s.cta,
    actor: s.actor,
  },
});

/**
 * Checks a workflow defined in code with the API's own rules, so a mistake fails at start-up
 * with the same message the API would give, and answers it ready to be kept in the database.
 */
export function defineWorkflow(spec: WorkflowSpec): DefinedWorkflow {
  const head = header.safeParse(spec, { reportInput: true });
  const steps = stepsInput.safeParse((spec.steps ?? []).map(toStepInput), { reportInput: true });
  const problems = [
    ...(head.success ? [] : validationMessages(head.error)),
    ...(steps.success
      ? []
      : validationMessages(steps.error).map((m) => (/^\d/.test(m) ? `steps.${m}` : `steps ${m}`))),
  ];
  if (!head.success || !steps.success) {
    throw new Error(`Workflow "${String(spec.identifier)}" is invalid: ${problems.join('; ')}`);
  }
  const h = head.data;
  return Object.freeze({
    identifier: h.identifier,
    name: h.name,
    description: h.description ?? null,
    tags: h.tags ?? [],
    critical: h.critical ?? false,
    active: h.active ?? true,
    preferenceSettings: h.preferenceSettings ?? {},
    data: h.data ?? null,
    steps: steps.data.map((step, i) => ({ step, feed: h.steps[i]?.feed ?? null })),
  });
}
