import { defineAdapter } from '../define.js';
import { isOk, postToWebhook, webhookFailure, webhookUrlOf } from '../chat-webhook.js';

/**
 * Slack's incoming webhooks (https://api.slack.com/messaging/webhooks): a JSON `{ text }` POSTed
 * to the subscriber's webhook URL, answered 200 `ok`; refusals are a short code in plain text
 * (https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks).
 * The integration's credentials (the Slack app's OAuth client) serve the "connect to Slack"
 * flow that yields those URLs, not sending, so there is nothing to check.
 */
export const slack = defineAdapter({
  providerId: 'slack',
  channel: 'chat',
  create(context) {
    return {
      async send(message) {
        const url = webhookUrlOf(message.webhookUrl);
        const answer = await postToWebhook(context, url, { text: message.content });
        if (!isOk(answer)) {
          const code = answer.text.trim();
          throw webhookFailure(context, answer, url, {
            ...(RECIPIENT_CODES.has(code) && { kind: 'recipient' as const }),
          });
        }
        return { id: answer.headers.get('x-slack-req-id') ?? undefined, status: answer.status };
      },
    };
  },
});

/**
 * Codes that say the hook's destination is gone or closed to it (removed hook or app, deleted
 * or archived channel, a workspace restriction): the subscriber must reconnect Slack, and no
 * other integration can post there. `invalid_payload` and `rollup_error` stay status-based.
 */
const RECIPIENT_CODES = new Set([
  'no_service',
  'no_team',
  'team_disabled',
  'invalid_token',
  'channel_not_found',
  'channel_is_archived',
  'user_not_found',
  'action_prohibited',
  'posting_to_general_channel_denied',
]);
