import { defineAdapter } from '../define.js';
import { isOk, postToWebhook, webhookFailure, webhookUrlOf } from '../chat-webhook.js';

/**
 * Mattermost's incoming webhooks (https://developers.mattermost.com/integrate/webhooks/incoming/):
 * `{ text, channel? }` POSTed to the subscriber's webhook URL, answered 200 `ok`; refusals are
 * Mattermost's JSON app errors (`{ id, message, status_code }`).
 */
export const mattermost = defineAdapter({
  providerId: 'mattermost',
  channel: 'chat',
  create(context) {
    return {
      async send(message) {
        const url = webhookUrlOf(message.webhookUrl);
        const answer = await postToWebhook(context, url, {
          text: message.content,
          // Overrides the hook's own channel, when the hook is not locked to it.
          ...(message.channel && { channel: message.channel }),
        });
        if (!isOk(answer)) {
          const id = answer.json<{ id?: string }>()?.id;
          throw webhookFailure(context, answer, url, {
            ...(id && RECIPIENT_ERRORS.has(id) && { kind: 'recipient' as const }),
          });
        }
        return { id: answer.headers.get('x-request-id') ?? undefined, status: answer.status };
      },
    };
  },
});

/**
 * Mattermost's error ids for a hook that is gone or disabled on the subscriber's server, or a
 * channel or user (the subscriber's `channel`) it cannot post to: only the subscriber fixes them.
 */
const RECIPIENT_ERRORS = new Set([
  'web.incoming_webhook.invalid.app_error',
  'web.incoming_webhook.disabled.app_error',
  'web.incoming_webhook.channel.app_error',
  'web.incoming_webhook.channel_locked.app_error',
  'web.incoming_webhook.user.app_error',
  'web.incoming_webhook.permissions.app_error',
]);
