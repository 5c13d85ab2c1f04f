import { createHmac } from 'node:crypto';
import { required } from '../credentials.js';
import { badCredentials } from '../errors.js';
import { call, ensureOk } from '../http.js';
import { defineAdapter } from '../define.js';
import { toEveryTarget } from '../every-target.js';

/**
 * Push Webhook (https://docs.novu.co/channels-and-providers/push/push-webhook): the push is
 * POSTed as JSON to the integration's own URL, signed in `X-Novu-Signature` (hex HMAC-SHA256
 * of the exact body under the secret key). The body is Novu's: `{ target, title, content,
 * payload }` with the subscriber inside `payload`, one call per device token as Novu's worker
 * makes them, so receivers written for Novu keep working.
 */
export const pushWebhook = defineAdapter({
  providerId: 'push-webhook',
  channel: 'push',
  create(context) {
    const { credentials } = context;
    return {
      async send(message) {
        const url = required(credentials, 'webhookUrl');
        if (!URL.canParse(url)) throw badCredentials('The webhook URL is not a valid URL');
        const secret = required(credentials, 'secretKey');
        return toEveryTarget(message.target, async (target) => {
          const body = JSON.stringify({
            target: [target],
            title: message.title,
            content: message.content,
            // What the trigger gave under `overrides['push-webhook']`, as Novu 0.24 forwards it.
            overrides: message.overrides ?? {},
            payload: { ...message.data, subscriber: message.subscriber },
          });
          const answer = await call(context, {
            method: 'POST',
            url,
            headers: {
              'content-type': 'application/json',
              'x-novu-signature': createHmac('sha256', secret).update(body, 'utf8').digest('hex'),
            },
            body,
          });
          ensureOk(context, answer);
          const id = answer.json<{ id?: unknown }>()?.id;
          return {
            id: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
            status: answer.status,
          };
        });
      },
    };
  },
});
