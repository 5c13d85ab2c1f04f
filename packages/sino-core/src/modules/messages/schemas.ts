import { DELIVERY_STATUSES } from '../../db/schema.js';
import { z } from 'zod';
import { ACTOR_TYPES, CHANNELS } from '@sino/shared';

/** Novu's error body, documented on each route for the statuses it can answer. */
export { errorAnswer, errors } from '../../http/error-answers.js';

const buttonType = z.enum(['primary', 'secondary']);

/** The message document (WIDGET-WIRE.md). */
export const messageDocument = z.object({
  _id: z.string(),
  _templateId: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _notificationId: z.string(),
  _subscriberId: z.string(),
  _jobId: z.string(),
  _feedId: z.string().nullable(),
  templateIdentifier: z.string(),
  content: z.string(),
  channel: z.enum(CHANNELS),
  seen: z.boolean(),
  read: z.boolean(),
  lastSeenDate: z.string().optional(),
  lastReadDate: z.string().optional(),
  cta: z.object({
    type: z.literal('redirect'),
    data: z.object({ url: z.string().optional() }),
    action: z
      .looseObject({
        status: z.enum(['pending', 'done']).optional(),
        buttons: z
          .array(
            z.object({
              type: buttonType,
              content: z.string(),
              resultContent: z.string().optional(),
            }),
          )
          .optional(),
        result: z
          .looseObject({
            type: buttonType.optional(),
            payload: z.record(z.string(), z.unknown()).optional(),
          })
          .optional(),
      })
      .optional(),
  }),
  subject: z.string().optional(),
  providerId: z.string().optional(),
  deliveryStatus: z.enum(DELIVERY_STATUSES).optional(),
  errorText: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
  transactionId: z.string(),
  actor: z.object({ type: z.enum(ACTOR_TYPES), data: z.string().nullable() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  subscriber: z
    .object({
      _id: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      avatar: z.string().nullable(),
      subscriberId: z.string(),
    })
    .optional(),
  /** The workflow, as Novu's feed populates it (`_id`, `tags`), with its critical flag. */
  template: z
    .object({ _id: z.string(), tags: z.array(z.string()), critical: z.boolean() })
    .optional(),
  /** Sino: when the subscriber archived it (only in the archive). */
  archivedAt: z.string().optional(),
  /** Sino: when a snoozed message comes back (only while snoozed). */
  snoozedUntil: z.string().optional(),
});

export const feedAnswer = z.object({
  data: z.array(messageDocument),
  totalCount: z.number().int(),
  hasMore: z.boolean(),
  pageSize: z.number().int(),
  page: z.number().int(),
});
export const countAnswer = z.object({ data: z.object({ count: z.number().int() }) });
export const messageAnswer = z.object({ data: messageDocument });
export const messagesAnswer = z.object({ data: z.array(messageDocument) });
export const numberAnswer = z.object({ data: z.number().int() });

// Query strings arrive axios-style: `a[]=x&a[]=y` (Fastify keeps the brackets in the key),
// `a=x&a=y`, or `a=x,y`.
const listInput = z.union([z.string().max(2000), z.array(z.string().max(200)).max(100)]);

/** One list out of the plain and the bracketed key, comma-separated values split. */
export function listOf(...values: (string | string[] | null | undefined)[]): string[] | undefined {
  const items = values
    .flatMap((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]))
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return items.length > 0 ? [...new Set(items)] : undefined;
}

/** `"true"`/`"false"` in a query string. */
const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

const feedIdentifierQuery = {
  feedIdentifier: listInput.optional(),
  'feedIdentifier[]': listInput.optional(),
};

export const feedQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  ...feedIdentifierQuery,
  seen: queryBoolean.optional(),
  read: queryBoolean.optional(),
  payload: z.string().max(8000).optional(),
});

/** Counts' `limit`: 1 to 100; absent or not a number means 100 (Novu's DefaultValuePipe). */
const countLimit = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v) => {
    const n = v === undefined || v === '' ? NaN : Number(v);
    return Number.isNaN(n) ? 100 : n;
  })
  .pipe(z.number().int().min(1).max(100));

export const countQuery = z.object({
  ...feedIdentifierQuery,
  seen: queryBoolean.optional(),
  read: queryBoolean.optional(),
  limit: countLimit,
});

/** `messageId`: one id, several comma-separated, or an array (Novu's `toArray`). */
export const messageIdsInput = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v),
  z.array(z.string().min(1).max(100)).min(1).max(1000),
);

export const markAsBody = z.object({
  messageId: messageIdsInput,
  mark: z.object({ seen: z.boolean().optional(), read: z.boolean().optional() }).optional(),
});

export const markAllBody = z.object({
  markAs: z.enum(['read', 'seen', 'unread', 'unseen']),
  feedIdentifier: listInput.nullish(),
});

export const actionParams = z.object({
  messageId: z.string().max(100),
  type: buttonType,
});

export const actionBody = z.object({
  executedType: buttonType.optional(),
  status: z.enum(['pending', 'done']),
  payload: z.record(z.string(), z.unknown()).nullish(),
});

export const messageIdParams = z.object({ messageId: z.string().max(100) });

/** A page of the archive or of the snoozed messages (Sino's additions). */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const snoozeBody = z.object({
  until: z.iso
    .datetime({
      offset: true,
      message: 'must be an ISO 8601 date-time, e.g. 2026-12-01T09:00:00Z',
    })
    .transform((v) => new Date(v)),
});
