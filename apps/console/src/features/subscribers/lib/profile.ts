import { z } from '../../../lib/forms';
import { jsonObjectText, jsonText, parseJsonObject } from '../../../lib/json';
import type { Subscriber } from './queries';

// The profile form: the server's rules (subscribers/schemas.ts) checked before sending.

/** Separators around 3 to 20 digits, an optional leading `+`, as the server accepts. */
const PHONE = /^\+?(?:[\s().-]*\d){3,20}[\s().-]*$/;
/** A BCP 47 tag ("pt", "pt-BR"); the server checks it further. */
const LOCALE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

const optional = (max: number, rule?: (v: string) => boolean, message?: string) =>
  z.string().check(
    z.trim(),
    z.maxLength(max, { error: `Use at most ${max} characters` }),
    z.refine((v) => v === '' || !rule || rule(v), { error: message }),
  );

export const profileSchema = z.object({
  subscriberId: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter the subscriber ID your system knows them by' }),
      z.maxLength(200, { error: 'Use at most 200 characters' }),
    ),
  firstName: optional(200),
  lastName: optional(200),
  email: optional(320, (v) => z.email().safeParse(v).success, 'Enter a valid e-mail address'),
  phone: optional(50, (v) => PHONE.test(v), 'Enter a phone number: digits, with an optional +'),
  locale: optional(35, (v) => LOCALE.test(v), 'Enter a language tag, like en or pt-BR'),
  avatar: optional(
    2000,
    (v) => /^https?:\/\/\S+$/.test(v),
    'Enter the picture as an http(s) address',
  ),
  data: jsonObjectText,
});
export type ProfileValues = z.infer<typeof profileSchema>;

export const emptyProfile: ProfileValues = {
  subscriberId: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  locale: '',
  avatar: '',
  data: '',
};

export const profileOf = (s: Subscriber): ProfileValues => ({
  subscriberId: s.subscriberId,
  firstName: s.firstName ?? '',
  lastName: s.lastName ?? '',
  email: s.email ?? '',
  phone: s.phone ?? '',
  locale: s.locale ?? '',
  avatar: s.avatar ?? '',
  data: jsonText(s.data),
});

/** The body of a PUT: an emptied field is cleared (null), as the server reads it. */
export function updateBody(values: ProfileValues) {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  return {
    firstName: text(values.firstName),
    lastName: text(values.lastName),
    email: text(values.email),
    phone: text(values.phone),
    locale: text(values.locale),
    avatar: text(values.avatar),
    data: parseJsonObject(values.data),
  };
}

/** The body of a POST: only what was filled in. */
export function createBody(values: ProfileValues) {
  const body: Record<string, unknown> = { subscriberId: values.subscriberId.trim() };
  for (const [key, value] of Object.entries(updateBody(values))) {
    if (value !== null) body[key] = value;
  }
  return body;
}
