import {
  adapterDefinition,
  DeliveryError,
  EgressPolicy,
  type AdapterContext,
  type DeliveryChannel,
  type ProviderAdapter,
} from '@sino/providers';
import type { Channel } from '@sino/shared';
import type { Integration } from '../modules/integrations/repository.js';
import type { ProviderChecks, WebhookScheme } from '../modules/integrations/service.js';
import { openCredentials, type CredentialValues } from '../modules/integrations/credentials.js';
import type { SecretBox } from '../secret-box.js';
import type { ErrorLog } from '../errors.js';
import type { DeliveryRepository } from './repository.js';
import { createSandboxAdapter, isSandboxProvider } from './sandbox.js';

/** How Sino reaches providers (server configuration). */
export interface ProviderSettings {
  /** Base URL per provider id, replacing its documented one (a proxy, a region, a test peer). */
  baseUrls?: Readonly<Record<string, string>> | undefined;
  /** A provider request not answered in this many milliseconds is abandoned (retryable). */
  timeoutMs?: number | undefined;
  /** Extra certificate authorities (PEM) trusted for providers' TLS (a private SMTP relay). */
  tlsCa?: string | undefined;
  /**
   * Networks and addresses provider destinations may reach although the egress rule refuses
   * them by default (a relay on a private network, a test's local peers), decision 024.
   */
  allowedNetworks?: readonly string[] | undefined;
}

/**
 * The egress rule of provider connections: the allow-list, and the operator's base URLs
 * trusted (reached without a check).
 */
export const providerEgressOf = (settings: ProviderSettings) =>
  new EgressPolicy({
    allowedNetworks: settings.allowedNetworks,
    trustedUrls: Object.values(settings.baseUrls ?? {}),
  });

/** An integration's adapter, ready to send, with the credentials it was built from. */
export interface Ready {
  adapter: ProviderAdapter<DeliveryChannel>;
  credentials: CredentialValues;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Adapters kept ready (their HTTP/2 sessions, SMTP pools, OAuth tokens); the oldest go first. */
const MAX_CACHED = 500;

/**
 * The adapter of each integration, built once per version of its credentials and kept, so
 * pooled connections and access tokens are reused from one delivery to the next.
 */
export function createProviderDirectory(deps: {
  repo: DeliveryRepository;
  secrets: SecretBox;
  settings: ProviderSettings;
  /** Where an adapter's unexpected failure of a check is told to the operator. */
  log?: ErrorLog | undefined;
}) {
  const cache = new Map<string, Ready & { stamp: number }>();
  const timeoutMs = deps.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const egress = providerEgressOf(deps.settings);

  const contextOf = (providerId: string, credentials: CredentialValues): AdapterContext => ({
    credentials,
    baseUrl: deps.settings.baseUrls?.[providerId],
    timeoutMs,
    tlsCa: deps.settings.tlsCa,
    egress,
  });

  /** A fresh adapter for the provider; undefined when Sino has none for it. */
  function build(
    scope: { environmentId: string; organizationId: string },
    channel: Channel,
    providerId: string,
    credentials: CredentialValues,
  ): ProviderAdapter | undefined {
    if (channel === 'in_app') return undefined;
    if (isSandboxProvider(providerId)) return createSandboxAdapter(deps.repo, scope, channel);
    return adapterDefinition(channel, providerId)?.create(contextOf(providerId, credentials));
  }

  /**
   * How Sino reads the provider's delivery webhooks, signature checked either way: at one URL
   * per integration, at the URL it gives with each message (signatures that leave the body
   * out), or not at all.
   */
  function webhookScheme(channel: Channel, providerId: string): WebhookScheme | undefined {
    if (channel === 'in_app' || isSandboxProvider(providerId)) return undefined;
    const adapter = adapterDefinition(channel, providerId)?.create(contextOf(providerId, {}));
    if (typeof adapter?.parseWebhook !== 'function') return undefined;
    return adapter.webhookNonce ? 'per-message' : 'shared';
  }

  const close = (adapter: ProviderAdapter) => void adapter.close?.().catch(() => undefined);

  return {
    /**
     * The integration's adapter and its credentials (opened once), built anew when the
     * integration changed; undefined when Sino has no adapter for its provider.
     */
    adapterOf(integration: Integration): Ready | undefined {
      const stamp = integration.updatedAt.getTime();
      const cached = cache.get(integration.id);
      if (cached?.stamp === stamp) {
        // Refreshes its place: the least recently used goes first.
        cache.delete(integration.id);
        cache.set(integration.id, cached);
        return cached;
      }
      if (cached) close(cached.adapter);
      const credentials = openCredentials(deps.secrets, integration);
      const adapter = build(integration, integration.channel, integration.providerId, credentials);
      if (!adapter) return undefined;
      const ready = { stamp, adapter, credentials };
      cache.set(integration.id, ready);
      if (cache.size > MAX_CACHED) {
        const [oldest] = cache;
        cache.delete(oldest![0]);
        close(oldest![1].adapter);
      }
      return ready;
    },

    /** The integrations API's side of it: credential checks and webhook support. */
    checks: {
      async check(channel, providerId, credentials) {
        if (isSandboxProvider(providerId))
          return { ok: true, message: 'The sandbox needs no credentials' };
        if (channel === 'in_app') return undefined;
        const adapter = adapterDefinition(channel, providerId)?.create(
          contextOf(providerId, credentials),
        );
        if (!adapter?.check) return undefined;
        try {
          return await adapter.check();
        } catch (error) {
          // An unreachable provider is an answer (`ok: false`), never a 500.
          if (error instanceof DeliveryError) return { ok: false, message: error.message };
          deps.log?.error({ err: error, providerId }, 'provider check failed unexpectedly');
          return { ok: false, message: 'The provider adapter failed unexpectedly' };
        } finally {
          await adapter.close?.();
        }
      },
      readsWebhooks: (channel, providerId) => webhookScheme(channel, providerId) !== undefined,
      webhookScheme,
    } satisfies ProviderChecks,

    async close(): Promise<void> {
      const adapters = [...cache.values()].map((c) => c.adapter);
      cache.clear();
      await Promise.all(adapters.map((a) => a.close?.().catch(() => undefined)));
    },
  };
}

export type ProviderDirectory = ReturnType<typeof createProviderDirectory>;
