import { DeliveryError, redact, type EmailMessage, type SmsMessage } from '@sino/providers';
import { badRequest, notFound, type ErrorLog } from '../errors.js';
import { newId } from '../ids.js';
import type { Integration, IntegrationRepository } from '../modules/integrations/repository.js';
import { credentialText, type CredentialValues } from '../modules/integrations/credentials.js';
import { isUnopenable } from '../secret-box.js';
import { plainTextOf } from './content.js';
import { textAsHtml } from './overrides.js';
import type { ProviderDirectory } from './directory.js';
import { SANDBOX_SENDER, isSandboxProvider } from './sandbox.js';

/** What a provider answered a test send; never a credential. */
export type TestOutcome =
  | { ok: true; providerMessageId: string | null; status: number | null }
  | {
      ok: false;
      /** Sino's class of the failure: `recipient`, `retryable` or `permanent`. */
      kind: string;
      /** The provider's HTTP status or SMTP reply code, when it answered. */
      status: number | null;
      /** The provider's words, with the integration's credentials taken out. */
      message: string;
    };

/** The fixed test message of `POST /v1/integrations/:integrationId/test`. */
export const TEST_SUBJECT = 'Sino test message';
export const testText = (integration: Pick<Integration, 'name' | 'providerId'>) =>
  `This is a test message from Sino, sent through ${integration.name} (${integration.providerId}). If you received it, the integration works.`;

/**
 * Sends that are not a workflow's: the console's test e-mail of a step (Novu's
 * `/v1/events/test/email`) and an integration's test message. Each goes once through one
 * integration's adapter, as deliveries reach it (the same egress rule, timeouts and
 * redaction), with no failover, no retry and no message row: the caller sees the provider's
 * answer at once.
 */
export function createTestSends(deps: {
  integrations: Pick<IntegrationRepository, 'byId' | 'activeOfChannel'>;
  directory: Pick<ProviderDirectory, 'adapterOf'>;
  log: ErrorLog;
}) {
  async function sendThrough(
    integration: Integration,
    build: (credentials: CredentialValues) => Promise<EmailMessage | SmsMessage>,
  ): Promise<TestOutcome> {
    let ready: ReturnType<ProviderDirectory['adapterOf']>;
    try {
      ready = deps.directory.adapterOf(integration);
    } catch (error) {
      if (!isUnopenable(error)) throw error;
      return { ok: false, kind: 'permanent', status: null, message: error.message };
    }
    if (!ready)
      return {
        ok: false,
        kind: 'permanent',
        status: null,
        message: `Sino has no adapter for ${integration.providerId}`,
      };
    try {
      const answer = await ready.adapter.send((await build(ready.credentials)) as never);
      return { ok: true, providerMessageId: answer.id ?? null, status: answer.status ?? null };
    } catch (error) {
      if (!(error instanceof DeliveryError)) {
        deps.log.error(
          { err: error, providerId: integration.providerId },
          'provider adapter failed unexpectedly',
        );
        return {
          ok: false,
          kind: 'permanent',
          status: null,
          message: 'The provider adapter failed unexpectedly',
        };
      }
      return {
        ok: false,
        kind: error.kind,
        status: error.status ?? null,
        message: redact(error.message, ready.credentials),
      };
    }
  }

  const email =
    (integration: Integration, input: { to: string[]; subject: string; html: string }) =>
    async (credentials: CredentialValues): Promise<EmailMessage> => ({
      id: newId(),
      to: input.to,
      from: {
        email:
          (isSandboxProvider(integration.providerId)
            ? undefined
            : credentialText(credentials, 'from')) ?? SANDBOX_SENDER,
        name: credentialText(credentials, 'senderName'),
      },
      subject: input.subject,
      html: input.html,
      text: await plainTextOf(input.html),
    });

  return {
    /**
     * A step's test e-mail: through the environment's first active email integration, a real
     * provider before the sandbox (as deliveries choose). 400 when there is none (Novu's words).
     */
    async email(
      environmentId: string,
      input: { to: string[]; subject: string; html: string },
    ): Promise<{ integration: Integration; outcome: TestOutcome }> {
      const active = await deps.integrations.activeOfChannel(environmentId, 'email');
      const integration = active.find((i) => !isSandboxProvider(i.providerId)) ?? active[0];
      if (!integration) throw badRequest('Missing an active email integration');
      return { integration, outcome: await sendThrough(integration, email(integration, input)) };
    },

    /**
     * The fixed test message through one integration, active or not: an email to `email`, an
     * SMS to `phone`. Chat, push and in-app have no recipient to give: 400.
     */
    async integration(
      environmentId: string,
      integrationId: string,
      to: { email: string; phone?: string | undefined },
    ): Promise<{ integration: Integration; outcome: TestOutcome }> {
      const integration = await deps.integrations.byId(environmentId, integrationId);
      if (!integration) throw notFound(`Integration with id ${integrationId} not found`);
      const words = testText(integration);
      if (integration.channel === 'email') {
        const html = textAsHtml(words);
        return {
          integration,
          outcome: await sendThrough(
            integration,
            email(integration, { to: [to.email], subject: TEST_SUBJECT, html }),
          ),
        };
      }
      if (integration.channel === 'sms') {
        if (!to.phone) throw badRequest('to: the phone number to send the test SMS to is required');
        const phone = to.phone;
        return {
          integration,
          outcome: await sendThrough(integration, (credentials) =>
            Promise.resolve({
              id: newId(),
              to: phone,
              from: credentialText(credentials, 'from'),
              content: words,
            } satisfies SmsMessage),
          ),
        };
      }
      throw badRequest(
        `A ${integration.channel} integration cannot be tested here: its messages go to a subscriber's webhook or devices, not to an address`,
      );
    },
  };
}

export type TestSends = ReturnType<typeof createTestSends>;
