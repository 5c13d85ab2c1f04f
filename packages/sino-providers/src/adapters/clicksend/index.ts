import { DeliveryError } from '../errors.js';
import { optional, required } from '../credentials.js';
import { basicAuth, call, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * ClickSend's REST API v3, "Send an SMS" (https://developers.clicksend.com/docs/):
 * JSON `{ messages: [...] }` posted to `/v3/sms/send` with Basic auth `<username>:<API key>`,
 * answered 200 with a `status` per message (`SUCCESS`, `INVALID_RECIPIENT`, ...) and its
 * `message_id`. Delivery receipts are posted unsigned: no parseWebhook.
 */
export const clicksend = defineAdapter({
  providerId: 'clicksend',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const headers = () => ({
      authorization: basicAuth(required(credentials, 'user'), required(credentials, 'apiKey')),
    });
    const base = 'https://rest.clicksend.com';
    return {
      async send(message) {
        const from = message.from ?? optional(credentials, 'from');
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v3/sms/send'),
          headers: headers(),
          json: {
            messages: [
              {
                source: 'sino',
                ...(from && { from }),
                body: message.content,
                to: message.to,
                // Echoed in delivery receipts and replies.
                custom_string: message.id,
              },
            ],
          },
        });
        if (answer.status < 200 || answer.status >= 300)
          throw failureOf(context, answer, { message: wordsOf(answer) });
        const sent = answer.json<Answer>()?.data?.messages?.[0];
        if (sent?.status && sent.status !== 'SUCCESS')
          throw new DeliveryError(
            sent.status === 'INVALID_RECIPIENT' ? 'recipient' : 'permanent',
            redact(sent.status, credentials),
            { status: answer.status },
          );
        return { id: sent?.message_id, status: answer.status };
      },
      async check() {
        // The account: 200 for working credentials, 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/v3/account'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The username and API key work' };
        return {
          ok: false,
          message: failureOf(context, answer, { message: wordsOf(answer) }).message,
        };
      },
    };
  },
});

interface Answer {
  data?: { messages?: { message_id?: string; status?: string }[] };
}

/** ClickSend's `{ response_code, response_msg }` envelope of an error. */
function wordsOf(answer: HttpAnswer): string | undefined {
  const body = answer.json<{ response_code?: string; response_msg?: string }>();
  if (!body?.response_msg) return undefined;
  return body.response_code ? `${body.response_code}: ${body.response_msg}` : body.response_msg;
}
