import { z } from 'zod';
import { CHANNELS, JOB_STATUSES, STEP_TYPES, isChannel } from '@sino/shared';
import { executionDetails } from '../../db/schema.js';
import { stepAnswer, triggerAnswer } from '../workflows/schemas.js';
import { listOf } from '../messages/schemas.js';
import { instant } from '../analytics/schemas.js';

// Query strings arrive axios-style: `a[]=x&a[]=y` (Fastify keeps the brackets in the key),
// `a=x&a=y`, or a single `a=x`.
const many = z.union([z.string().max(4000), z.array(z.string().max(500)).max(100)]);

const channelList = many
  .superRefine((value, ctx) => {
    if ((listOf(value) ?? []).some((v) => !isChannel(v)))
      ctx.addIssue({
        code: 'custom',
        message: `must be one of the following values: ${CHANNELS.join(', ')}`,
      });
  })
  .optional();

const statusList = many
  .superRefine((value, ctx) => {
    const known: readonly string[] = JOB_STATUSES;
    if ((listOf(value) ?? []).some((v) => !known.includes(v)))
      ctx.addIssue({
        code: 'custom',
        message: `must be one of the following values: ${JOB_STATUSES.join(', ')}`,
      });
  })
  .optional();

/** Query of GET /v1/notifications (Novu's `ActivitiesRequestDto`). */
export const activityQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  channels: channelList,
  'channels[]': channelList,
  /** Workflow `_id`s. */
  templates: many.optional(),
  'templates[]': many.optional(),
  emails: many.optional(),
  'emails[]': many.optional(),
  /** External subscriberIds. */
  subscriberIds: many.optional(),
  'subscriberIds[]': many.optional(),
  transactionId: many.optional(),
  'transactionId[]': many.optional(),
  /** Deprecated in Novu, still sent by its dashboard: email, name or subscriberId. */
  search: z.string().trim().max(200).optional(),
  /** Sino's: notifications with a job in one of these statuses (the console's status filter). */
  statuses: statusList,
  'statuses[]': statusList,
  /** Sino's: created at or after this instant (Novu's later versions name it so too). */
  after: instant.optional(),
  /** Sino's: created before this instant. */
  before: instant.optional(),
});

export type ActivityQuery = z.infer<typeof activityQuery>;

export const notificationParams = z.object({ notificationId: z.string().max(200) });

/** Query of GET /v1/execution-details (what `@novu/node`'s `executionDetails.get` sends). */
export const executionDetailsQuery = z.object({
  notificationId: z.string().trim().min(1).max(200),
  subscriberId: z.string().trim().min(1).max(200),
});

/** One entry of the execution log (Novu's `ExecutionDetailsResponseDto`, plus Sino's `code`). */
export const executionDetailWire = z.object({
  _id: z.string(),
  /** Null for what happened before any step (the trigger received: 1000). */
  _jobId: z.string().nullable(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _notificationId: z.string(),
  _notificationTemplateId: z.string(),
  _subscriberId: z.string().nullable(),
  transactionId: z.string(),
  channel: z.enum([...STEP_TYPES, 'trigger']).nullable(),
  providerId: z.string().optional(),
  status: z.enum(executionDetails.status.enumValues),
  source: z.enum(executionDetails.source.enumValues),
  detail: z.string(),
  /** The wire contract's numeric code (1000, 1007, 3005, ...), when the event has one. */
  code: z.number().int().nullable(),
  isRetry: z.boolean(),
  isTest: z.boolean(),
  /** JSON text, as Novu stores it. */
  raw: z.string().nullable(),
  createdAt: z.string(),
});

export const activityJobWire = z.object({
  _id: z.string(),
  type: z.enum([...STEP_TYPES, 'trigger']),
  status: z.enum(JOB_STATUSES),
  providerId: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
  overrides: z.record(z.string(), z.unknown()),
  digest: z
    .looseObject({
      events: z.array(z.record(z.string(), z.unknown())),
      digestKey: z.string().optional(),
      digestValue: z.string().optional(),
    })
    .optional(),
  /** Absent when a later workflow update removed the step. */
  step: stepAnswer.optional(),
  executionDetails: z.array(executionDetailWire),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A notification of the activity feed (Novu's `ActivityNotificationResponseDto`). */
export const activityNotificationWire = z.object({
  _id: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _subscriberId: z.string(),
  _templateId: z.string(),
  transactionId: z.string(),
  channels: z.array(z.enum([...STEP_TYPES, 'trigger'])),
  payload: z.record(z.string(), z.unknown()),
  tenant: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string(),
  /** Absent once the subscriber was deleted. */
  subscriber: z
    .object({
      _id: z.string(),
      subscriberId: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
    })
    .optional(),
  /** Absent if the workflow is gone. */
  template: z
    .object({ _id: z.string(), name: z.string(), triggers: z.array(triggerAnswer) })
    .optional(),
  jobs: z.array(activityJobWire),
});

export const activityFeedAnswer = z.object({
  data: z.array(activityNotificationWire),
  hasMore: z.boolean(),
  pageSize: z.number().int(),
  page: z.number().int(),
});

export type ExecutionDetailWire = z.infer<typeof executionDetailWire>;
export type ActivityJobWire = z.infer<typeof activityJobWire>;
export type ActivityNotificationWire = z.infer<typeof activityNotificationWire>;
export type ActivityFeedAnswer = z.infer<typeof activityFeedAnswer>;
