import { WebhookRejected, type DeliveryEvent, type WebhookRequest } from '@sino/providers';
import { badRequest, notFound, unauthorized } from '../errors.js';
import type { IntegrationRepository } from '../modules/integrations/repository.js';
import type { ProviderDirectory } from './directory.js';
import type { DeliveryRepository } from './repository.js';

/**
 * Providers' delivery webhooks (Novu's `/v1/webhooks/organizations/:org/environments/:env/
 * :type/:providerId`): the signature is checked with the credentials of the environment's
 * active integration of that provider, then each event moves its message forward.
 */
export function createWebhookReceiver(deps: {
  integrations: IntegrationRepository;
  repo: DeliveryRepository;
  directory: ProviderDirectory;
}) {
  return {
    async receive(
      target: {
        organizationId: string;
        environmentId: string;
        channel: string;
        providerId: string;
      },
      request: WebhookRequest,
    ): Promise<{ received: number; matched: number }> {
      const candidates = (
        await deps.integrations.activeOfProvider(target.environmentId, target.providerId)
      ).filter((i) => i.organizationId === target.organizationId && i.channel === target.channel);
      if (candidates.length === 0)
        throw notFound(`No active ${target.providerId} ${target.channel} integration here`);
      let events: DeliveryEvent[] | undefined;
      for (const integration of candidates) {
        // The adapter deliveries use, with the integration's credentials opened once.
        const reader = deps.directory.adapterOf(integration)?.adapter;
        if (!reader?.parseWebhook)
          throw notFound(`Sino does not read ${target.providerId} delivery webhooks`);
        try {
          events = reader.parseWebhook(request);
          break;
        } catch (error) {
          // Signed with another integration's secret, maybe: try the next one.
          if (error instanceof WebhookRejected) continue;
          // A signed body the adapter cannot read: the provider's to fix, not a server error.
          throw badRequest(`The ${target.providerId} webhook body could not be read`);
        }
      }
      if (!events) throw unauthorized('The webhook signature does not match');
      let matched = 0;
      for (const event of events) {
        if (await deps.repo.applyDeliveryEvent(target.environmentId, target.providerId, event))
          matched++;
      }
      return { received: events.length, matched };
    },
  };
}

export type WebhookReceiver = ReturnType<typeof createWebhookReceiver>;
