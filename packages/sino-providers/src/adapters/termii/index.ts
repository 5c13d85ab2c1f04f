import { required } from '../credentials.js';
import { DeliveryError } from '../errors.js';
import { call, ensureOk, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Termii's Messaging API (https://developers.termii.com/messaging-api): a JSON POST to
 * `/api/sms/send` with the API key in the body, answered with `{ message_id, message,
 * balance, user }`. Accounts may be given another host on Termii's dashboard: that is a proxy
 * `baseUrl`. Event webhooks are signed with the account's secret key, which the integration
 * does not hold: no parseWebhook.
 */
export const termii = defineAdapter({
  providerId: 'termii',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://api.ng.termii.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/sms/send'),
          json: {
            api_key: required(credentials, 'apiKey'),
            // Termii takes numbers in international format without the "+".
            to: message.to.replace(/^\+/, ''),
            from: message.from ?? required(credentials, 'from'),
            sms: message.content,
            type: 'plain',
            // The generic route works on every account; "dnd" must be enabled by Termii first.
            channel: 'generic',
          },
        });
        ensureOk(context, answer);
        const id = messageIdOf(answer);
        if (!id) {
          const words = answer.json<{ message?: string }>()?.message ?? answer.text;
          throw new DeliveryError(
            'permanent',
            redact(`Termii: ${words}`.slice(0, 500), credentials),
            {
              status: answer.status,
            },
          );
        }
        return { id, status: answer.status };
      },
      async check() {
        // The balance: Termii takes the key as a query parameter here (never shown in errors).
        const key = encodeURIComponent(required(credentials, 'apiKey'));
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, `/api/get-balance?api_key=${key}`),
        });
        if (answer.status === 200 && answer.json<{ balance?: unknown }>()?.balance !== undefined)
          return { ok: true, message: 'The API key works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

/**
 * The message id, read from the raw text: Termii may send it as a JSON number too large for a
 * double (`message_id_str` carries it as text where present).
 */
function messageIdOf(answer: HttpAnswer): string | undefined {
  const asText = answer.json<{ message_id_str?: unknown }>()?.message_id_str;
  if (typeof asText === 'string' && asText) return asText;
  return /"message_id"\s*:\s*"?([^",}\s]+)/.exec(answer.text)?.[1];
}
