import { required } from '../credentials.js';
import { call, ensureOk, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Mailtrap's Email Sending API (https://api-docs.mailtrap.io/docs/mailtrap-api-docs/67f1d70aeb62c-send-email):
 * JSON posted to `send.api.mailtrap.io/api/send` with a bearer API token, answered with
 * `{ success: true, message_ids }`, or `{ success: false, errors }` with a 4xx. Mailtrap
 * documents no error code for a recipient's own problem (it suppresses bounced addresses
 * itself), so failures are classified by status. Its webhooks cannot be verified with the
 * integration's credential (the API token): no parseWebhook.
 */
export const mailtrap = defineAdapter({
  providerId: 'mailtrap',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `Bearer ${required(credentials, 'apiKey')}` });
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, 'https://send.api.mailtrap.io', '/api/send'),
          headers: headers(),
          json: {
            from: {
              email: message.from.email,
              ...(message.from.name && { name: message.from.name }),
            },
            to: message.to.map((email) => ({ email })),
            ...(message.cc?.length && { cc: message.cc.map((email) => ({ email })) }),
            ...(message.bcc?.length && { bcc: message.bcc.map((email) => ({ email })) }),
            ...(message.replyTo && { reply_to: { email: message.replyTo } }),
            subject: message.subject,
            text: message.text,
            html: message.html,
            ...(message.attachments?.length && {
              attachments: message.attachments.map((a) => ({
                content: a.content.toString('base64'),
                filename: a.name,
                type: a.mime,
                disposition: 'attachment',
              })),
            }),
            // Echoed in every webhook event of the message.
            custom_variables: { sinoMessageId: message.id },
          },
        });
        ensureOk(context, answer);
        const body = answer.json<{ success?: boolean; message_ids?: string[] }>();
        if (body?.success === false) throw failureOf(context, answer, { kind: 'permanent' });
        return { id: body?.message_ids?.[0], status: answer.status };
      },
      async check() {
        // The accounts the token reaches (the general API host): 200 for a working token,
        // 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, 'https://mailtrap.io', '/api/accounts'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API token works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
