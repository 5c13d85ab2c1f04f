import { required } from '../credentials.js';
import { DeliveryError } from '../errors.js';
import { call, ensureOk, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Sendchamp's Send SMS API (https://sendchamp.readme.io/reference/send-sms-api): a JSON POST to
 * `/api/v1/sms/send` with the public access key as a bearer token, answered with
 * `{ code, status: "success", message, data }`. Sendchamp's webhooks carry no signature: no
 * parseWebhook.
 */
export const sendchamp = defineAdapter({
  providerId: 'sendchamp',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://api.sendchamp.com';
    const headers = () => ({ authorization: `Bearer ${required(credentials, 'apiKey')}` });
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/v1/sms/send'),
          headers: headers(),
          json: {
            // Numbers in international format without the "+".
            to: [message.to.replace(/^\+/, '')],
            message: message.content,
            sender_name: message.from ?? required(credentials, 'from'),
            // As Novu 0.24 does: the route that reaches numbers in every country.
            route: 'international',
          },
        });
        if (answer.status >= 400 && answer.status < 500 && recipientRefused(answer))
          throw failureOf(context, answer, { kind: 'recipient' });
        ensureOk(context, answer);
        const body = answer.json<SendAnswer>();
        if (body?.status !== 'success') {
          const words = `Sendchamp: ${body?.message ?? answer.text}`.slice(0, 500);
          throw new DeliveryError('permanent', redact(words, credentials), {
            status: answer.status,
          });
        }
        const data = body.data ?? {};
        return { id: data.id ?? data.uid ?? data.business_id, status: answer.status };
      },
      async check() {
        // The wallet balance: 200 for a working key, 401 otherwise.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/api/v1/wallet/wallet_balance'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

interface SendAnswer {
  status?: string;
  message?: string;
  data?: { id?: string; uid?: string; business_id?: string };
}

/** A validation answer naming the `to` field (`errors: { to: [...] }`). */
function recipientRefused(answer: HttpAnswer): boolean {
  const errors = answer.json<{ errors?: unknown }>()?.errors;
  return (
    typeof errors === 'object' &&
    errors !== null &&
    Object.keys(errors).some((field) => /^to(\.\d+)?$/.test(field))
  );
}
