import { z } from 'zod';
import type { Subscriber } from './repository.js';

export { serverErrors } from '../../http/error-answers.js';

// PostgreSQL refuses NUL in text and jsonb: said plainly instead of failing the write.
const NUL = '\u0000';
const noNul = { message: 'must not contain null characters' };

/** A text field: at most `max` characters, without NUL. */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes(NUL), noNul);

// jsonb also refuses a lone UTF-16 surrogate, which JSON.stringify writes as `\udXXX`.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string (keys included) of a JSON value passes `test`. */
function everyString(value: unknown, test: (s: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.every((v) => everyString(v, test));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([k, v]) => test(k) && everyString(v, test));
  }
  return true;
}

/** A free-form object (`data`) that jsonb can store. */
export const customData = z
  .record(z.string(), z.unknown())
  .refine((v) => everyString(v, (s) => !s.includes(NUL)), noNul)
  .refine((v) => everyString(v, (s) => !LONE_SURROGATE.test(s)), {
    message: 'must contain only valid Unicode text',
  });

/** Separators around 3 to 20 digits, an optional leading `+`: "+55 (31) 99999-0000". */
const PHONE = /^\+?(?:[\s().-]*\d){3,20}[\s().-]*$/;

/** A BCP 47 language tag ("pt", "pt-BR", "zh-Hant-TW"); `_` is accepted for `-` as Novu does. */
function isLocale(value: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/.test(value)) return false;
  try {
    Intl.getCanonicalLocales(value.replace(/_/g, '-'));
    return true;
  } catch {
    return false;
  }
}

const providerId = z.string().trim().min(1).max(100);

const credentials = z.object({
  webhookUrl: text(2000).nullish(),
  channel: text(500).nullish(),
  deviceTokens: z.array(text(4096)).max(100).nullish(),
});

/** Credentials of one chat or push provider (Novu's `SubscriberChannelDto`). */
export const channelInput = z.object({
  providerId,
  integrationIdentifier: text(200).optional(),
  credentials,
});

/** The profile fields of Novu's `CreateSubscriberRequestDto`; null clears a field. */
export const profileFields = {
  firstName: text(200).nullish(),
  lastName: text(200).nullish(),
  email: z.email().max(320).nullish(),
  phone: z.string().max(50).regex(PHONE, 'must be a valid phone number').nullish(),
  avatar: text(2000).nullish(),
  locale: z.string().max(35).refine(isLocale, { message: 'must be locale' }).nullish(),
  data: customData.nullish(),
  channels: z.array(channelInput).max(20).optional(),
};

export const subscriberIdField = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((v) => !v.includes(NUL), noNul);

export const createSubscriberBody = z.object({ subscriberId: subscriberIdField, ...profileFields });
export const updateSubscriberBody = z.object(profileFields);

export const bulkSubscribersBody = z.object({
  subscribers: z.array(createSubscriberBody).min(1).max(500),
});

export const credentialsBody = z.object({
  providerId,
  credentials,
  integrationIdentifier: text(200).optional(),
});

/**
 * Novu's DTO names the flag `isOnline`; `@novu/node@0.24.2`'s `updateOnlineStatus` sends
 * `online`. Both are read so that published client works too.
 */
export const onlineStatusBody = z
  .object({ isOnline: z.boolean().optional(), online: z.boolean().optional() })
  .refine((v) => v.isOnline !== undefined || v.online !== undefined, {
    path: ['isOnline'],
    message: 'must be a boolean value',
  });

export const subscriberParams = z.object({ subscriberId: z.string() });

export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

const channelWire = z.object({
  providerId: z.string(),
  integrationIdentifier: z.string().optional(),
  _integrationId: z.string().optional(),
  credentials: z.object({
    webhookUrl: z.string().optional(),
    channel: z.string().optional(),
    deviceTokens: z.array(z.string()).optional(),
  }),
});

/** Novu's `SubscriberResponseDto`. */
export const subscriberWire = z.object({
  _id: z.string(),
  _organizationId: z.string(),
  _environmentId: z.string(),
  subscriberId: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  avatar: z.string().nullable(),
  locale: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  channels: z.array(channelWire),
  isOnline: z.boolean(),
  lastOnlineAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deleted: z.boolean(),
});

export type SubscriberWire = z.infer<typeof subscriberWire>;

export function toSubscriberWire(s: Subscriber): SubscriberWire {
  return {
    _id: s.id,
    _organizationId: s.organizationId,
    _environmentId: s.environmentId,
    subscriberId: s.subscriberId,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
    phone: s.phone,
    avatar: s.avatar,
    locale: s.locale,
    data: s.data ?? null,
    channels: s.channels,
    isOnline: s.isOnline,
    lastOnlineAt: s.lastOnlineAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    deleted: false,
  };
}
