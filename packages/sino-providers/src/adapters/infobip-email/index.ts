import { optional, required } from '../credentials.js';
import { DeliveryError } from '../errors.js';
import { call, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';

interface InfobipStatus {
  groupName?: string;
  name?: string;
  description?: string;
}

/**
 * Infobip's fully featured email (https://www.infobip.com/docs/api/channels/email/send-fully-featured-email):
 * multipart `POST /email/3/send` with `Authorization: App <key>` on the account's own base URL,
 * one `messageId` per recipient in the answer. Sino's id goes as `callbackData`, which Infobip
 * hands back with its delivery reports. Those reports are not signed: no `parseWebhook`.
 */
export const infobipEmail = defineAdapter({
  providerId: 'infobip-email',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `App ${required(credentials, 'apiKey')}` });
    return {
      async send(message) {
        const form = new FormData();
        const { email, name } = message.from;
        form.append('from', name ? `${name} <${email}>` : email);
        for (const to of message.to) form.append('to', to);
        for (const cc of message.cc ?? []) form.append('cc', cc);
        for (const bcc of message.bcc ?? []) form.append('bcc', bcc);
        if (message.replyTo) form.append('replyTo', message.replyTo);
        form.append('subject', message.subject);
        form.append('text', message.text);
        form.append('html', message.html);
        for (const a of message.attachments ?? [])
          form.append(
            'attachment',
            new Blob([new Uint8Array(a.content)], { type: a.mime }),
            a.name,
          );
        form.append('callbackData', message.id);
        const answer = await call(context, {
          method: 'POST',
          url: infobipUrl(context, '/email/3/send'),
          headers: headers(),
          multipart: form,
        });
        if (answer.status < 200 || answer.status >= 300) throw infobipFailure(context, answer);
        const messages =
          answer.json<{ messages?: { messageId?: string; status?: InfobipStatus }[] }>()
            ?.messages ?? [];
        // Accepted over HTTP, yet refused before sending: every message in the REJECTED group.
        if (messages.length > 0 && messages.every((m) => m.status?.groupName === 'REJECTED')) {
          const status = messages[0]!.status!;
          throw new DeliveryError(
            /DESTINATION/.test(status.name ?? '') ? 'recipient' : 'permanent',
            redact(
              `${answer.status}: ${status.name}: ${status.description ?? ''}`.trim(),
              credentials,
            ),
            { status: answer.status },
          );
        }
        return { id: messages[0]?.messageId, status: answer.status };
      },
      async check() {
        // The account balance: 200 for a working key, 401 for a bad one. A key without the
        // balance scope (an email-only key) still authenticated: 403.
        const answer = await call(context, {
          method: 'GET',
          url: infobipUrl(context, '/account/1/balance'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        if (answer.status === 403)
          return { ok: true, message: 'The API key is valid (it may not read the balance)' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

/** `context.baseUrl`, else the account's base URL (the portal shows it without a scheme). */
function infobipUrl(context: AdapterContext, path: string): string {
  const own = optional(context.credentials, 'baseUrl');
  const base = own && !/^https?:\/\//i.test(own) ? `https://${own}` : own;
  return urlOf({ ...context, baseUrl: context.baseUrl ?? base }, 'https://api.infobip.com', path);
}

/** A refusal whose validation errors are all about `to` is the recipient's. */
function infobipFailure(context: AdapterContext, answer: HttpAnswer): DeliveryError {
  const exception = answer.json<{
    requestError?: {
      serviceException?: { messageId?: string; text?: string; validationErrors?: object };
    };
  }>()?.requestError?.serviceException;
  const fields = Object.keys(exception?.validationErrors ?? {});
  const recipient =
    answer.status === 400 && fields.length > 0 && fields.every((f) => /^to\b/.test(f));
  return failureOf(context, answer, recipient ? { kind: 'recipient' } : {});
}
