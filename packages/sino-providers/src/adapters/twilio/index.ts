import { createHmac, timingSafeEqual } from 'node:crypto';
import { required } from '../credentials.js';
import { WebhookRejected } from '../errors.js';
import { basicAuth, call, ensureOk, failureOf, urlOf, headerOf } from '../http.js';
import { defineAdapter } from '../define.js';
import type { DeliveryEvent, DeliveryState } from '../types.js';
import { webhookForm } from '../webhook-form.js';

/**
 * Twilio's Programmable Messaging API
 * (https://www.twilio.com/docs/messaging/api/message-resource): a form POST to the account's
 * Messages resource with Basic auth (account SID and auth token), 201 with the message `sid`.
 * Status callbacks are signed with `X-Twilio-Signature`
 * (https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 */
export const twilio = defineAdapter({
  providerId: 'twilio',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://api.twilio.com';
    const sid = () => required(credentials, 'accountSid');
    const headers = () => ({ authorization: basicAuth(sid(), required(credentials, 'token')) });
    return {
      async send(message) {
        const from = message.from ?? required(credentials, 'from');
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(
            context,
            base,
            `/2010-04-01/Accounts/${encodeURIComponent(sid())}/Messages.json`,
          ),
          headers: headers(),
          form: {
            To: message.to,
            // A Messaging Service SID ("MG…") stands in for a sender number.
            ...(/^MG[0-9a-f]{32}$/i.test(from) ? { MessagingServiceSid: from } : { From: from }),
            Body: message.content,
          },
        });
        if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
          const body = answer.json<{ code?: number; message?: string }>();
          if (body?.code !== undefined && RECIPIENT_CODES.has(body.code))
            throw failureOf(context, answer, {
              kind: 'recipient',
              message: `${body.code} ${body.message ?? ''}`.trim(),
            });
        }
        ensureOk(context, answer);
        return { id: answer.json<{ sid?: string }>()?.sid, status: answer.status };
      },
      async check() {
        // The account itself: 200 for working credentials, 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, `/2010-04-01/Accounts/${encodeURIComponent(sid())}.json`),
          headers: headers(),
        });
        if (answer.status !== 200)
          return { ok: false, message: failureOf(context, answer).message };
        const status = answer.json<{ status?: string }>()?.status;
        if (status && status !== 'active')
          return { ok: false, message: `The Twilio account is ${status}` };
        return { ok: true, message: 'The account SID and auth token work' };
      },
      parseWebhook(request) {
        const given = headerOf(request.headers, 'x-twilio-signature');
        if (!given) throw new WebhookRejected('No X-Twilio-Signature header');
        // The signature covers the parameters, so they are parsed first: a bounded number.
        const params = webhookForm(request.rawBody);
        // The full URL, then every POST parameter sorted by name, name and value concatenated.
        const signed = [...params]
          .sort(([a, av], [b, bv]) => (a === b ? compare(av, bv) : compare(a, b)))
          .reduce((text, [key, value]) => text + key + value, request.url);
        const expected = createHmac('sha1', required(credentials, 'token'))
          .update(signed, 'utf8')
          .digest();
        const actual = Buffer.from(given, 'base64');
        if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
          throw new WebhookRejected('X-Twilio-Signature does not match');
        const id = params.get('MessageSid') ?? params.get('SmsSid');
        const state = STATES[params.get('MessageStatus') ?? params.get('SmsStatus') ?? ''];
        if (!id || !state) return [];
        const code = params.get('ErrorCode');
        const event: DeliveryEvent = { providerMessageId: id, state };
        if (code) event.reason = `Twilio error ${code}`;
        return [event];
      },
    };
  },
});

/** Codes Twilio gives for a recipient's own problem (https://www.twilio.com/docs/api/errors). */
const RECIPIENT_CODES = new Set([
  21211, // Invalid 'To' phone number
  21214, // 'To' phone number cannot be reached
  21217, // Phone number does not appear to be valid
  21401, // Invalid phone number
  21407, // This phone number type does not support SMS
  21610, // Attempt to send to an unsubscribed recipient
  21612, // The 'To' phone number is not currently reachable via SMS
  21614, // 'To' number is not a valid mobile number
]);

/** Twilio's message statuses worth an event; queued, accepted, sending and the like are not. */
const STATES: Record<string, DeliveryState> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'bounced',
  failed: 'failed',
};

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
