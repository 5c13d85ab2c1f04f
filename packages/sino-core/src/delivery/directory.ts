import {
  adapterDefinition,
  type AdapterContext,
  type DeliveryChannel,
  type ProviderAdapter,
} from '@sino/providers';
import type { Channel } from '@sino/shared';
import type { Integration } from '../modules/integrations/repository.js';
import type { ProviderChecks } from '../modules/integrations/service.js';
import type { CredentialValues } from '../modules/integrations/credentials.js';
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
  settings: ProviderSettings;
}) {
  const cache = new Map<string, { stamp: number; adapter: ProviderAdapter }>();
  const timeoutMs = deps.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const contextOf = (providerId: string, credentials: CredentialValues): AdapterContext => ({
    credentials,
    baseUrl: deps.settings.baseUrls?.[providerId],
    timeoutMs,
    tlsCa: deps.settings.tlsCa,
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

  const close = (adapter: ProviderAdapter) => void adapter.close?.().catch(() => undefined);

  return {
    /** The integration's adapter, built anew when its credentials changed. */
    adapterOf(integration: Integration, credentials: CredentialValues) {
      const stamp = integration.updatedAt.getTime();
      const cached = cache.get(integration.id);
      if (cached?.stamp === stamp) {
        // Refreshes its place: the least recently used goes first.
        cache.delete(integration.id);
        cache.set(integration.id, cached);
        return cached.adapter as ProviderAdapter<DeliveryChannel>;
      }
      if (cached) close(cached.adapter);
      const adapter = build(integration, integration.channel, integration.providerId, credentials);
      if (!adapter) return undefined;
      cache.set(integration.id, { stamp, adapter });
      if (cache.size > MAX_CACHED) {
        const [oldest] = cache;
        cache.delete(oldest![0]);
        close(oldest![1].adapter);
      }
      return adapter;
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
        } finally {
          await adapter.close?.();
        }
      },
      readsWebhooks: (channel, providerId) => {
        if (channel === 'in_app' || isSandboxProvider(providerId)) return false;
        const adapter = adapterDefinition(channel, providerId)?.create(contextOf(providerId, {}));
        return typeof adapter?.parseWebhook === 'function';
      },
    } satisfies ProviderChecks,

    /** A one-off adapter for reading a webhook with the integration's credentials. */
    webhookReader(integration: Integration, credentials: CredentialValues) {
      return build(integration, integration.channel, integration.providerId, credentials);
    },

    async close(): Promise<void> {
      const adapters = [...cache.values()].map((c) => c.adapter);
      cache.clear();
      await Promise.all(adapters.map((a) => a.close?.().catch(() => undefined)));
    },
  };
}

export type ProviderDirectory = ReturnType<typeof createProviderDirectory>;
