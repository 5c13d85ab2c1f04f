import { required } from '../credentials.js';
import { DeliveryError } from '../errors.js';
import { call, failureOf, redact, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

interface SparkPostError {
  message?: string;
  description?: string;
  code?: string;
}

/** The API host: SparkPost EU when the switch is on (Novu stored it as true, "true" or "eu"). */
export function sparkpostBase(region: unknown): string {
  const eu = region === true || (typeof region === 'string' && /^(true|eu)$/i.test(region));
  return eu ? 'https://api.eu.sparkpost.com' : 'https://api.sparkpost.com';
}

/**
 * SparkPost's Transmissions API (https://developers.sparkpost.com/api/transmissions/):
 * `POST /api/v1/transmissions` with the raw API key as `Authorization`, inline content, Sino's
 * id as transmission metadata (it comes back in SparkPost's events), the transmission id in
 * `results.id`. The EU switch selects api.eu.sparkpost.com. Event webhooks authenticate with
 * basic auth or OAuth set on the webhook, not with a credential here: no `parseWebhook`.
 */
export const sparkpost = defineAdapter({
  providerId: 'sparkpost',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: required(credentials, 'apiKey') });
    const base = sparkpostBase(credentials.region);
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          // The reasons of refused recipients come back in the answer.
          url: urlOf(context, base, '/api/v1/transmissions?num_rcpt_errors=3'),
          headers: headers(),
          json: {
            // Copies are recipients whose To header names the primary recipients; the Cc
            // header lists the copies, and blind copies appear in no header.
            recipients: [
              ...message.to.map((email) => ({ address: { email } })),
              ...[...(message.cc ?? []), ...(message.bcc ?? [])].map((email) => ({
                address: { email, header_to: message.to.join(',') },
              })),
            ],
            content: {
              from: {
                email: message.from.email,
                ...(message.from.name && { name: message.from.name }),
              },
              subject: message.subject,
              ...(message.replyTo && { reply_to: message.replyTo }),
              ...(message.cc?.length && { headers: { CC: message.cc.join(',') } }),
              text: message.text,
              html: message.html,
              ...(message.attachments?.length && {
                attachments: message.attachments.map((a) => ({
                  name: a.name,
                  type: a.mime,
                  data: a.content.toString('base64'),
                })),
              }),
            },
            metadata: { sinoMessageId: message.id },
          },
        });
        if (answer.status < 200 || answer.status >= 300) {
          const errors = answer.json<{ errors?: SparkPostError[] }>()?.errors ?? [];
          // 1902 "Generation rejection" (suppressed, policy), 5002 "At least one valid
          // recipient is required": no recipient SparkPost will send to.
          const recipient = errors.some((e) => e.code === '1902' || e.code === '5002');
          throw failureOf(context, answer, recipient ? { kind: 'recipient' } : {});
        }
        const results = answer.json<{
          results?: {
            id?: string;
            total_accepted_recipients?: number;
            rcpt_to_errors?: SparkPostError[];
          };
        }>()?.results;
        if (results?.total_accepted_recipients === 0) {
          const reasons = (results.rcpt_to_errors ?? [])
            .map((e) => [e.message, e.description].filter(Boolean).join(': '))
            .join('; ');
          throw new DeliveryError(
            'recipient',
            redact(
              `${answer.status}: No recipient accepted${reasons && ` (${reasons})`}`,
              credentials,
            ),
            { status: answer.status },
          );
        }
        return { id: results?.id, status: answer.status };
      },
      async check() {
        // The account: 200 for a working key. A key without the Account read permission
        // (one made for sending only) is still a working key: 403 rather than 401.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/api/v1/account'),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works' };
        if (answer.status === 403)
          return { ok: true, message: 'The API key is valid (it may not read the account)' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
