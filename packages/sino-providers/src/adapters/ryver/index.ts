import { defineAdapter } from '../define.js';
import { isOk, postToWebhook, webhookFailure, webhookUrlOf } from '../chat-webhook.js';

/**
 * Ryver's incoming webhooks (https://api.ryver.com/ryvhooks_simple_incoming.html): a Ryver-format
 * JSON payload POSTed to the subscriber's webhook URL, whose `body` (Markdown) becomes the chat
 * message. Ryver's answer carries no message id.
 */
export const ryver = defineAdapter({
  providerId: 'ryver',
  channel: 'chat',
  create(context) {
    return {
      async send(message) {
        const url = webhookUrlOf(message.webhookUrl);
        const answer = await postToWebhook(context, url, { body: message.content });
        if (!isOk(answer)) throw webhookFailure(context, answer, url);
        return { status: answer.status };
      },
    };
  },
});
