import { createHmac } from 'node:crypto';
import { required } from '../credentials.js';
import { badCredentials } from '../errors.js';
import { call, ensureOk } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Email Webhook (https://docs.novu.co/channels-and-providers/email/email-webhook): each email
 * is POSTed as JSON to the integration's URL instead of being sent, with `X-Novu-Signature`,
 * the hex HMAC-SHA256 of the raw body under the secret key. The body has the fields of Novu
 * 0.24's provider (its email options as JSON, attachments' `file` as a serialized Buffer), so
 * receivers written for Novu work unchanged. The URL is the credential: `context.baseUrl` is
 * not used. The receiver's answer is only a status: the result's id is Sino's own.
 */
export const emailWebhook = defineAdapter({
  providerId: 'email-webhook',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    return {
      async send(message) {
        const url = required(credentials, 'webhookUrl');
        if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
          throw badCredentials('The webhook URL is not an http(s) URL');
        const body = JSON.stringify({
          to: message.to,
          subject: message.subject,
          html: message.html,
          from: message.from.email,
          ...(message.attachments?.length && {
            // JSON.stringify turns each Buffer into {"type":"Buffer","data":[...]}, as in Novu.
            attachments: message.attachments.map((a) => ({
              file: a.content,
              mime: a.mime,
              name: a.name,
            })),
          }),
          senderName: message.from.name,
          id: message.id,
          replyTo: message.replyTo,
          text: message.text,
          cc: message.cc ?? [],
          bcc: message.bcc ?? [],
          customData: message.customData ?? {},
        });
        const signature = createHmac('sha256', required(credentials, 'secretKey'))
          .update(body, 'utf8')
          .digest('hex');
        const answer = await call(context, {
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', 'x-novu-signature': signature },
          body,
        });
        ensureOk(context, answer);
        return { id: message.id, status: answer.status };
      },
    };
  },
});
