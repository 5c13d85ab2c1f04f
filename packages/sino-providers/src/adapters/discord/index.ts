import { defineAdapter } from '../define.js';
import { isOk, postToWebhook, webhookFailure, webhookUrlOf } from '../chat-webhook.js';

/**
 * Discord's Execute Webhook (https://discord.com/developers/docs/resources/webhook#execute-webhook):
 * `{ content }` POSTed to the subscriber's webhook URL with `?wait=true`, so Discord answers
 * 200 with the created message (and its id) instead of an empty 204.
 */
export const discord = defineAdapter({
  providerId: 'discord',
  channel: 'chat',
  create(context) {
    return {
      async send(message) {
        const url = webhookUrlOf(message.webhookUrl);
        // Kept alongside the subscriber's own parameters (`thread_id`).
        url.searchParams.set('wait', 'true');
        const answer = await postToWebhook(context, url, { content: message.content });
        if (!isOk(answer)) {
          const code = answer.json<{ code?: number }>()?.code;
          throw webhookFailure(context, answer, url, {
            ...(code !== undefined && RECIPIENT_CODES.has(code) && { kind: 'recipient' as const }),
          });
        }
        return { id: answer.json<{ id?: string }>()?.id, status: answer.status };
      },
    };
  },
});

/**
 * JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes) that
 * mean the hook itself is gone or its token no longer valid: 10003 Unknown Channel, 10015
 * Unknown Webhook, 50027 Invalid Webhook Token. The subscriber must give a new URL.
 */
const RECIPIENT_CODES = new Set([10003, 10015, 50027]);
