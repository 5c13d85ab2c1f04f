import { DeliveryError, type FailureKind } from '../errors.js';
import { required } from '../credentials.js';
import { call, failureOf, redact, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Clickatell's SMS Platform REST API (https://docs.clickatell.com/channels/sms-channels/sms-api-reference/):
 * JSON posted to `/messages` with the integration's API key as the whole `Authorization`
 * header, answered 202 with one entry per recipient, `accepted` or not with an error code.
 * Status callbacks carry no signature: no parseWebhook.
 */
export const clickatell = defineAdapter({
  providerId: 'clickatell',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: required(credentials, 'apiKey') });
    const base = 'https://platform.clickatell.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/messages'),
          headers: headers(),
          json: {
            content: message.content,
            to: [message.to],
            // Only two-way integrations may name a sender; the catalogue has none to give.
            ...(message.from && { from: message.from }),
            // Echoed in status callbacks.
            clientMessageId: message.id,
          },
        });
        if (answer.status < 200 || answer.status >= 300) {
          const error = errorOf(answer.json<Outcome>());
          throw failureOf(context, answer, { kind: kindOf(error.code), message: error.words });
        }
        const sent = answer.json<{ messages?: Sent[] }>()?.messages?.[0];
        if (sent && sent.accepted === false) {
          const error = errorOf(sent);
          throw new DeliveryError(
            kindOf(error.code) ?? 'permanent',
            redact(error.words ?? 'Message not accepted', credentials),
            { status: answer.status },
          );
        }
        return { id: sent?.apiMessageId ?? undefined, status: answer.status };
      },
      async check() {
        // The account balance: 200 for a working key; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/public-client/balance'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        const error = errorOf(answer.json<Outcome>());
        return { ok: false, message: failureOf(context, answer, { message: error.words }).message };
      },
    };
  },
});

/** An error as Clickatell gives it: `errorCode` and `error` words, or `error: { code, description }`. */
interface Outcome {
  errorCode?: number | string | null;
  error?: string | { code?: number | string; description?: string } | null;
  errorDescription?: string | null;
}

interface Sent extends Outcome {
  apiMessageId?: string | null;
  accepted?: boolean;
}

function errorOf(outcome: Outcome | undefined): { code?: number | undefined; words?: string } {
  const error = outcome?.error;
  const nested = typeof error === 'object' && error !== null ? error : undefined;
  const raw = nested ? nested.code : outcome?.errorCode;
  const code = raw === null || raw === undefined || raw === '' ? NaN : Number(raw);
  const words = nested
    ? nested.description
    : [error, outcome?.errorDescription].filter(Boolean).join(': ');
  const known = Number.isFinite(code) ? code : undefined;
  if (!words) return { code: known };
  return { code: known, words: known === undefined ? words : `${known} ${words}` };
}

/**
 * Clickatell's error codes that say more than the status: invalid recipient address (25, and
 * 105 of the older gateway), recipient opted out (26) or not reachable on the channel (27) are
 * the recipient's; internal errors (18, 19 "please retry") and the rate limit (43) pass.
 */
function kindOf(code: number | undefined): FailureKind | undefined {
  if (code === 25 || code === 26 || code === 27 || code === 105) return 'recipient';
  if (code === 18 || code === 19 || code === 43) return 'retryable';
  return undefined;
}
