import { required } from '../credentials.js';
import { DeliveryError, type FailureKind } from '../errors.js';
import { basicAuth, call, ensureOk, failureOf, redact, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Vonage's (formerly Nexmo) SMS API (https://developer.vonage.com/en/api/sms): a form POST to
 * `/sms/json` carrying `api_key` and `api_secret`, answered 200 with one entry per message
 * part, each with its own `status` ("0" is accepted; other codes:
 * https://developer.vonage.com/en/api-errors/sms) and `message-id`. Delivery receipts are
 * signed only with a separate signature secret, which the integration does not hold: no
 * parseWebhook.
 */
export const nexmo = defineAdapter({
  providerId: 'nexmo',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://rest.nexmo.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/sms/json'),
          form: {
            api_key: required(credentials, 'apiKey'),
            api_secret: required(credentials, 'secretKey'),
            // Vonage documents numbers in international format without the leading "+".
            from: withoutPlus(message.from ?? required(credentials, 'from')),
            to: withoutPlus(message.to),
            text: message.content,
            // Text outside the GSM alphabet arrives garbled unless sent as unicode.
            ...(isGsm(message.content) ? {} : { type: 'unicode' }),
            'client-ref': message.id,
          },
        });
        ensureOk(context, answer);
        const parts =
          answer.json<{
            messages?: { status?: string; 'message-id'?: string; 'error-text'?: string }[];
          }>()?.messages ?? [];
        const refused = parts.find((part) => part.status !== '0');
        if (refused || parts.length === 0) {
          const code = refused?.status ?? '';
          const words = `Vonage status ${code || 'unknown'}: ${refused?.['error-text'] ?? answer.text}`;
          throw new DeliveryError(
            kindOf(code, refused?.['error-text']),
            redact(words, credentials),
            {
              status: answer.status,
            },
          );
        }
        return { id: parts[0]!['message-id'], status: answer.status };
      },
      async check() {
        // The account balance: 200 for a working key and secret, 401 otherwise.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/account/get-balance'),
          headers: {
            authorization: basicAuth(
              required(credentials, 'apiKey'),
              required(credentials, 'secretKey'),
            ),
          },
        });
        if (answer.status === 200) return { ok: true, message: 'The API key and secret work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

/** What a per-message Vonage status means for the delivery. */
function kindOf(code: string, words = ''): FailureKind {
  switch (code) {
    case '1': // Throttled
    case '5': // Internal error
    case '10': // Too many existing binds
      return 'retryable';
    case '6': // Invalid message: e.g. an unrecognised number prefix
    case '7': // Number barred
    case '33': // Number de-activated
      return 'recipient';
    case '3': // Invalid parameters: the recipient's when Vonage names the `to` number
      return /\bto\b/i.test(words) ? 'recipient' : 'permanent';
    default:
      return 'permanent';
  }
}

const withoutPlus = (number: string) => number.replace(/^\+/, '');

/** GSM 03.38: its default alphabet and the extension table's characters. */
const GSM =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡' +
  'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà' +
  '\f^{}\\[~]|€';

const isGsm = (text: string) => [...text].every((c) => GSM.includes(c));
