import { required } from '../credentials.js';
import { DeliveryError } from '../errors.js';
import { call, failureOf, redact, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';
import { textOf } from '../values.js';

interface Warning {
  type?: string;
  message?: string;
}

/**
 * MailerSend's email API (https://developers.mailersend.com/api/v1/email.html): a bearer API
 * token, `POST /v1/email`, 202 with the message id in `X-Message-Id`. The API has no per-message
 * metadata field for Sino's id (custom headers are for paid plans only), so none is sent.
 * Webhooks are signed with each webhook's own secret, not in the credentials: no
 * `parseWebhook`.
 */
export const mailersend = defineAdapter({
  providerId: 'mailersend',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `Bearer ${required(credentials, 'apiKey')}` });
    const base = 'https://api.mailersend.com';
    return {
      async send(message) {
        const template = message.customData ?? {};
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v1/email'),
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
            // A template of the account and its personalization, as Novu 0.24 takes them from
            // the trigger's customData.
            ...(textOf(template.templateId) && { template_id: textOf(template.templateId) }),
            ...(Array.isArray(template.personalization) && {
              personalization: template.personalization,
            }),
            subject: message.subject,
            text: message.text,
            html: message.html,
            ...(message.attachments?.length && {
              attachments: message.attachments.map((a) => ({
                content: a.content.toString('base64'),
                filename: a.name,
                disposition: 'attachment',
              })),
            }),
          },
        });
        if (answer.status === 422) {
          // Validation errors are keyed by field ("to.0.email"): only `to` ones are the recipient's.
          const fields = Object.keys(answer.json<{ errors?: object }>()?.errors ?? {});
          const recipient = fields.length > 0 && fields.every((f) => /^to(\.|$)/.test(f));
          throw failureOf(context, answer, recipient ? { kind: 'recipient' } : {});
        }
        if (answer.status < 200 || answer.status >= 300) throw failureOf(context, answer);
        // Accepted, yet not sent when every recipient is on the suppression list.
        const warnings = answer.json<{ warnings?: Warning[] }>()?.warnings ?? [];
        const suppressed = warnings.find((w) => w.type === 'ALL_SUPPRESSED');
        if (suppressed)
          throw new DeliveryError(
            'recipient',
            redact(
              `${answer.status}: ${suppressed.message ?? 'All of the recipients are suppressed'}`,
              credentials,
            ),
            { status: answer.status },
          );
        return { id: answer.headers.get('x-message-id') ?? undefined, status: answer.status };
      },
      async check() {
        // The token's API quota: 200 for a working token, 401 otherwise; not counted in the quota.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/v1/api-quota'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API token works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
