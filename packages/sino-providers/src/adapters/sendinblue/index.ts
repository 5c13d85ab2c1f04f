import { required } from '../credentials.js';
import { call, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';
import { isRecord, numberOf } from '../values.js';

/**
 * Brevo's (formerly Sendinblue) transactional email API
 * (https://developers.brevo.com/reference/sendtransacemail): JSON posted to `/v3/smtp/email`
 * with the key in `api-key`, answered 201 with `{ messageId }`; refusals carry `{ code,
 * message }` (https://developers.brevo.com/docs/how-it-works#error-codes). Sino's message id
 * goes as `X-Mailin-custom` (echoed in webhooks) and as the idempotency key. Brevo's webhooks
 * are not signed with a credential the integration holds: no parseWebhook.
 */
export const sendinblue = defineAdapter({
  providerId: 'sendinblue',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ 'api-key': required(credentials, 'apiKey') });
    const base = 'https://api.brevo.com';
    return {
      async send(message) {
        const template = message.customData ?? {};
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v3/smtp/email'),
          headers: headers(),
          json: {
            sender: {
              email: message.from.email,
              ...(message.from.name && { name: message.from.name }),
            },
            to: message.to.map((email) => ({ email })),
            ...(message.cc?.length && { cc: message.cc.map((email) => ({ email })) }),
            ...(message.bcc?.length && { bcc: message.bcc.map((email) => ({ email })) }),
            ...(message.replyTo && { replyTo: { email: message.replyTo } }),
            subject: message.subject,
            htmlContent: message.html,
            textContent: message.text,
            ...(message.attachments?.length && {
              // Brevo infers the type from the file name.
              attachment: message.attachments.map((a) => ({
                content: a.content.toString('base64'),
                name: a.name,
              })),
            }),
            headers: { 'X-Mailin-custom': message.id, idempotencyKey: message.id },
            // A template of the account and its parameters, as Novu 0.24 takes them from
            // the trigger's customData.
            ...(numberOf(template.templateId) !== undefined && {
              templateId: numberOf(template.templateId),
            }),
            ...(isRecord(template.templateParams) && { params: template.templateParams }),
          },
        });
        if (answer.status >= 200 && answer.status < 300)
          return { id: answer.json<{ messageId?: string }>()?.messageId, status: answer.status };
        const error = answer.json<{ code?: string; message?: string }>();
        // "email is not valid in to": the recipient's address itself is refused.
        if (error?.code === 'invalid_parameter' && /not valid in to\b/i.test(error.message ?? ''))
          throw failureOf(context, answer, { kind: 'recipient' });
        throw failureOf(context, answer);
      },
      async check() {
        // The key's account: 200 for a working key, 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/v3/account'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
