import { required } from '../credentials.js';
import { basicAuth, call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';

interface MailjetError {
  ErrorCode?: string;
  StatusCode?: number;
  ErrorMessage?: string;
  ErrorRelatedTo?: string[];
}

interface MailjetResult {
  Status?: 'success' | 'error';
  Errors?: MailjetError[];
  To?: { Email?: string; MessageUUID?: string; MessageID?: number }[];
}

/**
 * Mailjet's Send API v3.1 (https://dev.mailjet.com/reference/email/send-emails/): JSON posted
 * to `/v3.1/send` with Basic auth `<API key>:<API secret>`, one entry per message in
 * `Messages`, each answered with its own `Status` and per-recipient ids, or with `Errors`
 * (https://dev.mailjet.com/email/guides/send-api-v31/#send-api-errors). Mailjet's event
 * webhooks are not signed: no parseWebhook.
 */
export const mailjet = defineAdapter({
  providerId: 'mailjet',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({
      authorization: basicAuth(required(credentials, 'apiKey'), required(credentials, 'secretKey')),
    });
    const base = 'https://api.mailjet.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/v3.1/send'),
          headers: headers(),
          json: {
            Messages: [
              {
                From: {
                  Email: message.from.email,
                  ...(message.from.name && { Name: message.from.name }),
                },
                To: message.to.map((Email) => ({ Email })),
                ...(message.cc?.length && { Cc: message.cc.map((Email) => ({ Email })) }),
                ...(message.bcc?.length && { Bcc: message.bcc.map((Email) => ({ Email })) }),
                ...(message.replyTo && { ReplyTo: { Email: message.replyTo } }),
                Subject: message.subject,
                TextPart: message.text,
                HTMLPart: message.html,
                ...(message.attachments?.length && {
                  Attachments: message.attachments.map((a) => ({
                    ContentType: a.mime,
                    Filename: a.name,
                    Base64Content: a.content.toString('base64'),
                  })),
                }),
                // Echoed as CustomID in every event of the message.
                CustomID: message.id,
              },
            ],
          },
        });
        const [result] = answer.json<{ Messages?: MailjetResult[] }>()?.Messages ?? [];
        if (answer.status >= 200 && answer.status < 300 && result?.Status === 'success')
          // MessageUUID rather than MessageID: the numeric id exceeds what a JS number holds
          // exactly, and events carry the UUID too (as Message_GUID).
          return { id: result.To?.[0]?.MessageUUID, status: answer.status };
        throw failure(context, answer, result);
      },
      async check() {
        // The key pair's own user: 200 for working keys, 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/v3/REST/user'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key and secret work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

function failure(context: AdapterContext, answer: HttpAnswer, result: MailjetResult | undefined) {
  const errors = result?.Errors ?? [];
  if (!errors.length) {
    // An answer without per-message errors (bad keys, 429, 5xx): the status tells.
    const kind = answer.status >= 200 && answer.status < 300 ? 'permanent' : undefined;
    return failureOf(context, answer, kind && { kind });
  }
  const message = errors
    .map((e) => `${e.ErrorCode ?? '?'}: ${e.ErrorMessage ?? ''}`.trim())
    .join('; ');
  // mj-0013 is "an invalid email address"; it is the recipient's only when it points at To.
  const recipient = errors.every(
    (e) => e.ErrorCode === 'mj-0013' && (e.ErrorRelatedTo ?? []).every((f) => f.startsWith('To')),
  );
  if (recipient) return failureOf(context, answer, { kind: 'recipient', message });
  const kind = answer.status >= 200 && answer.status < 300 ? 'permanent' : undefined;
  return failureOf(context, answer, { message, ...(kind && { kind }) });
}
