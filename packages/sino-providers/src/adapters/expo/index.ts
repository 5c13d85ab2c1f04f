import { optional } from '../credentials.js';
import { DeliveryError, type FailureKind } from '../errors.js';
import { call, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';
import { noTarget, settle, type Outcome } from '../every-target.js';

/**
 * Expo's push service (https://docs.expo.dev/push-notifications/sending-notifications/): the
 * messages, one per device token, POSTed as a JSON array to `/--/api/v2/push/send` with the
 * account's access token as a bearer; Expo answers one ticket per message, in order, each `ok`
 * with an id or `error` with `details.error`.
 */
export const expo = defineAdapter({
  providerId: 'expo',
  channel: 'push',
  create(context) {
    const { credentials } = context;
    return {
      async send(message) {
        if (message.target.length === 0) throw noTarget();
        // The trigger's `overrides.expo` are Expo message fields, set over Sino's as Novu 0.24
        // sets them; its `to` (like `deviceTokens`) already chose the targets.
        const { to: _to, deviceTokens: _tokens, ...fields } = message.overrides ?? {};
        const outcomes = new Map<string, Outcome>();
        const tokens = message.target.filter((token) => {
          if (isExpoPushToken(token)) return true;
          outcomes.set(token, new DeliveryError('recipient', `Not an Expo push token: ${token}`));
          return false;
        });
        for (let start = 0; start < tokens.length; start += MAX_MESSAGES) {
          const chunk = tokens.slice(start, start + MAX_MESSAGES);
          const accessToken = optional(credentials, 'apiKey');
          const answer = await call(context, {
            method: 'POST',
            url: urlOf(context, 'https://exp.host', '/--/api/v2/push/send'),
            headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
            json: chunk.map((to) => ({
              to,
              title: message.title,
              body: message.content,
              data: message.data,
              ...fields,
            })),
          });
          // A request-level refusal (`{ errors: [{ code, message }] }`) is every token's.
          if (answer.status < 200 || answer.status >= 300) throw failureOf(context, answer);
          const tickets = answer.json<{ data?: Ticket[] }>()?.data;
          if (!Array.isArray(tickets) || tickets.length !== chunk.length)
            throw failureOf(context, answer, {
              kind: 'retryable',
              message: 'Expo answered no ticket per message',
            });
          chunk.forEach((token, i) => outcomes.set(token, outcomeOf(tickets[i]!, answer.status)));
        }
        return settle(message.target.map((token) => outcomes.get(token)!));
      },
    };
  },
});

/** Expo takes at most 100 messages per request. */
const MAX_MESSAGES = 100;

interface Ticket {
  status?: 'ok' | 'error';
  id?: string;
  message?: string;
  details?: { error?: string };
}

/**
 * A ticket's outcome (https://docs.expo.dev/push-notifications/sending-notifications/#individual-errors):
 * DeviceNotRegistered is the device's own problem, MessageRateExceeded passes, the rest
 * (MessageTooBig, InvalidCredentials, MismatchSenderId) are the integration's.
 */
function outcomeOf(ticket: Ticket, status: number): Outcome {
  if (ticket.status === 'ok') return { id: ticket.id, status };
  const code = ticket.details?.error;
  const kind: FailureKind =
    code === 'DeviceNotRegistered'
      ? 'recipient'
      : code === 'MessageRateExceeded'
        ? 'retryable'
        : 'permanent';
  const words = [code, ticket.message].filter(Boolean).join(': ') || 'Expo refused the message';
  return new DeliveryError(kind, words, { status });
}

/** The token shapes Expo accepts, as its SDK's `isExpoPushToken` checks them. */
function isExpoPushToken(token: string): boolean {
  return (
    /^Expo(nent)?PushToken\[.+\]$/.test(token) ||
    /^[a-z\d]{8}-[a-z\d]{4}-[a-z\d]{4}-[a-z\d]{4}-[a-z\d]{12}$/i.test(token)
  );
}
