import { required } from '../credentials.js';
import { call, failureOf, urlOf } from '../http.js';
import { mailbox } from '../mailbox.js';
import { defineAdapter } from '../define.js';

interface ResendError {
  name?: string;
  message?: string;
}

/**
 * Resend's Send Email API (https://resend.com/docs/api-reference/emails/send-email): JSON
 * posted to `/emails` with a bearer API key, answered with `{ id }`. Sino's message id goes as
 * the `Idempotency-Key` (a retry after a lost answer is not sent twice) and as a tag. Errors
 * carry a `name` (https://resend.com/docs/api-reference/errors). Resend's webhooks are signed
 * (Svix) with a per-endpoint signing secret the integration does not hold: no parseWebhook.
 */
export const resend = defineAdapter({
  providerId: 'resend',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `Bearer ${required(credentials, 'apiKey')}` });
    const base = 'https://api.resend.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/emails'),
          headers: { ...headers(), 'idempotency-key': message.id },
          json: {
            from: mailbox(message.from),
            to: message.to,
            ...(message.cc?.length && { cc: message.cc }),
            ...(message.bcc?.length && { bcc: message.bcc }),
            subject: message.subject,
            html: message.html,
            text: message.text,
            ...(message.replyTo && { reply_to: message.replyTo }),
            ...(message.attachments?.length && {
              attachments: message.attachments.map((a) => ({
                filename: a.name,
                content: a.content.toString('base64'),
                content_type: a.mime,
              })),
            }),
            // Tag values admit only ASCII letters, digits, _ and -.
            tags: [{ name: 'sinoMessageId', value: message.id.replace(/[^\w-]/g, '_') }],
          },
        });
        if (answer.status >= 200 && answer.status < 300)
          return { id: answer.json<{ id?: string }>()?.id, status: answer.status };
        const error = answer.json<ResendError>();
        if (error?.name === 'validation_error' && /`to` field/i.test(error.message ?? ''))
          throw failureOf(context, answer, { kind: 'recipient' });
        // The same key is still being processed: the first attempt's outcome is not known yet.
        if (error?.name === 'concurrent_idempotent_requests')
          throw failureOf(context, answer, { kind: 'retryable' });
        throw failureOf(context, answer);
      },
      async check() {
        // Listing domains needs a full-access key; a sending-only key is refused with
        // `restricted_api_key`, which still proves the key exists. Nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/domains'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        if (answer.json<ResendError>()?.name === 'restricted_api_key')
          return { ok: true, message: 'The API key works (sending access only)' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
