import { required } from '../credentials.js';
import { call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { mailbox } from '../mailbox.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';

interface PostmarkAnswer {
  ErrorCode?: number;
  Message?: string;
  MessageID?: string;
}

/**
 * Postmark's Email API (https://postmarkapp.com/developer/api/email-api): JSON posted to
 * `/email` with the server token in `X-Postmark-Server-Token`, answered with `MessageID`.
 * Failures carry Postmark's own `ErrorCode`, which tells recipient problems apart
 * (https://postmarkapp.com/developer/api/overview#error-codes). Postmark's webhooks are
 * protected by Basic auth in their URL, not signed with a credential: no parseWebhook.
 */
export const postmark = defineAdapter({
  providerId: 'postmark',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ 'x-postmark-server-token': required(credentials, 'apiKey') });
    const base = 'https://api.postmarkapp.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/email'),
          headers: headers(),
          json: {
            From: mailbox(message.from),
            To: message.to.join(','),
            ...(message.cc?.length && { Cc: message.cc.join(',') }),
            ...(message.bcc?.length && { Bcc: message.bcc.join(',') }),
            ...(message.replyTo && { ReplyTo: message.replyTo }),
            Subject: message.subject,
            HtmlBody: message.html,
            TextBody: message.text,
            ...(message.attachments?.length && {
              Attachments: message.attachments.map((a) => ({
                Name: a.name,
                Content: a.content.toString('base64'),
                ContentType: a.mime,
              })),
            }),
            Metadata: { sinoMessageId: message.id },
          },
        });
        const body = answer.json<PostmarkAnswer>();
        // Postmark's ErrorCode is 0 on success; anything else is a refusal, whatever the status.
        if (answer.status < 200 || answer.status >= 300 || (body?.ErrorCode ?? 0) !== 0)
          throw failure(context, answer, body);
        return { id: body?.MessageID, status: answer.status };
      },
      async check() {
        // The token's own server: 200 for a working token, 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/server'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The server token works' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

function failure(context: AdapterContext, answer: HttpAnswer, body: PostmarkAnswer | undefined) {
  const code = body?.ErrorCode;
  const words = body?.Message;
  const message = code === undefined ? undefined : `${words ?? ''} (ErrorCode ${code})`;
  // 406: the recipient is inactive (hard bounce, spam complaint, unsubscribe). 300 is an
  // invalid request in general; only when it names the To address is it the recipient's.
  if (code === 406 || (code === 300 && /'To'/.test(words ?? '')))
    return failureOf(context, answer, { kind: 'recipient', message });
  // 100: Postmark is in maintenance.
  if (code === 100) return failureOf(context, answer, { kind: 'retryable', message });
  // A refusal answered 200 still refuses: at least permanent.
  const kind = answer.status >= 200 && answer.status < 300 ? 'permanent' : undefined;
  return failureOf(context, answer, { message, ...(kind && { kind }) });
}
