import { createHmac, timingSafeEqual } from 'node:crypto';
import { required } from '../credentials.js';
import { DeliveryError, WebhookRejected } from '../errors.js';
import { basicAuth, call, ensureOk, failureOf, redact, urlOf, headerOf } from '../http.js';
import { defineAdapter } from '../define.js';
import type { DeliveryEvent, DeliveryState, WebhookRequest } from '../types.js';
import { webhookForm } from '../webhook-form.js';

/**
 * Plivo's Message API (https://www.plivo.com/docs/messaging/api/message/send-a-message): a
 * JSON POST to `/v1/Account/{auth_id}/Message/` with Basic auth (auth ID and auth token),
 * 202 with `message_uuid: [id]`. Status callbacks go to the `url` given with each message
 * (https://www.plivo.com/docs/messaging/api/message/message-status-callbacks), form-encoded,
 * with `X-Plivo-Signature-V2`: the HMAC-SHA256 of that URL (without its query) followed by the
 * nonce, under the auth token (https://www.plivo.com/docs/messaging/concepts/signature-validation).
 * The body is not signed, so Sino gives each message a URL of its own and reads a nonce once
 * (`webhookNonce`).
 */
export const plivo = defineAdapter({
  providerId: 'plivo',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://api.plivo.com';
    const account = () => `/v1/Account/${encodeURIComponent(required(credentials, 'accountSid'))}`;
    const headers = () => ({
      authorization: basicAuth(required(credentials, 'accountSid'), required(credentials, 'token')),
    });
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, `${account()}/Message/`),
          headers: headers(),
          json: {
            src: message.from ?? required(credentials, 'from'),
            dst: message.to,
            text: message.content,
            ...(message.statusCallbackUrl && { url: message.statusCallbackUrl, method: 'POST' }),
          },
        });
        if (answer.status === 400 && /\bdst\b|destination/i.test(errorOf(answer.text)))
          throw failureOf(context, answer, { kind: 'recipient', message: errorOf(answer.text) });
        ensureOk(context, answer);
        const body = answer.json<{ message_uuid?: string[]; invalid_number?: string[] }>();
        const id = body?.message_uuid?.[0];
        // Plivo accepts the request but lists a number it cannot send to as invalid.
        if (!id && body?.invalid_number?.length)
          throw new DeliveryError(
            'recipient',
            redact(
              `Plivo found the destination invalid: ${body.invalid_number.join(', ')}`,
              credentials,
            ),
            { status: answer.status },
          );
        return { id, status: answer.status };
      },
      async check() {
        // The account's details: 200 for working credentials, 401 otherwise.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, `${account()}/`),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The auth ID and auth token work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
      parseWebhook(request) {
        const nonce = nonceOf(request);
        const given = [
          headerOf(request.headers, 'x-plivo-signature-v2'),
          // Signed with the main account's token: holds when the integration has it.
          headerOf(request.headers, 'x-plivo-signature-ma-v2'),
        ].filter((s): s is string => Boolean(s));
        if (!nonce || given.length === 0) throw new WebhookRejected('No X-Plivo-Signature-V2');
        const url = new URL(request.url);
        const expected = createHmac('sha256', required(credentials, 'token'))
          .update(`${url.protocol}//${url.host}${url.pathname}${nonce}`, 'utf8')
          .digest();
        const holds = given.some((signature) => {
          const actual = Buffer.from(signature, 'base64');
          return actual.length === expected.length && timingSafeEqual(actual, expected);
        });
        if (!holds) throw new WebhookRejected('X-Plivo-Signature-V2 does not match');
        const params = webhookForm(request.rawBody);
        const id = params.get('MessageUUID');
        const state = STATES[params.get('Status') ?? ''];
        if (!id || !state) return [];
        const event: DeliveryEvent = { providerMessageId: id, state };
        const code = params.get('ErrorCode');
        if (code && code !== '000') event.reason = `Plivo error ${code}`;
        return [event];
      },
      webhookNonce: nonceOf,
    };
  },
});

/** The signature's nonce (Plivo's are 20 digits): a longer one is not Plivo's. */
function nonceOf(request: WebhookRequest): string | undefined {
  const nonce = headerOf(request.headers, 'x-plivo-signature-v2-nonce');
  return nonce && nonce.length <= 64 ? nonce : undefined;
}

/** Plivo's message statuses worth an event; queued is not. */
const STATES: Record<string, DeliveryState> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'bounced',
  failed: 'failed',
  rejected: 'failed',
};

/** The `error` of Plivo's `{ api_id, error }` answer, or the text as it is. */
function errorOf(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' ? error : text;
  } catch {
    return text;
  }
}
