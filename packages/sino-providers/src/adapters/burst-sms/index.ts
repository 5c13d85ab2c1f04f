import { optional, required } from '../credentials.js';
import { basicAuth, call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * BurstSMS's Transmit SMS API v1 (https://developer.transmitsms.com/, `send-sms`): a form posted
 * to `/send-sms.json` with Basic auth `<API key>:<API secret>`, answered with `message_id` and
 * an `error` object whose `code` is `SUCCESS` or a constant such as `RECIPIENTS_ERROR`.
 * Delivery callbacks (`dlr_callback`) are unsigned: no parseWebhook.
 */
export const burstSms = defineAdapter({
  providerId: 'burst-sms',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const headers = () => ({
      authorization: basicAuth(required(credentials, 'apiKey'), required(credentials, 'secretKey')),
    });
    const base = 'https://api.transmitsms.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/send-sms.json'),
          headers: headers(),
          form: {
            message: message.content,
            to: message.to,
            // Without a sender, BurstSMS uses the account's shared number.
            from: message.from ?? optional(credentials, 'from'),
          },
        });
        const code = errorOf(answer)?.code;
        const ok = answer.status >= 200 && answer.status < 300;
        if (!ok || (code && code !== 'SUCCESS')) {
          // No valid recipient left after BurstSMS's number checks (and opt-outs) is the
          // recipient's; an error code on a 2xx is a refusal the status does not tell.
          const kind = code === 'RECIPIENTS_ERROR' ? 'recipient' : ok ? 'permanent' : undefined;
          throw failureOf(context, answer, { kind, message: wordsOf(answer) });
        }
        const id = answer.json<{ message_id?: number | string }>()?.message_id;
        return { id: id === undefined ? undefined : String(id), status: answer.status };
      },
      async check() {
        // The account balance: 200 for working keys, 401 AUTH_FAILED otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/get-balance.json'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key and secret work' };
        return {
          ok: false,
          message: failureOf(context, answer, { message: wordsOf(answer) }).message,
        };
      },
    };
  },
});

/** Transmit SMS's `{ error: { code, description } }`, present on success too. */
const errorOf = (answer: HttpAnswer) =>
  answer.json<{ error?: { code?: string; description?: string } }>()?.error;

function wordsOf(answer: HttpAnswer): string | undefined {
  const error = errorOf(answer);
  if (!error?.code) return undefined;
  return error.description ? `${error.code}: ${error.description}` : error.code;
}
