import { WebhookRejected, type DeliveryEvent, type WebhookRequest } from '@sino/providers';
import { badRequest, notFound, unauthorized } from '../errors.js';
import type { IntegrationRepository } from '../modules/integrations/repository.js';
import type { CallbackUrls } from './callbacks.js';
import type { ProviderDirectory } from './directory.js';
import type { DeliveryRepository, MovedMessage } from './repository.js';
import { noDeliveryStats, type DeliveryStats } from '../modules/analytics/recorder.js';
import type { ConsoleEvents } from '../realtime/port.js';

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
  /** Delivered, bounced and failed messages are counted here (none when absent). */
  stats?: DeliveryStats | undefined;
  /** Signed-in people watching the environment hear each move (none when absent). */
  console?: ConsoleEvents | undefined;
}) {
  const stats = deps.stats ?? noDeliveryStats;
  /** What follows a webhook's moves: counted, and told to the console. */
  const after = async (environmentId: string, providerId: string, moved: MovedMessage[]) => {
    for (const m of moved)
      deps.console?.emit(environmentId, 'message_status_changed', {
        messageId: m.id,
        channel: m.channel,
        status: m.state,
      });
    const counted = moved.filter(
      (m): m is MovedMessage & { state: 'delivered' | 'bounced' | 'failed' } =>
        m.state === 'delivered' || m.state === 'bounced' || m.state === 'failed',
    );
    await stats.count(
      ...counted.map((m) => ({ environmentId, channel: m.channel, providerId, kind: m.state })),
    );
  };
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
        await after(target.environmentId, target.providerId, outcome.moved);
        return { received: events.length, matched: outcome.matched };
      }
      let matched = 0;
      const moved: MovedMessage[] = [];
      for (const event of events) {
        const found = await deps.repo.applyDeliveryEvent(
          target.environmentId,
          target.providerId,
          event,
        );
        if (!found) continue;
        matched++;
        moved.push(...found);
      }
      await after(target.environmentId, target.providerId, moved);
      return { received: events.length, matched };
    },
  };
}

export type WebhookReceiver = ReturnType<typeof createWebhookReceiver>;
