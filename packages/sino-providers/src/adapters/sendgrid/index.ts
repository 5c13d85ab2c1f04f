import { optional, required } from '../credentials.js';
import { call, ensureOk, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';
import { isRecord, stringValues } from '../values.js';

/**
 * SendGrid's v3 Mail Send API (https://www.twilio.com/docs/sendgrid/api-reference/mail-send):
 * a bearer API key, one personalization per message, 202 with the message id in
 * `X-Message-Id`. Plain HTTP rather than `@sendgrid/mail`: one call needs no SDK.
 */
export const sendgrid = defineAdapter({
  providerId: 'sendgrid',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `Bearer ${required(credentials, 'apiKey')}` });
    const base = 'https://api.sendgrid.com';
    return {
      async send(message) {
        const ipPool = message.ipPoolName || optional(credentials, 'ipPoolName');
        // As Novu 0.24: a dynamic template and its data come through customData, and the
        // rest of it becomes custom arguments (strings, as SendGrid takes them).
        const { templateId, dynamicTemplateData, ...customArgs } = message.customData ?? {};
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v3/mail/send'),
          headers: headers(),
          json: {
            personalizations: [
              {
                to: message.to.map((email) => ({ email })),
                ...(message.cc?.length && { cc: message.cc.map((email) => ({ email })) }),
                ...(message.bcc?.length && { bcc: message.bcc.map((email) => ({ email })) }),
                ...(isRecord(dynamicTemplateData) && {
                  dynamic_template_data: dynamicTemplateData,
                }),
              },
            ],
            from: {
              email: message.from.email,
              ...(message.from.name && { name: message.from.name }),
            },
            ...(message.replyTo && { reply_to: { email: message.replyTo } }),
            subject: message.subject,
            // SendGrid requires text/plain before text/html.
            content: [
              { type: 'text/plain', value: message.text },
              { type: 'text/html', value: message.html },
            ],
            ...(message.attachments?.length && {
              attachments: message.attachments.map((a) => ({
                content: a.content.toString('base64'),
                filename: a.name,
                type: a.mime,
                disposition: 'attachment',
              })),
            }),
            ...(ipPool && { ip_pool_name: ipPool }),
            ...(typeof templateId === 'string' && templateId && { template_id: templateId }),
            // Sino's id last: its webhooks are matched by it.
            custom_args: { ...stringValues(customArgs), sinoMessageId: message.id },
          },
        });
        ensureOk(context, answer);
        return { id: answer.headers.get('x-message-id') ?? undefined, status: answer.status };
      },
      async check() {
        // The key's scopes: 200 for a working key, 401 for a bad one; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/v3/scopes'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
