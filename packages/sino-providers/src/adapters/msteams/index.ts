import { defineAdapter } from '../define.js';
import { isOk, postToWebhook, webhookFailure, webhookUrlOf } from '../chat-webhook.js';

/**
 * Microsoft Teams incoming webhooks
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook):
 * content that is a JSON card (a MessageCard, or a message with Adaptive Card attachments) is
 * posted as it is, any other content as `{ text }`, as Novu does. Connectors answer 200 even
 * when Teams refused the message, with the refusal in the text; success is the text `1`.
 */
export const msteams = defineAdapter({
  providerId: 'msteams',
  channel: 'chat',
  create(context) {
    return {
      async send(message) {
        const url = webhookUrlOf(message.webhookUrl);
        const answer = await postToWebhook(context, url, payloadOf(message.content));
        if (!isOk(answer)) throw webhookFailure(context, answer, url);
        // "Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP
        // error 429 with ContextId ...": judged by the status Teams gave the connector.
        const buried = /returned HTTP error (\d{3})/.exec(answer.text);
        if (buried) throw webhookFailure(context, { ...answer, status: Number(buried[1]) }, url);
        return {
          // Connectors name the request in `request-id`; Workflows (Power Automate) its run.
          id:
            answer.headers.get('request-id') ??
            answer.headers.get('x-ms-workflow-run-id') ??
            undefined,
          status: answer.status,
        };
      },
    };
  },
});

/** A card given as JSON content, or the content as text. */
function payloadOf(content: string): unknown {
  try {
    const parsed: unknown = JSON.parse(content);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // Plain text.
  }
  return { text: content };
}
