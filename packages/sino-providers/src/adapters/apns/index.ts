import { createHash, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose/jwt/sign';
import { importPKCS8 } from 'jose/key/import';
import { flag, required } from '../credentials.js';
import { badCredentials, type DeliveryError } from '../errors.js';
import { failureOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext, PushMessage, SendResult } from '../types.js';
import { deepMerge, isRecord, numberOf, textOf } from '../values.js';
import { toEveryTarget } from '../every-target.js';
import { Http2Origin } from './http2.js';

/**
 * Apple Push Notification service, token-based
 * (https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns):
 * HTTP/2 `POST /3/device/<token>` per device, authorized by an ES256 JWT signed with the .p8
 * key (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns),
 * one kept HTTP/2 connection reused for every send. Answer 200 with `apns-id`; refusals are
 * `{ reason }` (https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns).
 */
export const apns = defineAdapter({
  providerId: 'apns',
  channel: 'push',
  create(context) {
    const { credentials } = context;
    const origin = new Http2Origin(
      context.baseUrl ?? (flag(credentials, 'secure') ? PRODUCTION : SANDBOX),
      context.tlsCa,
      context.egress,
    );
    return {
      async send(message) {
        const signer = {
          teamId: required(credentials, 'projectName'),
          keyId: required(credentials, 'apiKey'),
          pem: required(credentials, 'secretKey'),
        };
        const topic = required(credentials, 'applicationId');
        const o = message.overrides ?? {};
        const body = JSON.stringify(apnsPayloadOf(message));
        const given = textOf(o.id);
        const apnsId =
          given && UUID.test(given)
            ? given.toLowerCase()
            : UUID.test(message.id)
              ? message.id.toLowerCase()
              : randomUUID();
        const expiry = numberOf(o.expiry);
        const priority = numberOf(o.priority);
        const sendTo = async (token: string, stale?: string): Promise<SendResult> => {
          const bearer = await providerToken(signer, stale);
          const answer = await origin.post(
            `/3/device/${encodeURIComponent(token)}`,
            {
              authorization: `bearer ${bearer}`,
              'apns-topic': textOf(o.topic) ?? topic,
              'apns-push-type': textOf(o.pushType) ?? 'alert',
              'apns-id': apnsId,
              ...(expiry !== undefined && { 'apns-expiration': String(Math.trunc(expiry)) }),
              ...(priority !== undefined && { 'apns-priority': String(Math.trunc(priority)) }),
              ...(textOf(o.collapseId) && { 'apns-collapse-id': textOf(o.collapseId) }),
              'content-type': 'application/json',
            },
            body,
            context.timeoutMs,
          );
          if (answer.status === 200)
            return { id: answer.headers.get('apns-id') ?? apnsId, status: answer.status };
          const reason = answer.json<{ reason?: string }>()?.reason;
          // Apple wants a token renewed within the hour: a stale one is renewed and tried again.
          if (reason === 'ExpiredProviderToken' && !stale) return sendTo(token, bearer);
          if (reason === 'InvalidProviderToken') forgetProviderToken(signer);
          throw apnsFailure(context, answer, reason);
        };
        return toEveryTarget(message.target, (token) => sendTo(token));
      },
      close: () => origin.close(),
    };
  },
});

/**
 * The notification's JSON as Novu 0.24's APNs provider builds it from the trigger's
 * `overrides.apns` (node-apn's notification options): custom keys beside `aps` at the root
 * (the override's `payload`, else the message's data), an alert of title and body that the
 * override's `alert`, `title`, `subtitle` and `body` replace, its `aps` merged in, then its
 * badge, sound and flags. `rawPayload` is sent as it is, and `mdm` alone (an MDM wake-up).
 */
function apnsPayloadOf(message: PushMessage): Record<string, unknown> {
  const o = message.overrides ?? {};
  if (isRecord(o.rawPayload)) return o.rawPayload;
  if (typeof o.mdm === 'string') return { mdm: o.mdm };
  const aps = deepMerge(
    { alert: { title: message.title, body: message.content } },
    isRecord(o.aps) ? o.aps : {},
  );
  if (typeof o.alert === 'string' || isRecord(o.alert)) aps.alert = o.alert;
  const alertFields = Object.entries(ALERT_FIELDS).filter(([key]) => o[key] != null);
  if (alertFields.length > 0) {
    const alert: Record<string, unknown> = isRecord(aps.alert)
      ? { ...aps.alert }
      : typeof aps.alert === 'string'
        ? { body: aps.alert }
        : {};
    for (const [key, field] of alertFields) alert[field] = o[key];
    aps.alert = alert;
  }
  for (const [key, field] of Object.entries(APS_FIELDS)) {
    const value = o[key];
    if (value === undefined || value === null) continue;
    // Flags are 1 when set, and absent otherwise.
    if (typeof value === 'boolean') {
      if (value) aps[field] = 1;
      else delete aps[field];
    } else aps[field] = value;
  }
  return { ...(isRecord(o.payload) ? o.payload : message.data), aps };
}

/** node-apn's alert options and their keys in `aps.alert`. */
const ALERT_FIELDS: Record<string, string> = {
  title: 'title',
  subtitle: 'subtitle',
  body: 'body',
  titleLocKey: 'title-loc-key',
  titleLocArgs: 'title-loc-args',
  locKey: 'loc-key',
  locArgs: 'loc-args',
  actionLocKey: 'action-loc-key',
  launchImage: 'launch-image',
};

/** node-apn's options of `aps` itself and their keys there. */
const APS_FIELDS: Record<string, string> = {
  badge: 'badge',
  sound: 'sound',
  contentAvailable: 'content-available',
  mutableContent: 'mutable-content',
  urlArgs: 'url-args',
  category: 'category',
  threadId: 'thread-id',
};

const PRODUCTION = 'https://api.push.apple.com';
const SANDBOX = 'https://api.sandbox.push.apple.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reasons that are the device's own: its token is malformed, or the app is no longer installed
 * (410 Unregistered). Everything else goes by status: 403 bad provider token is permanent,
 * 429 and 5xx are retryable.
 */
const RECIPIENT_REASONS = new Set(['BadDeviceToken', 'Unregistered', 'ExpiredToken']);

function apnsFailure(
  context: AdapterContext,
  answer: HttpAnswer,
  reason: string | undefined,
): DeliveryError {
  const recipient =
    answer.status === 410 || (reason !== undefined && RECIPIENT_REASONS.has(reason));
  return failureOf(context, answer, {
    ...(recipient && { kind: 'recipient' as const }),
    ...(reason && { message: reason }),
  });
}

interface Signer {
  teamId: string;
  keyId: string;
  pem: string;
}

/**
 * Provider tokens by key, shared by every adapter of the process. Apple refuses a token older
 * than an hour and one renewed more often than every 20 minutes (TooManyProviderTokenUpdates):
 * each is reused for 50 minutes.
 */
const providerTokens = new Map<string, Promise<{ value: string; issuedAt: number }>>();
const TOKEN_LIFETIME_MS = 50 * 60_000;

const keyOf = (s: Signer) =>
  [s.teamId, s.keyId, createHash('sha256').update(s.pem).digest('hex')].join('\n');

function forgetProviderToken(signer: Signer) {
  providerTokens.delete(keyOf(signer));
}

/** The signer's current token; a new one when the current is older than 50 minutes or `stale`. */
async function providerToken(signer: Signer, stale?: string): Promise<string> {
  const key = keyOf(signer);
  const cached = providerTokens.get(key);
  if (cached) {
    const token = await cached.catch(() => undefined);
    // Devices refused in parallel renew the token once, not once each.
    if (token && token.value !== stale && Date.now() - token.issuedAt < TOKEN_LIFETIME_MS)
      return token.value;
  }
  const pending = sign(signer);
  providerTokens.set(key, pending);
  pending.catch(() => providerTokens.get(key) === pending && providerTokens.delete(key));
  return (await pending).value;
}

async function sign(signer: Signer) {
  const key = await importPKCS8(signer.pem, 'ES256').catch(() => {
    throw badCredentials('The private key is not a .p8 (PKCS#8 P-256) key in PEM');
  });
  const issuedAt = Date.now();
  const value = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: signer.keyId })
    .setIssuer(signer.teamId)
    .setIssuedAt(Math.floor(issuedAt / 1000))
    .sign(key);
  return { value, issuedAt };
}
