import {
  triggerOverrides,
  type EmailOverride,
  type SmsOverride,
  type TriggerOverrides,
} from '../modules/events/overrides.js';

/**
 * A trigger's `overrides` as deliveries apply them (decision 044): per channel (`email`,
 * `sms`), then under the provider's id, which wins key by key, as Novu 0.24 merges them; push
 * overrides under the provider's id only; the chat webhook URL from `overrides.chat` or, as
 * Novu 0.24 reads it, the trigger's `payload.webhookUrl`.
 */

/**
 * The overrides stored with a job. Stored ones were checked at the edge; a job stored before
 * that check existed may hold anything, and then none applies (`valid: false`).
 */
export function readOverrides(stored: unknown): { overrides: TriggerOverrides; valid: boolean } {
  // Most triggers give none: nothing to read.
  if (stored === null || stored === undefined || isEmptyObject(stored))
    return { overrides: {}, valid: true };
  const parsed = triggerOverrides.safeParse(stored ?? {});
  return parsed.success ? { overrides: parsed.data, valid: true } : { overrides: {}, valid: false };
}

/** A non-empty text, or undefined (Novu reads an empty override as none). */
export const given = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 0;

const objectOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * The integration the trigger chose for an email or SMS step (`overrides.email` or
 * `overrides.sms`, `integrationIdentifier`): that one only, instead of the primary and the
 * failover order.
 */
export function chosenIntegration(
  overrides: TriggerOverrides,
  channel: 'email' | 'sms' | 'chat' | 'push',
): string | undefined {
  if (channel !== 'email' && channel !== 'sms') return undefined;
  return given(overrides[channel]?.integrationIdentifier);
}

/**
 * The layout the trigger names for its email steps, by identifier: `overrides.email`'s, else
 * Novu 0.24's top-level `overrides.layoutIdentifier`.
 */
export function layoutOverride(stored: unknown): string | undefined {
  const { overrides } = readOverrides(stored);
  return given(overrides.email?.layoutIdentifier) ?? given(overrides.layoutIdentifier);
}

/** `overrides.email` with the provider's own overrides over it. */
export const emailOverridesFor = (overrides: TriggerOverrides, providerId: string) =>
  ({ ...objectOf(overrides.email), ...objectOf(overrides[providerId]) }) as EmailOverride;

/** `overrides.sms` with the provider's own overrides over it. */
export const smsOverridesFor = (overrides: TriggerOverrides, providerId: string) =>
  ({ ...objectOf(overrides.sms), ...objectOf(overrides[providerId]) }) as SmsOverride;

/**
 * What a push provider gets of the trigger's overrides: those under its id. Their device
 * tokens (Expo's `to` too) replace the subscriber's, and are not handed on.
 */
export function pushOverridesFor(
  overrides: TriggerOverrides,
  providerId: string,
): { deviceTokens: string[] | undefined; options: Record<string, unknown> | undefined } {
  const mine = objectOf(overrides[providerId]);
  if (Object.keys(mine).length === 0) return { deviceTokens: undefined, options: undefined };
  const { deviceTokens, ...options } = mine;
  const expoTo = providerId === 'expo' ? options['to'] : undefined;
  const tokens = [deviceTokens, expoTo]
    .map((t) => (typeof t === 'string' ? [t] : Array.isArray(t) ? (t as string[]) : []))
    .find((t) => t.length > 0);
  return { deviceTokens: tokens, options };
}

/**
 * The chat webhook URL the trigger gave: `overrides.chat.webhookUrl` (Sino's), else the
 * payload's `webhookUrl` (Novu 0.24's). It replaces the subscriber's for every chat
 * integration the subscriber has registered with, and is reached under the same egress rule.
 */
export const chatWebhookOverride = (
  overrides: TriggerOverrides,
  payload: Record<string, unknown>,
): string | undefined => given(overrides.chat?.webhookUrl) ?? given(payload['webhookUrl']);

/**
 * Addresses with each one once (compared without case), leaving out those in `taken`: SendGrid
 * and others refuse an address named twice in one message.
 */
export function distinctAddresses(list: readonly string[], taken: readonly string[] = []) {
  const seen = new Set(taken.map((a) => a.toLowerCase()));
  return list.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A plain text as the HTML part of an email: escaped, its line breaks kept. */
export function textAsHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<div style="white-space:pre-wrap">${escaped}</div>`;
}
