import { required } from '../credentials.js';
import { call, ensureOk, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

interface PlunkSent {
  success?: boolean;
  emails?: { contact?: { id?: string; email?: string }; email?: string }[];
}

/**
 * Plunk's transactional send (https://docs.useplunk.com/api-reference/transactional): JSON
 * posted to `/v1/send` with a bearer secret key, answered with one entry per recipient
 * (`emails[].email` is the email's id). Plunk takes a single body (HTML here, the text part
 * has no field) and has no metadata field for Sino's id. Plunk documents no recipient error
 * code nor a credential check that sends nothing, and signs no webhooks: no check, no
 * parseWebhook.
 */
export const plunk = defineAdapter({
  providerId: 'plunk',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, 'https://api.useplunk.com', '/v1/send'),
          headers: { authorization: `Bearer ${required(credentials, 'apiKey')}` },
          json: {
            to: message.to,
            subject: message.subject,
            body: message.html,
            from: message.from.email,
            ...(message.from.name && { name: message.from.name }),
            ...(message.replyTo && { reply: message.replyTo }),
            ...(message.attachments?.length && {
              attachments: message.attachments.map((a) => ({
                filename: a.name,
                content: a.content.toString('base64'),
                contentType: a.mime,
              })),
            }),
          },
        });
        ensureOk(context, answer);
        const body = answer.json<PlunkSent & { data?: PlunkSent }>();
        // Plunk's newer API wraps the same answer in `data`.
        const sent = body?.emails ? body : body?.data;
        if (body?.success === false) throw failureOf(context, answer, { kind: 'permanent' });
        return { id: sent?.emails?.[0]?.email, status: answer.status };
      },
    };
  },
});
