import { createHash } from 'node:crypto';
import { required } from '../credentials.js';
import { call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import { textOf } from '../values.js';
import { noTarget } from '../every-target.js';

/**
 * OneSignal's Create message API for push
 * (https://documentation.onesignal.com/reference/push-notification): one
 * `POST /notifications?c=push` to all the subscriber's subscription ids (Novu's player ids),
 * authorized by the app's API key as `Key <key>`. OneSignal answers 200 even when nobody was
 * reachable: then the notification id is empty and `errors` says why.
 */
export const oneSignal = defineAdapter({
  providerId: 'one-signal',
  channel: 'push',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `Key ${required(credentials, 'apiKey')}` });
    const base = 'https://api.onesignal.com';
    return {
      async send(message) {
        if (message.target.length === 0) throw noTarget();
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/notifications?c=push'),
          headers: headers(),
          json: {
            app_id: required(credentials, 'applicationId'),
            target_channel: 'push',
            include_subscription_ids: message.target,
            headings: { en: message.title },
            contents: { en: message.content },
            ...(Object.keys(message.data).length > 0 && { data: message.data }),
            // As Novu sends: each notification adds one to the app icon's badge on iOS.
            ios_badgeType: 'Increase',
            ios_badgeCount: 1,
            // OneSignal drops a repeated request with the same key (a UUID) for 30 days: a
            // retry after a lost answer, or after a crash, is not shown twice.
            idempotency_key: idempotencyKeyOf(message.id),
            ...optionsOf(message.overrides ?? {}),
          },
        });
        const json = answer.json<{ id?: string; errors?: unknown }>();
        if (answer.status >= 200 && answer.status < 300 && json?.id)
          return { id: json.id, status: answer.status };
        // A 2xx without an id created nothing: permanent, unless nobody could be reached.
        throw failureOf(context, answer, {
          ...(nobodyReached(answer, json?.errors) && { kind: 'recipient' as const }),
        });
      },
      async check() {
        // Lists one notification of the app: proves the app id and key, sends nothing.
        const appId = encodeURIComponent(required(credentials, 'applicationId'));
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, `/notifications?app_id=${appId}&limit=1`),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The app id and API key work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Any fixed UUID: it only keeps Sino's keys apart from other name-based UUIDs. */
const KEY_NAMESPACE = '0f7a3c5e-2d1b-4e8f-9a6c-5b4d3e2f1a0b';

/**
 * OneSignal takes only a UUID as `idempotency_key`; Sino's message ids are 24-hex (Novu's
 * shape). A UUID id goes as it is, any other becomes the name-based UUID (version 5) of it:
 * the same id gives the same key on every attempt.
 */
function idempotencyKeyOf(id: string): string {
  if (UUID.test(id)) return id.toLowerCase();
  const hash = createHash('sha1')
    .update(Buffer.from(KEY_NAMESPACE.replace(/-/g, ''), 'hex'))
    .update(id, 'utf8')
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether OneSignal says none of the subscription ids can receive it: "All included players
 * are not subscribed", or (with a 2xx and no notification id) a list of invalid ids.
 */
function nobodyReached(answer: HttpAnswer, errors: unknown): boolean {
  if (Array.isArray(errors))
    return errors.some((e) => typeof e === 'string' && /not subscribed/i.test(e));
  if (errors !== null && typeof errors === 'object') {
    const invalid = errors as Record<string, unknown>;
    return (
      answer.status < 300 &&
      ['invalid_player_ids', 'invalid_subscription_ids', 'invalid_aliases'].some(
        (key) => invalid[key] !== undefined,
      )
    );
  }
  return false;
}

/**
 * The trigger's `overrides['one-signal']` as Novu 0.24's OneSignal provider reads them: a sound
 * for iOS and Android, a subtitle, the mutable-content flag, the Android channel, one icon for
 * every platform and the iOS category.
 */
function optionsOf(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const sound = textOf(o.sound);
  const subtitle = textOf(o.subtitle);
  const channelId = textOf(o.channelId);
  const icon = textOf(o.icon);
  const category = textOf(o.categoryId);
  return {
    ...(sound && { ios_sound: sound, android_sound: sound }),
    ...(subtitle && { subtitle: { en: subtitle } }),
    ...(typeof o.mutableContent === 'boolean' && { mutable_content: o.mutableContent }),
    ...(channelId && { android_channel_id: channelId }),
    ...(icon && { small_icon: icon, large_icon: icon, chrome_icon: icon, firefox_icon: icon }),
    ...(category && { ios_category: category }),
  };
}
