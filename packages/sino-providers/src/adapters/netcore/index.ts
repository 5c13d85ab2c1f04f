import { required } from '../credentials.js';
import { call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';

interface NetcoreAnswer {
  status?: string;
  message?: string;
  data?: { message_id?: string };
  error?: { message?: string; field?: string; description?: string }[];
}

/**
 * Netcore Email API v5.1 (formerly Pepipost; https://emaildocs.netcorecloud.com/):
 * JSON posted to `/v5.1/mail/send` with the key in the `api_key` header, answered with
 * `{ status: "success", data: { message_id } }` or `{ status: "error", error: [{ message,
 * field }] }`. Content is HTML only (v5.1 knows `html` and `amp`, no text part). Sino's id
 * goes as the `X-APIHEADER` personalization header, which Netcore echoes in its events.
 * Netcore's webhooks are not signed: no parseWebhook; it has no documented call that checks
 * a key without sending: no check.
 */
export const netcore = defineAdapter({
  providerId: 'netcore',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, 'https://emailapi.netcorecloud.net', '/v5.1/mail/send'),
          headers: { api_key: required(credentials, 'apiKey') },
          json: {
            from: {
              email: message.from.email,
              ...(message.from.name && { name: message.from.name }),
            },
            subject: message.subject,
            content: [{ type: 'html', value: message.html }],
            personalizations: [
              {
                to: message.to.map((email) => ({ email })),
                ...(message.cc?.length && { cc: message.cc.map((email) => ({ email })) }),
                ...(message.bcc?.length && { bcc: message.bcc.map((email) => ({ email })) }),
                headers: { 'X-APIHEADER': message.id },
              },
            ],
            ...(message.replyTo && { reply_to: message.replyTo }),
            ...(message.attachments?.length && {
              attachments: message.attachments.map((a) => ({
                name: a.name,
                content: a.content.toString('base64'),
              })),
            }),
          },
        });
        const body = answer.json<NetcoreAnswer>();
        if (answer.status >= 200 && answer.status < 300 && body?.status !== 'error')
          return { id: body?.data?.message_id, status: answer.status };
        throw failure(context, answer, body);
      },
    };
  },
});

function failure(context: AdapterContext, answer: HttpAnswer, body: NetcoreAnswer | undefined) {
  const errors = body?.error ?? [];
  const message = errors.length
    ? errors.map((e) => [e.field, e.message, e.description].filter(Boolean).join(': ')).join('; ')
    : undefined;
  // Every error points at a To address of the message: the recipient's own address.
  if (errors.length && errors.every((e) => /^personalizations\[\d+\]\.to\b/.test(e.field ?? '')))
    return failureOf(context, answer, { kind: 'recipient', message });
  // An error answered 2xx is still a refusal: at least permanent.
  const kind = answer.status >= 200 && answer.status < 300 ? 'permanent' : undefined;
  return failureOf(context, answer, { ...(message && { message }), ...(kind && { kind }) });
}
