import { z } from 'zod';
import { groupAnswer } from '../notification-groups/schemas.js';
import {
  ACTOR_TYPES,
  CHANNELS,
  DIGEST_TYPES,
  FILTER_OPERATORS,
  STEP_TYPES,
  TIME_UNITS,
  WEEK_DAYS,
} from '@sino/shared';

/**
 * Workflow shapes of Novu 0.24's `/v1/workflows` (its "notification templates"). Unknown fields
 * (`draft`, `blueprintId`, variants, ...) are accepted and dropped: zod objects strip what they
 * do not declare.
 */

const timeUnit = z.enum(TIME_UNITS);
const amount = z.number().int().min(1);

/** `{type:'regular', amount, unit}` or `{type:'scheduled', delayPath}`. */
export const delayMetadata = z.discriminatedUnion('type', [
  z.object({ type: z.literal('regular'), amount, unit: timeUnit }),
  z.object({ type: z.literal('scheduled'), delayPath: z.string().min(1).max(200) }),
]);

const timedConfig = z.object({
  atTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:mm')
    .optional(),
  weekDays: z.array(z.enum(WEEK_DAYS)).max(7).optional(),
  monthDays: z.array(z.number().int().min(1).max(31)).max(31).optional(),
  ordinal: z.enum(['1', '2', '3', '4', '5', 'last']).optional(),
  ordinalValue: z
    .enum([
      'day',
      'weekday',
      'weekend',
      'sunday',
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
    ])
    .optional(),
  monthlyType: z.enum(['each', 'on']).optional(),
  cronExpression: z.string().min(1).max(200).optional(),
});

/** Novu's digest metadata: a window (`amount` `unit`), optionally backing off, or a schedule. */
export const digestMetadata = z
  .object({
    type: z.enum(DIGEST_TYPES),
    amount,
    unit: timeUnit,
    digestKey: z.string().min(1).max(200).optional(),
    backoff: z.boolean().optional(),
    backoffAmount: amount.optional(),
    backoffUnit: timeUnit.optional(),
    updateMode: z.boolean().optional(),
    timed: timedConfig.optional(),
  })
  .superRefine((m, ctx) => {
    const backsOff = m.type === 'backoff' || (m.type === 'regular' && m.backoff === true);
    if (backsOff && (m.backoffAmount === undefined || m.backoffUnit === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [m.backoffAmount === undefined ? 'backoffAmount' : 'backoffUnit'],
        message: 'should not be empty when the digest backs off',
      });
    }
  });

const filterValue = z.union([z.string().max(1000), z.number(), z.boolean()]);
const fieldCondition = {
  field: z.string().min(1).max(200),
  value: filterValue,
  operator: z.enum(FILTER_OPERATORS),
};

/** One condition of a step filter, per Novu's `FilterParts` (`on` absent means payload). */
export const filterCondition = z.preprocess(
  (v) => (v && typeof v === 'object' && !('on' in v) ? { ...v, on: 'payload' } : v),
  z.discriminatedUnion('on', [
    z.object({ on: z.enum(['payload', 'subscriber', 'tenant']), ...fieldCondition }),
    z.object({
      on: z.literal('webhook'),
      ...fieldCondition,
      webhookUrl: z.url({ error: 'must be a URL address' }).max(2000),
    }),
    z.object({ on: z.literal('isOnline'), value: z.boolean() }),
    z.object({
      on: z.literal('isOnlineInLast'),
      value: z.number().int().min(1),
      timeOperator: z.enum(['minutes', 'hours', 'days']),
    }),
    z.object({
      on: z.literal('previousStep'),
      step: z.string().min(1).max(100),
      stepType: z.enum(['read', 'unread', 'seen', 'unseen']),
    }),
  ]),
);
export type FilterCondition = z.infer<typeof filterCondition>;

export const stepFilter = z.object({
  isNegated: z.boolean().optional(),
  type: z
    .enum(['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'])
    .optional(),
  value: z.enum(['AND', 'OR']),
  children: z.array(filterCondition).max(50),
});

const cta = z.object({
  type: z.literal('redirect').default('redirect'),
  data: z.object({ url: z.string().max(2000).optional() }).default({}),
  action: z
    .object({
      buttons: z
        .array(
          z.object({
            type: z.enum(['primary', 'secondary']),
            content: z.string().max(200),
            resultContent: z.string().max(200).optional(),
          }),
        )
        .max(2)
        .optional(),
    })
    .optional(),
});

const nullableText = (max: number) => z.string().max(max).nullish();

/** A step's message template (`template` of a Novu step). */
export const stepTemplate = z.object({
  type: z.enum(STEP_TYPES),
  name: nullableText(200),
  content: z.string().max(100_000).nullish(),
  subject: nullableText(1000),
  title: nullableText(1000),
  senderName: nullableText(200),
  preheader: nullableText(1000),
  /** The feed's `_id` (Novu's input name); `_feedId` (its output name) is read back too. */
  feedId: z.string().max(100).nullish(),
  _feedId: z.string().max(100).nullish(),
  /** Email steps: the layout's `_id` (Novu's input name); `_layoutId` is read back too. */
  layoutId: z.string().max(100).nullish(),
  _layoutId: z.string().max(100).nullish(),
  cta: cta.nullish(),
  actor: z.object({ type: z.enum(ACTOR_TYPES), data: z.string().max(2000).nullish() }).nullish(),
});

export const stepInput = z
  .object({
    /** The step's id (Novu's `_id` or `_templateId`): given on update, kept. */
    _id: z.string().max(100).nullish(),
    _templateId: z.string().max(100).nullish(),
    uuid: z.string().min(1).max(100).nullish(),
    name: nullableText(200),
    active: z.boolean().optional(),
    shouldStopOnFail: z.boolean().optional(),
    filters: z.array(stepFilter).max(20).optional(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    template: stepTemplate,
  })
  .superRefine((step, ctx) => {
    // Delay and digest steps need their metadata; channel steps carry none.
    const type = step.template.type;
    const schema = type === 'delay' ? delayMetadata : type === 'digest' ? digestMetadata : null;
    if (!schema) return;
    if (step.metadata == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['metadata'],
        message: 'should not be empty',
        input: undefined,
      });
      return;
    }
    const result = schema.safeParse(step.metadata, { reportInput: true });
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ ...issue, path: ['metadata', ...issue.path] });
    }
  });
export type StepInput = z.infer<typeof stepInput>;

/** The steps of a workflow: unique uuids, and `previousStep` conditions naming an earlier step. */
export const stepsInput = z
  .array(stepInput)
  .max(50)
  .superRefine((steps, ctx) => {
    const seen = new Set<string>();
    steps.forEach((step, i) => {
      step.filters?.forEach((filter, f) =>
        filter.children.forEach((condition, c) => {
          if (condition.on === 'previousStep' && !seen.has(condition.step)) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'filters', f, 'children', c, 'step'],
              message: 'must be the uuid of an earlier step',
            });
          }
        }),
      );
      if (!step.uuid) return;
      if (seen.has(step.uuid)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'uuid'],
          message: 'must be unique in the workflow',
        });
      }
      seen.add(step.uuid);
    });
  });

export const preferenceSettings = z.object(
  Object.fromEntries(CHANNELS.map((c) => [c, z.boolean().optional()])) as Record<
    (typeof CHANNELS)[number],
    z.ZodOptional<z.ZodBoolean>
  >,
);

/** A trigger name: what `POST /v1/events/trigger` names. */
export const workflowIdentifier = z
  .string()
  .min(1)
  .max(200)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/,
    'must contain only letters, digits, "-", "_", "." or ":", starting with a letter or digit',
  );

const workflowFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(1000).nullish(),
  tags: z.array(z.string().min(1).max(100)).max(50),
  steps: stepsInput,
  active: z.boolean(),
  critical: z.boolean(),
  preferenceSettings,
  data: z.record(z.string(), z.unknown()).nullish(),
};

/** The `_id` of a workflow group of the environment. */
const notificationGroupId = z.string().max(100);

/**
 * POST /v1/workflows (`identifier` is Sino's: Novu always derives it from the name). Novu
 * requires `notificationGroupId`; without it Sino puts the workflow in the default group.
 */
export const createWorkflowBody = z.object({
  ...workflowFields,
  notificationGroupId: notificationGroupId.optional(),
  identifier: workflowIdentifier.optional(),
  tags: workflowFields.tags.optional(),
  active: workflowFields.active.optional(),
  critical: workflowFields.critical.optional(),
  preferenceSettings: preferenceSettings.optional(),
});
export type CreateWorkflowBody = z.infer<typeof createWorkflowBody>;

/** PUT /v1/workflows/:workflowId: only the fields given change; `steps` replaces every step. */
export const updateWorkflowBody = z.object({
  name: workflowFields.name.optional(),
  notificationGroupId: notificationGroupId.optional(),
  description: workflowFields.description,
  identifier: workflowIdentifier.optional(),
  tags: workflowFields.tags.optional(),
  steps: workflowFields.steps.optional(),
  critical: workflowFields.critical.optional(),
  preferenceSettings: preferenceSettings.optional(),
  data: workflowFields.data,
});
export type UpdateWorkflowBody = z.infer<typeof updateWorkflowBody>;

export const workflowStatusBody = z.object({ active: z.boolean() });

export const workflowListQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  query: z.string().max(200).optional(),
});

export const workflowIdParams = z.object({ workflowId: z.string().max(200) });

// Answers.

const stepFilterAnswer = z.object({
  isNegated: z.boolean().optional(),
  type: z.string().optional(),
  value: z.enum(['AND', 'OR']),
  children: z.array(z.record(z.string(), z.unknown())),
});

export const stepAnswer = z.object({
  _id: z.string(),
  _templateId: z.string(),
  _parentId: z.string().nullable(),
  uuid: z.string(),
  name: z.string().nullable(),
  active: z.boolean(),
  shouldStopOnFail: z.boolean(),
  filters: z.array(stepFilterAnswer),
  metadata: z.record(z.string(), z.unknown()).optional(),
  template: z.object({
    _id: z.string(),
    type: z.enum(STEP_TYPES),
    name: z.string().optional(),
    content: z.string(),
    subject: z.string().optional(),
    title: z.string().optional(),
    senderName: z.string().optional(),
    preheader: z.string().optional(),
    _feedId: z.string().nullable(),
    /** Email steps: the layout named; null, the environment's default when sent. */
    _layoutId: z.string().nullable().optional(),
    cta: z.record(z.string(), z.unknown()).optional(),
    actor: z.object({ type: z.enum(ACTOR_TYPES), data: z.string().nullable() }).optional(),
  }),
});

export const triggerAnswer = z.object({
  type: z.literal('event'),
  identifier: z.string(),
  variables: z.array(z.object({ name: z.string(), type: z.string().optional() })),
  subscriberVariables: z.array(z.object({ name: z.string() })).optional(),
});

export const workflowAnswer = z.object({
  _id: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _notificationGroupId: z.string().nullable(),
  notificationGroup: groupAnswer.optional(),
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  draft: z.boolean(),
  critical: z.boolean(),
  tags: z.array(z.string()),
  preferenceSettings: z.record(z.string(), z.boolean()),
  steps: z.array(stepAnswer),
  triggers: z.array(triggerAnswer),
  data: z.record(z.string(), z.unknown()).optional(),
  origin: z.enum(['api', 'code']),
  deleted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const workflowListAnswer = z.object({
  data: z.array(workflowAnswer),
  totalCount: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

// Feeds (`/v1/feeds`).

export const createFeedBody = z.object({ name: z.string().trim().min(1).max(100) });
export const feedIdParams = z.object({ feedId: z.string().max(200) });
export const feedAnswer = z.object({
  _id: z.string(),
  name: z.string(),
  identifier: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  createdAt: z.string(),
});
