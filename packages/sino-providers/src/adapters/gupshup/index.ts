import { required } from '../credentials.js';
import { DeliveryError } from '../errors.js';
import { call, ensureOk, redact, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';
import { textOf } from '../values.js';

/**
 * Gupshup's Enterprise SMS API (https://docs.gupshup.io/docs/getting-started-with-sms-api): a
 * form POST of `method=SendMessage` to `/GatewayAPI/rest` with the user id and password in the
 * body (plain auth scheme), answered 200 with a text line, `success | <number> | <id>` or
 * `error | <code> | <words>`. Delivery reports are unsigned: no parseWebhook. Gupshup offers
 * no call that checks credentials without sending: no check.
 */
export const gupshup = defineAdapter({
  providerId: 'gupshup',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const base = 'https://enterprise.smsgupshup.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/GatewayAPI/rest'),
          form: {
            method: 'SendMessage',
            // Numbers with the country code and no "+".
            send_to: message.to.replace(/^\+/, ''),
            msg: message.content,
            // Anything beyond ASCII must be sent as Unicode text.
            msg_type: /^[\x20-\x7e\r\n\t]*$/.test(message.content) ? 'TEXT' : 'Unicode_Text',
            userid: required(credentials, 'user'),
            password: required(credentials, 'password'),
            auth_scheme: 'plain',
            v: '1.1',
            format: 'text',
            // India's DLT registration of the sender and template, as Novu 0.24 takes them
            // from the trigger's customData.
            principalEntityId: textOf(message.customData?.principalEntityId),
            dltTemplateId: textOf(message.customData?.dltTemplateId),
          },
        });
        ensureOk(context, answer);
        const line = answer.text.trim().split('\n')[0] ?? '';
        const [outcome, ...rest] = line.split('|').map((part) => part.trim());
        if (outcome?.toLowerCase() === 'success' && rest[1])
          return { id: rest[1], status: answer.status };
        const words = rest.join(' | ') || line || 'no answer text';
        // Gupshup's words for a recipient it refuses ("... is not a valid phone number").
        const kind = /phone number|send_to|destination|\bDND\b/i.test(words)
          ? 'recipient'
          : 'permanent';
        throw new DeliveryError(kind, redact(`Gupshup: ${words}`.slice(0, 500), credentials), {
          status: answer.status,
        });
      },
    };
  },
});
