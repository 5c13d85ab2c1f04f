import { WebhookRejected, type DeliveryEvent, type WebhookRequest } from '@sino/providers';
import { badRequest, notFound, unauthorized } from '../errors.js';
import type { IntegrationRepository } from '../modules/integrations/repository.js';
import type { CallbackUrls } from './callbacks.js';
import type { ProviderDirectory } from './directory.js';
import type { DeliveryRepository } from './repository.js';

/** Nonces outlive their callback URL by this much: nodes' clocks and the database's differ. */
const NONCE_MARGIN_MS = 60 * 60 * 1000;

/**
 * Providers' delivery webhooks (Novu's `/v1/webhooks/organizations/:org/environments/:env/
 * :type/:providerId`, or a message's own callback URL under it): the signature is checked with
 * the credentials of the environment's active integration of that provider, then each event
 * moves its message forward. Where the signature leaves the body out (the adapter's
 * `webhookNonce`), only a message's own callback URL is read, for that message only, and each
 * nonce once.
 */
export function createWebhookReceiver(deps: {
  integrations: IntegrationRepository;
  repo: DeliveryRepository;
  directory: ProviderDirectory;
  callbacks: CallbackUrls;
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
      /** The token of a message's callback URL, when the webhook came to one. */
      callback?: string,
    ): Promise<{ received: number; matched: number }> {
      // An HMAC, before any query: a made-up callback URL costs nothing more.
      const bound = callback === undefined ? undefined : deps.callbacks.verify(target, callback);
      if (callback !== undefined && !bound)
        throw unauthorized('This callback URL is not one Sino gave, or is no longer read');
      const candidates = (
        await deps.integrations.activeOfProvider(target.environmentId, target.providerId)
      ).filter((i) => i.organizationId === target.organizationId && i.channel === target.channel);
      if (candidates.length === 0)
        throw notFound(`No active ${target.providerId} ${target.channel} integration here`);
      let events: DeliveryEvent[] | undefined;
      let nonce: string | undefined;
      for (const integration of candidates) {
        // The adapter deliveries use, with the integration's credentials opened once.
        const reader = deps.directory.adapterOf(integration)?.adapter;
        if (!reader?.parseWebhook)
          throw notFound(`Sino does not read ${target.providerId} delivery webhooks`);
        // A captured signature that leaves the body out could carry any event for any message.
        if (reader.webhookNonce && !bound)
          throw unauthorized(
            `${target.providerId} webhooks are read only at the callback URL Sino gives with each message`,
          );
        try {
          events = reader.parseWebhook(request);
          nonce = reader.webhookNonce?.(request);
          if (reader.webhookNonce && nonce === undefined)
            throw new WebhookRejected('No signature nonce');
          break;
        } catch (error) {
          // Signed with another integration's secret, maybe: try the next one.
          if (error instanceof WebhookRejected) continue;
          // A signed body the adapter cannot read: the provider's to fix, not a server error.
          throw badRequest(`The ${target.providerId} webhook body could not be read`);
        }
      }
      if (!events) throw unauthorized('The webhook signature does not match');
      if (bound) {
        const outcome = await deps.repo.applyCallbackEvents({
          environmentId: target.environmentId,
          providerId: target.providerId,
          messageId: bound.messageId,
          nonce,
          keepNonceUntil: new Date(bound.expiresAt.getTime() + NONCE_MARGIN_MS),
          events,
        });
        if (outcome.kind === 'replayed')
          throw unauthorized('This webhook signature was used before');
        if (outcome.kind === 'foreign')
          throw unauthorized("The webhook's events are not of the message its URL names");
        return { received: events.length, matched: outcome.matched };
      }
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
