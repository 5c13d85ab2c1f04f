import { required } from '../credentials.js';
import { DeliveryError, type FailureKind } from '../errors.js';
import { call, ensureOk, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * sms77, now seven.io (https://docs.seven.io/en/rest-api/endpoints/sms): a JSON POST to
 * `/api/sms` with the key in `X-Api-Key`. It answers 200 either with `{ success: "100",
 * messages: [{ id, success, error, error_text }] }` or, for a refused request, with a bare
 * return code (https://docs.seven.io/en/rest-api/return-codes). Webhooks are signed with a
 * signing key the integration does not hold: no parseWebhook.
 */
export const sms77 = defineAdapter({
  providerId: 'sms77',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://gateway.seven.io';
    const headers = () => ({ 'x-api-key': required(credentials, 'apiKey') });
    return {
      async send(message) {
        const from = message.from ?? required(credentials, 'from');
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/sms'),
          headers: headers(),
          json: { to: message.to, text: message.content, from },
        });
        ensureOk(context, answer);
        const body = answer.json<SmsAnswer | number>();
        const bare = bareCode(answer);
        const part = typeof body === 'object' && body ? body.messages?.[0] : undefined;
        if (bare === undefined && part?.success !== false && part?.id) {
          return { id: String(part.id), status: answer.status };
        }
        const code =
          bare ?? String(part?.error ?? (typeof body === 'object' && body?.success) ?? '');
        const words = `seven.io code ${code || 'unknown'}${part?.error_text ? `: ${part.error_text}` : ''}`;
        throw new DeliveryError(kindOf(code), redact(words, credentials), {
          status: answer.status,
        });
      },
      async check() {
        // The balance: a refused key is answered with return code 900 (or 401).
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/api/balance'),
          headers: headers(),
        });
        const code = bareCode(answer);
        if (answer.status === 200 && (code === undefined || !REFUSALS.has(code)))
          return { ok: true, message: 'The API key works' };
        if (answer.status !== 200)
          return { ok: false, message: failureOf(context, answer).message };
        return { ok: false, message: `seven.io refused the API key (code ${code})` };
      },
    };
  },
});

interface SmsAnswer {
  success?: string;
  messages?: {
    id?: string | number | null;
    success?: boolean;
    error?: string | null;
    error_text?: string | null;
  }[];
}

/** A bare integer answer: seven.io's return code for a refused request. */
function bareCode(answer: HttpAnswer): string | undefined {
  const text = answer.text.trim();
  return /^\d+$/.test(text) ? text : undefined;
}

/** Return codes that mean the key itself is refused. */
const REFUSALS = new Set(['900', '901', '902', '903']);

/** What seven.io's return code means for the delivery. */
function kindOf(code: string): FailureKind {
  switch (code) {
    case '202': // Invalid recipient number
      return 'recipient';
    case '11': // SMS carrier temporarily not available
    case '600': // Carrier delivery failed
    case '700': // Unknown error
      return 'retryable';
    default:
      return 'permanent';
  }
}
