import { DeliveryError } from '../errors.js';
import { required } from '../credentials.js';
import { call, failureOf, redact, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';

/** One recipient's outcome in Mandrill's answer to messages/send. */
interface RecipientStatus {
  email?: string;
  status?: 'sent' | 'queued' | 'scheduled' | 'rejected' | 'invalid';
  reject_reason?: string | null;
  _id?: string;
}

interface MandrillError {
  status?: string;
  code?: number;
  name?: string;
  message?: string;
}

/**
 * Mailchimp Transactional (Mandrill) messages/send
 * (https://mailchimp.com/developer/transactional/api/messages/send-new-message/): the API key
 * travels in the JSON body, the answer is 200 with one status per recipient, and a failed
 * call is answered (usually 500) with `{ status: "error", name, message }`. Webhooks are signed
 * with each webhook's own key, which the integration does not hold: no parseWebhook.
 */
export const mandrill = defineAdapter({
  providerId: 'mandrill',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    const base = 'https://mandrillapp.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/1.0/messages/send'),
          json: {
            key: required(credentials, 'apiKey'),
            message: {
              html: message.html,
              text: message.text,
              subject: message.subject,
              from_email: message.from.email,
              ...(message.from.name && { from_name: message.from.name }),
              to: [
                ...message.to.map((email) => ({ email, type: 'to' })),
                ...(message.cc ?? []).map((email) => ({ email, type: 'cc' })),
                ...(message.bcc ?? []).map((email) => ({ email, type: 'bcc' })),
              ],
              // Copies are shown as copies only in one message to every recipient; Mandrill
              // otherwise sends each their own.
              ...(message.cc?.length && { preserve_recipients: true }),
              ...(message.replyTo && { headers: { 'Reply-To': message.replyTo } }),
              ...(message.attachments?.length && {
                attachments: message.attachments.map((a) => ({
                  type: a.mime,
                  name: a.name,
                  content: a.content.toString('base64'),
                })),
              }),
              // Echoed in every webhook event of the message.
              metadata: { sinoMessageId: message.id },
            },
          },
        });
        const statuses = answer.status === 200 ? answer.json<RecipientStatus[]>() : undefined;
        if (!Array.isArray(statuses)) throw callFailure(context, answer);
        const accepted = statuses.find(
          (s) => s.status === 'sent' || s.status === 'queued' || s.status === 'scheduled',
        );
        if (accepted) return { id: accepted._id, status: answer.status };
        throw refusal(context, statuses);
      },
      async check() {
        // users/ping2 validates the key and sends nothing: {"PING":"PONG!"}.
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/api/1.0/users/ping2'),
          json: { key: required(credentials, 'apiKey') },
        });
        if (answer.status === 200 && answer.json<{ PING?: string }>()?.PING === 'PONG!')
          return { ok: true, message: 'The API key works' };
        return { ok: false, message: callFailure(context, answer).message };
      },
    };
  },
});

/**
 * A refused call. Mandrill answers its errors with 500 whatever the cause, so the error's
 * `name` decides: only GeneralError is Mandrill's own trouble; Invalid_Key, ValidationError,
 * PaymentRequired, Unknown_Subaccount... will fail again.
 */
function callFailure(context: AdapterContext, answer: HttpAnswer): DeliveryError {
  const error = answer.json<MandrillError>();
  if (error?.status !== 'error' || !error.name) return failureOf(context, answer);
  const message = `${error.name}: ${error.message ?? ''}`;
  const kind = error.name === 'GeneralError' ? 'retryable' : 'permanent';
  return failureOf(context, answer, { kind, message });
}

/** Reasons that belong to the integration, not to the recipient. */
const SENDER_REASONS = new Set(['invalid-sender', 'test-mode-limit', 'unsigned']);

/** Every recipient was rejected or invalid (answered 200): say why, per recipient. */
function refusal(context: AdapterContext, statuses: RecipientStatus[]): DeliveryError {
  const words = statuses
    .map(
      (s) =>
        `${s.email ?? '?'}: ${s.status ?? '?'}${s.reject_reason ? ` (${s.reject_reason})` : ''}`,
    )
    .join('; ');
  // An invalid address, or a rejection for the recipient's own record (bounces, spam
  // complaint, unsubscribe, rejection list), is the recipient's; a sender that is not
  // verified, an unsigned domain or the test-mode limit are the integration's.
  const integration = statuses.some(
    (s) => s.status === 'rejected' && SENDER_REASONS.has(s.reject_reason ?? ''),
  );
  const text = redact(
    `Mandrill did not accept the message: ${words || 'no recipient'}`,
    context.credentials,
  );
  return new DeliveryError(integration || !statuses.length ? 'permanent' : 'recipient', text, {
    status: 200,
  });
}
