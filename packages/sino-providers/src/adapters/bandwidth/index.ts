import { optional, required } from '../credentials.js';
import { basicAuth, call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Bandwidth's Messaging API v2 (https://dev.bandwidth.com/docs/messaging/createMessage/): JSON
 * posted to `/api/v2/users/<account id>/messages` with Basic auth `<API user>:<password>`,
 * answered 202 with the message's `id`. The catalogue has no messaging application id: like
 * Novu 0.24, the account id (`accountSid`) is given as `applicationId` too. Delivery callbacks
 * go to the application's URL, protected (if at all) by a callback password the integration
 * does not hold: no parseWebhook.
 */
export const bandwidth = defineAdapter({
  providerId: 'bandwidth',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const headers = () => ({
      authorization: basicAuth(required(credentials, 'user'), required(credentials, 'password')),
    });
    const messages = () =>
      urlOf(
        context,
        'https://messaging.bandwidth.com',
        `/api/v2/users/${encodeURIComponent(required(credentials, 'accountSid'))}/messages`,
      );
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: messages(),
          headers: headers(),
          json: {
            applicationId: required(credentials, 'accountSid'),
            to: [message.to],
            from: message.from ?? optional(credentials, 'from'),
            text: message.content,
            // Echoed in every delivery callback of the message.
            tag: message.id,
          },
        });
        if (answer.status >= 200 && answer.status < 300)
          return { id: answer.json<{ id?: string }>()?.id, status: answer.status };
        const error = errorOf(answer);
        // A 400 about the `to` field: the number itself is unusable.
        const toRefused =
          answer.status === 400 && !!error?.fieldErrors?.some((f) => f.fieldName === 'to');
        throw failureOf(context, answer, {
          ...(toRefused && { kind: 'recipient' as const }),
          message: wordsOf(error),
        });
      },
      async check() {
        // Listing one message proves user, password and account id; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: `${messages()}?limit=1`,
          headers: headers(),
        });
        if (answer.status === 200)
          return { ok: true, message: 'The API user works for the account' };
        return {
          ok: false,
          message: failureOf(context, answer, { message: wordsOf(errorOf(answer)) }).message,
        };
      },
    };
  },
});

interface BandwidthError {
  type?: string;
  description?: string;
  fieldErrors?: { fieldName?: string; description?: string }[];
}

const errorOf = (answer: HttpAnswer) => answer.json<BandwidthError>();

function wordsOf(error: BandwidthError | undefined): string | undefined {
  if (!error?.description) return undefined;
  const fields = (error.fieldErrors ?? []).map((f) => f.description).filter(Boolean);
  return [error.description, ...fields].join('; ');
}
