import { DeliveryError, type FailureKind } from '../errors.js';
import { optional, required } from '../credentials.js';
import { call, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';

/**
 * Infobip's SMS API, "Send SMS message"
 * (https://www.infobip.com/docs/api/channels/sms):
 * `POST /sms/2/text/advanced` on the account's own base URL (the `baseUrl` credential) with
 * `Authorization: App <API key>`, answered 200 with a status per destination: a status in the
 * REJECTED group means Infobip refused that message although the HTTP call succeeded.
 * Delivery reports are posted to a notify URL unsigned: no parseWebhook.
 */
export const infobipSms = defineAdapter({
  providerId: 'infobip-sms',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    // context.baseUrl (a proxy, a test peer) wins over the account's base URL credential.
    const personal = optional(credentials, 'baseUrl');
    const account: AdapterContext = {
      ...context,
      baseUrl: context.baseUrl ?? (personal && withScheme(personal)),
    };
    const headers = () => ({ authorization: `App ${required(credentials, 'apiKey')}` });
    // Infobip's shared host, for an integration saved without its personal base URL.
    const base = 'https://api.infobip.com';
    return {
      async send(message) {
        const from = message.from ?? optional(credentials, 'from');
        const answer = await call(account, {
          method: 'POST',
          url: urlOf(account, base, '/sms/2/text/advanced'),
          headers: headers(),
          json: {
            messages: [
              {
                destinations: [{ to: message.to }],
                ...(from && { from }),
                text: message.content,
              },
            ],
          },
        });
        if (answer.status < 200 || answer.status >= 300)
          throw failureOf(account, answer, { message: wordsOf(answer) });
        const sent = answer.json<SendAnswer>()?.messages?.[0];
        const status = sent?.status;
        if (status?.groupId === REJECTED || status?.groupName === 'REJECTED') {
          const words = [status.name, status.description].filter(Boolean).join(': ');
          throw new DeliveryError(kindOfRejection(status.id), redact(words, credentials), {
            status: answer.status,
          });
        }
        return { id: sent?.messageId, status: answer.status };
      },
      async check() {
        // The account balance: 200 for a working key, 401 for a bad one; nothing is sent.
        const answer = await call(account, {
          method: 'GET',
          url: urlOf(account, base, '/account/1/balance'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        return {
          ok: false,
          message: failureOf(account, answer, { message: wordsOf(answer) }).message,
        };
      },
    };
  },
});

interface Status {
  groupId?: number;
  groupName?: string;
  id?: number;
  name?: string;
  description?: string;
}

interface SendAnswer {
  messages?: { messageId?: string; status?: Status }[];
}

/** Infobip's status group of messages refused before sending. */
const REJECTED = 5;

/**
 * Infobip's REJECTED statuses that are the recipient's own: PREFIX_MISSING (8), DND (10),
 * DESTINATION_BLOCKLISTED (14), MISSING_TO (51), REJECTED_DESTINATION (52). FLOODING_FILTER
 * (20, an hourly per-number limit) and SYSTEM_ERROR (21) pass; the rest is the account's.
 */
function kindOfRejection(id: number | undefined): FailureKind {
  if (id === 8 || id === 10 || id === 14 || id === 51 || id === 52) return 'recipient';
  if (id === 20 || id === 21) return 'retryable';
  return 'permanent';
}

/** The words of an Infobip error, old (`requestError.serviceException`) or new (`description`). */
function wordsOf(answer: HttpAnswer): string | undefined {
  const body = answer.json<{
    requestError?: { serviceException?: { messageId?: string; text?: string } };
    errorCode?: string;
    description?: string;
  }>();
  const exception = body?.requestError?.serviceException;
  if (exception?.text) return [exception.messageId, exception.text].filter(Boolean).join(': ');
  if (body?.description) return [body.errorCode, body.description].filter(Boolean).join(': ');
  return undefined;
}

/** The portal shows the base URL as a bare host (`xxxx.api.infobip.com`). */
const withScheme = (url: string) => (/^https?:\/\//i.test(url) ? url : `https://${url}`);
