import { z } from 'zod';
import type { Subscriber } from './repository.js';

export { serverErrors } from '../../http/error-answers.js';

// Text the database cannot store (NUL, unpaired surrogates) is refused for every route at the
// edge (`http/validation.ts`), so these schemas need not repeat it.

/** A text field of at most `max` characters. */
export const text = (max: number) => z.string().max(max);

/** A free-form object (`data`), stored as jsonb. */
export const customData = z.record(z.string(), z.unknown());

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

/**
 * A chat webhook URL: Sino posts every chat message there, so it must be an http(s) URL, and
 * carries no user name or password (they would be shown as the URL is). Where it may lead is
 * the egress rule's to say, when delivering (decision 024).
 */
const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2000)
  .refine((url) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url), {
    error: 'must not carry a user name or password',
  });

const credentials = z.object({
  webhookUrl: webhookUrl.nullish(),
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

export const subscriberIdField = z.string().trim().min(1).max(200);

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

export { pageQuery } from '../../http/paging.js';

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
