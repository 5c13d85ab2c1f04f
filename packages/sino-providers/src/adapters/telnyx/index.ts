import { required } from '../credentials.js';
import { call, ensureOk, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Telnyx's Messaging API v2 (https://developers.telnyx.com/api/messaging/send-message): a JSON
 * POST to `/v2/messages` with a bearer API key and the messaging profile, answered with
 * `{ data: { id, ... } }`. Telnyx signs its webhooks with Ed25519 under Telnyx's public key,
 * which the integration does not hold: no parseWebhook.
 */
export const telnyx = defineAdapter({
  providerId: 'telnyx',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://api.telnyx.com';
    const headers = () => ({ authorization: `Bearer ${required(credentials, 'apiKey')}` });
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v2/messages'),
          headers: headers(),
          json: {
            from: message.from ?? required(credentials, 'from'),
            to: message.to,
            text: message.content,
            messaging_profile_id: required(credentials, 'messageProfileId'),
          },
        });
        if (answer.status >= 400 && answer.status < 500 && recipientRefused(answer))
          throw failureOf(context, answer, { kind: 'recipient' });
        ensureOk(context, answer);
        return { id: answer.json<{ data?: { id?: string } }>()?.data?.id, status: answer.status };
      },
      async check() {
        // Reading the messaging profile proves the key and the profile id together.
        const id = encodeURIComponent(required(credentials, 'messageProfileId'));
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, `/v2/messaging_profiles/${id}`),
          headers: headers(),
        });
        if (answer.status === 200)
          return { ok: true, message: 'The API key and messaging profile work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

/**
 * Telnyx error codes that are the recipient's own problem
 * (https://developers.telnyx.com/docs/messaging/messages/error-codes).
 */
const RECIPIENT_CODES = new Set([
  '40001', // Not routable: a landline or non-routable number
  '40012', // Invalid destination number
  '40300', // Blocked due to STOP message: the recipient opted out
  '40310', // Invalid 'to' address
  '40311', // Invalid 'to' address: not SMS-capable
]);

/** A refusal naming the recipient: a recipient code, or an invalid number pointing at `/to`. */
function recipientRefused(answer: HttpAnswer): boolean {
  const errors =
    answer.json<{ errors?: { code?: string | number; source?: { pointer?: string } }[] }>()
      ?.errors ?? [];
  return errors.some((error) => {
    const code = String(error.code ?? '');
    if (RECIPIENT_CODES.has(code)) return true;
    // 10001 inactive, 10002 invalid, 10016 not +E.164: the recipient's when about `to`.
    return ['10001', '10002', '10016'].includes(code) && error.source?.pointer === '/to';
  });
}
