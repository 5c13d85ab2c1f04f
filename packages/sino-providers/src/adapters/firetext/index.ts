import { required } from '../credentials.js';
import { DeliveryError, type FailureKind } from '../errors.js';
import { call, ensureOk, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * FireText's SMS API (https://www.firetext.co.uk/docs): a form POST to `/api/sendsms` with the
 * `apiKey` in the body, answered with a line `<code>:<count> <description>` ("0:1 SMS
 * successfully queued") and the message id in the `X-Message` header. Delivery receipts are
 * unsigned: no parseWebhook.
 */
export const firetext = defineAdapter({
  providerId: 'firetext',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://www.firetext.co.uk';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/sendsms'),
          form: {
            apiKey: required(credentials, 'apiKey'),
            // FireText wants international numbers without the "+".
            to: message.to.replace(/^\+/, ''),
            from: message.from ?? required(credentials, 'from'),
            message: message.content,
          },
        });
        ensureOk(context, answer);
        const { code, description } = statusOf(answer);
        if (code !== '0') {
          const words = redact(
            `FireText ${code ?? 'answer'}: ${description}`.slice(0, 500),
            credentials,
          );
          throw new DeliveryError(kindOf(description), words, { status: answer.status });
        }
        return { id: answer.headers.get('x-message') ?? undefined, status: answer.status };
      },
      async check() {
        // The credit balance answers with the same status line: code 0 for a working key.
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/credit'),
          form: { apiKey: required(credentials, 'apiKey') },
        });
        const { code, description } = statusOf(answer);
        if (answer.status === 200 && code === '0')
          return { ok: true, message: 'The API key works' };
        return {
          ok: false,
          message: redact(`FireText ${code ?? answer.status}: ${description}`, credentials),
        };
      },
    };
  },
});

/** The code and words of FireText's first answer line. */
function statusOf(answer: HttpAnswer): { code: string | undefined; description: string } {
  const line = answer.text.trim().split('\n')[0] ?? '';
  const match = /^(\d+):\S*\s*(.*)$/.exec(line);
  return { code: match?.[1], description: (match?.[2] ?? line) || 'no answer text' };
}

/**
 * FireText's codes are not published in a form we could verify: its words tell a refused
 * recipient number ("Invalid 'to' parameter") from the integration's problems (credit, key).
 */
function kindOf(description: string): FailureKind {
  if (/credit/i.test(description)) return 'permanent';
  if (/'to'|\bto parameter|(mobile|phone|destination|recipient) number/i.test(description))
    return 'recipient';
  return 'permanent';
}
