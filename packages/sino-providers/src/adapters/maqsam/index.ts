import { optional, required } from '../credentials.js';
import { basicAuth, call, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Maqsam's SMS API (https://docs.maqsam.com/): JSON `{ to, message, sender }` posted to
 * `/v2/sms` with Basic auth `<access key id>:<access secret>`, answered
 * `{ result: "success", message: { identifier, timestamp } }`. Maqsam documents neither
 * delivery webhooks nor a call that checks credentials without side effects: no parseWebhook,
 * no check.
 */
export const maqsam = defineAdapter({
  providerId: 'maqsam',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://api.maqsam.com';
    return {
      async send(message) {
        const sender = message.from ?? optional(credentials, 'from');
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v2/sms'),
          headers: {
            authorization: basicAuth(
              required(credentials, 'apiKey'),
              required(credentials, 'secretKey'),
            ),
          },
          json: { to: message.to, message: message.content, ...(sender && { sender }) },
        });
        const body = answer.json<Answer>();
        const ok = answer.status >= 200 && answer.status < 300;
        // A 2xx whose `result` is not "success" is a refusal all the same.
        if (!ok || (body?.result !== undefined && body.result !== 'success'))
          throw failureOf(context, answer, {
            kind: ok ? 'permanent' : undefined,
            message: wordsOf(body),
          });
        const sent = typeof body?.message === 'object' ? body.message : undefined;
        return { id: sent?.identifier, status: answer.status };
      },
    };
  },
});

interface Answer {
  result?: string;
  /** The sent message, or the words of a failure. */
  message?: { identifier?: string; timestamp?: number } | string;
}

function wordsOf(body: Answer | undefined): string | undefined {
  return typeof body?.message === 'string' ? body.message : undefined;
}
