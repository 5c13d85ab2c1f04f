import { DeliveryError, type FailureKind } from '../errors.js';
import { optional, required } from '../credentials.js';
import { call, ensureOk, failureOf, redact, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Africa's Talking's SMS API (https://developers.africastalking.com/docs/sms/overview): a
 * form posted to `/version1/messaging` with the key in an `apiKey` header and the application's
 * `username` in the form, answered with one entry per recipient carrying a `statusCode`
 * (100–102 taken, others refused) and a `messageId`. The `sandbox` username lives on its own
 * host. Delivery reports are posted unsigned: no parseWebhook.
 */
export const africasTalking = defineAdapter({
  providerId: 'africas-talking',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = () =>
      required(credentials, 'user') === 'sandbox'
        ? 'https://api.sandbox.africastalking.com'
        : 'https://api.africastalking.com';
    const headers = () => ({ apikey: required(credentials, 'apiKey') });
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base(), '/version1/messaging'),
          headers: headers(),
          form: {
            username: required(credentials, 'user'),
            to: message.to,
            message: message.content,
            from: message.from ?? optional(credentials, 'from'),
          },
        });
        ensureOk(context, answer);
        const data = answer.json<Answer>()?.SMSMessageData;
        const recipient = data?.Recipients?.[0];
        // No recipient entry: the whole request was refused ("InvalidSenderId").
        if (!recipient)
          throw new DeliveryError(
            'permanent',
            redact(data?.Message || 'No recipient was accepted', credentials),
            { status: answer.status },
          );
        const code = Number(recipient.statusCode);
        if (!(code >= 100 && code <= 102))
          throw new DeliveryError(
            kindOf(code),
            redact(`${code} ${recipient.status ?? ''}`.trim(), credentials),
            { status: answer.status },
          );
        return { id: recipient.messageId, status: answer.status };
      },
      async check() {
        // The application's user data (its balance): 200 for a working key; nothing is sent.
        const query = new URLSearchParams({ username: required(credentials, 'user') });
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base(), `/version1/user?${query.toString()}`),
          headers: headers(),
        });
        if (answer.status === 200)
          return { ok: true, message: 'The API key works for the username' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

interface Answer {
  SMSMessageData?: {
    Message?: string;
    Recipients?: { statusCode?: number | string; status?: string; messageId?: string }[];
  };
}

/**
 * Africa's Talking's per-recipient codes: InvalidPhoneNumber (403), UnsupportedNumberType (404),
 * UserInBlacklist (406) and DoNotDisturbRejection (409) are the recipient's;
 * InternalServerError (500), GatewayError (501) and RejectedByGateway (502) may pass; RiskHold
 * (401), InvalidSenderId (402), InsufficientBalance (405), CouldNotRoute (407) are the account's.
 */
function kindOf(code: number): FailureKind {
  if (code === 403 || code === 404 || code === 406 || code === 409) return 'recipient';
  if (code >= 500) return 'retryable';
  return 'permanent';
}
