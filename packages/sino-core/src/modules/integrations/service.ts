import { randomBytes } from 'node:crypto';
import type { Channel } from '@sino/shared';
import { missingCredentials, providerById, type ProviderEntry } from '@sino/providers';
import { badRequest, conflict, notFound } from '../../errors.js';
import { isUnopenable, type SecretBox } from '../../secret-box.js';
import type { Scope } from '../subscribers/service.js';
import type { CallbackUrls } from '../../delivery/callbacks.js';

/** The environment an integration call acts in, with its name (Production has rules of its own). */
export type EnvironmentScope = Scope & { name: string };

/** Production, the environment promoted to: sessions there always require the hash. */
const isProduction = (scope: Scope & { name?: string }) => scope.name === 'Production';
import {
  changedDestinations,
  keptFromMask,
  mergeMasked,
  openCredentials,
  sealCredentials,
  type CredentialValues,
} from './credentials.js';
import type { Integration, IntegrationChanges, IntegrationRepository } from './repository.js';

/** What the integrations need to know of the delivery side: credential checks and webhooks. */
export interface ProviderChecks {
  /** Asks the provider whether the credentials work; undefined when it offers no such call. */
  check(
    channel: Channel,
    providerId: string,
    credentials: CredentialValues,
  ): Promise<{ ok: boolean; message: string } | undefined>;
  /** Whether Sino reads the provider's delivery webhooks. */
  readsWebhooks(channel: Channel, providerId: string): boolean;
  /** Where Sino reads them (undefined: it does not). */
  webhookScheme(channel: Channel, providerId: string): WebhookScheme | undefined;
}

/**
 * `shared`: at one URL per integration, set in the provider's console; `per-message`: at the
 * URL Sino gives with each message (Plivo's signatures leave the body out, decision 025).
 */
export type WebhookScheme = 'shared' | 'per-message';

/** An integration's webhook, as the console shows it (beyond Novu). */
export interface IntegrationWebhook {
  /** The absolute URL to give the provider; null when there is none to give, or no public URL. */
  webhookUrl: string | null;
  /** `verified` when Sino checks the provider's signature on its webhooks. */
  webhookSigning: 'verified' | 'unsupported';
}

/** The sandbox providers: they never count as a channel's "real" integration (Novu's rule). */
export const SANDBOX_PROVIDERS = ['novu-email', 'novu-sms'] as const;

/** Channels whose integrations have a primary and a failover order; in-app has neither. */
const ORDERED: readonly Channel[] = ['email', 'sms', 'chat', 'push'];

export interface IntegrationInput {
  name?: string | undefined;
  identifier?: string | undefined;
  active?: boolean | undefined;
  credentials?: CredentialValues | undefined;
  /** Check the credentials with the provider before storing them. */
  check?: boolean | undefined;
}

const slug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'integration';

/**
 * Integrations of the server API (`/v1/integrations`): which providers an environment delivers
 * through, with their credentials sealed at rest (AES-256-GCM) and masked in every answer.
 */
export function createIntegrationService(deps: {
  integrations: IntegrationRepository;
  secrets: SecretBox;
  providers: ProviderChecks;
  /** Called after every write: deliveries keep the active integrations (on every node). */
  changed?: () => Promise<void>;
  /** The webhook URL of an integration (under `SINO_PUBLIC_URL`). */
  webhookUrls?: Pick<CallbackUrls, 'sharedUrlFor'> | undefined;
}) {
  const stored = deps.integrations;
  // Every write goes through here, so the delivery side's cache is cleared after each.
  const written =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        await deps.changed?.();
      }
    };
  const repo: IntegrationRepository = {
    ...stored,
    create: written(stored.create),
    update: written(stored.update),
    remove: written(stored.remove),
  };

  const entryOf = (channel: Channel, providerId: string): ProviderEntry => {
    const entry = providerById(channel, providerId);
    if (!entry) throw badRequest(`Unknown ${channel} provider: ${providerId}`);
    return entry;
  };

  const missing = (id: string) => notFound(`Integration with id ${id} not found`);
  const taken = (identifier: string) =>
    conflict(`Integration with identifier ${identifier} already exists`);

  /** 400 naming every missing or mistyped credential; then the provider's own check if asked. */
  async function vet(entry: ProviderEntry, credentials: CredentialValues, check: boolean) {
    const problems = missingCredentials(entry, credentials);
    if (problems.length > 0)
      throw badRequest(`Invalid credentials for ${entry.displayName}: ${problems.join('; ')}`);
    if (!check) return;
    const result = await deps.providers.check(entry.channel, entry.id, credentials);
    if (result && !result.ok)
      throw badRequest(`${entry.displayName} refused the credentials: ${result.message}`);
  }

  /**
   * The stored credentials to merge an update with; none when no configured key opens them:
   * they are being entered again (their masks could not be read either).
   */
  const storedOrNone = (integration: Integration): CredentialValues => {
    try {
      return openCredentials(deps.secrets, integration);
    } catch (error) {
      if (isUnopenable(error)) return {};
      throw error;
    }
  };

  const load = async (scope: Scope, id: string) => {
    const found = await repo.byId(scope.id, id);
    if (!found) throw missing(id);
    return found;
  };

  return {
    list: (scope: Scope) => repo.list(scope.id),

    /** Active integrations; `selected` marks those deliveries use first (Novu's answer). */
    async active(scope: Scope): Promise<(Integration & { selected: boolean })[]> {
      const all = (await repo.list(scope.id)).filter((i) => i.active);
      const firsts = new Set<string>();
      return all.map((i) => {
        // Email and SMS deliver through one integration at a time (the first in order); the
        // other channels through each that the subscriber has credentials for.
        const single = i.channel === 'email' || i.channel === 'sms';
        const selected = !single || !firsts.has(i.channel);
        firsts.add(i.channel);
        return { ...i, selected };
      });
    },

    async create(
      scope: EnvironmentScope,
      input: IntegrationInput & { providerId: string; channel: Channel },
    ): Promise<Integration> {
      const entry = entryOf(input.channel, input.providerId);
      const credentials = input.credentials ?? {};
      await vet(entry, credentials, input.check ?? false);
      const name = input.name ?? entry.displayName;
      const identifier = input.identifier ?? `${slug(name)}-${randomBytes(3).toString('hex')}`;
      const active = input.active ?? false;
      const ordered = ORDERED.includes(input.channel);
      // Novu's rule: an active email or SMS integration with no other active one becomes primary.
      const primary =
        active &&
        (input.channel === 'email' || input.channel === 'sms') &&
        !SANDBOX_PROVIDERS.includes(input.providerId as never) &&
        (await repo.countOtherActive(scope.id, input.channel, undefined, SANDBOX_PROVIDERS)) === 0;
      const created = await repo.create({
        environmentId: scope.id,
        organizationId: scope.organizationId,
        providerId: input.providerId,
        channel: input.channel,
        name,
        identifier,
        active,
        primary,
        priority: ordered ? (await repo.topPriority(scope.id, input.channel)) + 1 : 0,
        // Production's widget sessions always require the subscriber's hash.
        hmac: input.channel === 'in_app' && (isProduction(scope) || isOn(credentials['hmac'])),
        credentialsCiphertext: sealCredentials(deps.secrets, credentials),
      });
      if (created === 'taken') throw taken(identifier);
      return created;
    },

    async update(
      scope: EnvironmentScope,
      id: string,
      input: IntegrationInput,
    ): Promise<Integration> {
      const current = await load(scope, id);
      const entry = entryOf(current.channel, current.providerId);
      const changes: IntegrationChanges = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.identifier !== undefined) changes.identifier = input.identifier;
      if (input.credentials !== undefined) {
        const stored = storedOrNone(current);
        const credentials = mergeMasked(input.credentials, stored);
        // Moving where the credentials go takes the secrets themselves, not their masks: with
        // a mask sent back and a new base URL, anyone with the API key could have the stored
        // key sent to a server of their own (decision 024).
        const moved = changedDestinations(entry, stored, credentials);
        const kept = keptFromMask(input.credentials, stored);
        if (moved.length > 0 && kept.length > 0)
          throw badRequest(
            `Changing ${moved.join(', ')} changes where the credentials are sent: send ${kept.join(', ')} again, not masked`,
          );
        await vet(entry, credentials, input.check ?? false);
        changes.credentialsCiphertext = sealCredentials(deps.secrets, credentials);
        if (current.channel === 'in_app') {
          changes.hmac = isOn(credentials['hmac']);
          if (!changes.hmac && isProduction(scope))
            throw badRequest(
              "A Production environment always requires the subscriber's hash: hmac cannot be turned off",
            );
        }
      }
      if (input.active !== undefined && input.active !== current.active) {
        changes.active = input.active;
        // Novu's rule: switched on, it is tried right after the primary; switched off, it
        // leaves the sequence (priority 0), so an old place never comes back with it.
        if (ORDERED.includes(current.channel))
          changes.priority = input.active
            ? (await repo.topPriority(scope.id, current.channel, id)) + 1
            : 0;
        if (!input.active) changes.primary = false;
        else if (
          (current.channel === 'email' || current.channel === 'sms') &&
          !SANDBOX_PROVIDERS.includes(current.providerId as never) &&
          (await repo.countOtherActive(scope.id, current.channel, id, SANDBOX_PROVIDERS)) === 0
        )
          changes.primary = true;
      }
      const updated = await repo.update(scope.id, id, changes);
      if (updated === 'taken') throw taken(input.identifier!);
      if (!updated) throw missing(id);
      return updated;
    },

    /** Makes it the channel's primary (and active, first in order); the former primary stays active. */
    async setPrimary(scope: Scope, id: string): Promise<Integration> {
      const current = await load(scope, id);
      if (!ORDERED.includes(current.channel))
        throw badRequest(`The ${current.channel} channel has no primary integration`);
      if (current.primary && current.active) return current;
      const updated = await repo.update(scope.id, id, {
        primary: true,
        active: true,
        priority: (await repo.topPriority(scope.id, current.channel, id)) + 1,
      });
      if (!updated || updated === 'taken') throw missing(id);
      return updated;
    },

    /**
     * Sets the channel's failover sequence (beyond Novu): `ids` names each of its active
     * integrations once, sandbox providers aside, first tried first. The first becomes the
     * primary on email and SMS, which always have one, and on chat and push when one was.
     */
    async reorder(scope: Scope, channel: Channel, ids: readonly string[]): Promise<Integration[]> {
      if (!ORDERED.includes(channel))
        throw badRequest(`The ${channel} channel has no failover order`);
      if (new Set(ids).size !== ids.length)
        throw badRequest('integrationIds must name each integration once');
      const active = await repo.activeOfChannel(scope.id, channel);
      const firstIsPrimary =
        channel === 'email' || channel === 'sms' || active.some((i) => i.primary);
      const result = await repo.reorder(scope.id, channel, ids, {
        sandboxIds: SANDBOX_PROVIDERS,
        firstIsPrimary,
      });
      if (result === 'changed')
        throw badRequest(
          `integrationIds must name each active ${channel} integration of the environment once (sandbox providers aside); reload them and try again`,
        );
      return result;
    },

    /** Deletes it; answers the integrations left, as Novu 0.24 does. */
    async remove(scope: Scope, id: string): Promise<Integration[]> {
      if (!(await repo.remove(scope.id, id))) throw missing(id);
      return repo.list(scope.id);
    },

    /** Checks the stored credentials with the provider, sending nothing. */
    async check(scope: Scope, id: string): Promise<{ ok: boolean; message: string }> {
      const current = await load(scope, id);
      const credentials = openCredentials(deps.secrets, current);
      const result = await deps.providers.check(current.channel, current.providerId, credentials);
      return result ?? { ok: true, message: `${current.providerId} offers no credential check` };
    },

    async inAppActive(scope: Scope): Promise<boolean> {
      return (await repo.activeOfChannel(scope.id, 'in_app')).length > 0;
    },

    readsWebhooks: (providerId: string) =>
      (['email', 'sms', 'chat', 'push'] as const).some((c) =>
        deps.providers.readsWebhooks(c, providerId),
      ),

    /** Where the provider posts the integration's delivery statuses, and whether signed. */
    webhookOf(integration: Integration): IntegrationWebhook {
      const scheme = deps.providers.webhookScheme(integration.channel, integration.providerId);
      const url =
        scheme === 'shared'
          ? deps.webhookUrls?.sharedUrlFor({
              organizationId: integration.organizationId,
              environmentId: integration.environmentId,
              channel: integration.channel,
              providerId: integration.providerId,
            })
          : undefined;
      return { webhookUrl: url ?? null, webhookSigning: scheme ? 'verified' : 'unsupported' };
    },

    /** The stored credentials, decrypted: for the delivery side only, never for an answer. */
    credentialsOf: (integration: Integration) => openCredentials(deps.secrets, integration),
  };
}

const isOn = (value: unknown) => value === true || value === 'true';

export type IntegrationService = ReturnType<typeof createIntegrationService>;
