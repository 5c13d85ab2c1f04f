import type { EmailMessage, ProviderAdapter, SmsMessage } from '@sino/providers';
import type { Channel } from '@sino/shared';
import type { DeliveryRepository } from './repository.js';

/** Sender of the sandbox's email when the step names none. */
export const SANDBOX_SENDER = 'sandbox@sino.invalid';

export const isSandboxProvider = (providerId: string) =>
  providerId === 'novu-email' || providerId === 'novu-sms';

/**
 * "Novu Email" and "Novu SMS": Sino's built-in sandbox. A message "sent" through them lands in
 * `sino.sandbox_outbox`, listed by `GET /v1/sandbox/outbox`, so a fresh install sends email and
 * SMS end to end with no provider account.
 */
export function createSandboxAdapter(
  repo: DeliveryRepository,
  scope: { environmentId: string; organizationId: string },
  channel: Exclude<Channel, 'in_app'>,
): ProviderAdapter | undefined {
  const owner = { environmentId: scope.environmentId, organizationId: scope.organizationId };
  if (channel === 'email')
    return {
      async send(message) {
        const m = message as EmailMessage;
        const from = m.from.name ? `${m.from.name} <${m.from.email}>` : m.from.email;
        const id = await repo.putInSandbox({
          ...owner,
          messageId: m.id,
          channel: 'email',
          to: m.to,
          from,
          subject: m.subject,
          content: m.html,
          text: m.text,
        });
        return { id };
      },
    };
  if (channel === 'sms')
    return {
      async send(message) {
        const m = message as SmsMessage;
        const id = await repo.putInSandbox({
          ...owner,
          messageId: m.id,
          channel: 'sms',
          to: [m.to],
          from: m.from ?? null,
          content: m.content,
        });
        return { id };
      },
    };
  return undefined;
}
