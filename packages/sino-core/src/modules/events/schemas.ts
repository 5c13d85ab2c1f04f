import { z } from 'zod';
import { TRIGGER_ERROR_CODES, TRIGGER_STATUSES } from '@sino/shared';
import { triggerOverrides } from './overrides.js';

/** A subscriber named inline in `to` or `actor`: upserted with the given fields. */
export const subscriberRecipient = z.object({
  // Optional here so a missing id answers Novu's `subscriber_id_missing` status, not a 400.
  subscriberId: z.string().trim().max(200).optional(),
  email: z.string().max(320).nullish(),
  firstName: z.string().max(200).nullish(),
  lastName: z.string().max(200).nullish(),
  phone: z.string().max(50).nullish(),
  avatar: z.string().max(2000).nullish(),
  locale: z.string().max(20).nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
});

export const topicRecipient = z.object({
  type: z.literal('Topic'),
  topicKey: z.string().min(1).max(200),
});

const recipient = z.union([z.string().trim().min(1).max(200), topicRecipient, subscriberRecipient]);

export type Recipient = z.infer<typeof recipient>;

const tenant = z.union([
  z.string().min(1).max(200),
  z.object({
    identifier: z.string().min(1).max(200),
    name: z.string().max(200).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
]);

/** Body of POST /v1/events/trigger (Novu's TriggerEventRequestDto). */
export const triggerBody = z.object({
  name: z.string().trim().min(1).max(200),
  to: z.union([recipient, z.array(recipient).min(1).max(1000)]),
  payload: z.record(z.string(), z.unknown()).default({}),
  overrides: triggerOverrides.default({}),
  transactionId: z.string().trim().min(1).max(200).optional(),
  actor: z.union([z.string().trim().min(1).max(200), subscriberRecipient]).optional(),
  tenant: tenant.optional(),
});

export type TriggerRequest = z.infer<typeof triggerBody>;

export const bulkTriggerBody = z.object({
  events: z.array(triggerBody).min(1).max(100),
});

/** Body of POST /v1/events/trigger/broadcast: every subscriber of the environment. */
export const broadcastBody = triggerBody.omit({ to: true });
export type BroadcastRequest = z.infer<typeof broadcastBody>;

export const triggerResult = z.object({
  acknowledged: z.boolean(),
  status: z.enum(TRIGGER_STATUSES),
  transactionId: z.string().optional(),
  error: z.array(z.string()).optional(),
  /** With `status: 'error'`: why, in words a program reads (Sino's addition to Novu's shape). */
  code: z.enum(TRIGGER_ERROR_CODES).optional(),
});

export type TriggerResult = z.infer<typeof triggerResult>;
