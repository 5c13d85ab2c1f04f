import { createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isUnopenable, type SecretBox } from '../../secret-box.js';
import type { CacheInvalidation } from '../../cache-invalidation.js';
import { hashApiKey, newApiKey, newApplicationIdentifier } from './keys.js';
import type { Environment, IdentityRepository } from './repository.js';

/** What the first start creates and prints: everything a customer needs to connect. */
export interface DevelopmentCredentials {
  organizationId: string;
  environmentId: string;
  applicationIdentifier: string;
  apiKey: string;
  /**
   * Whether widget sessions must carry the subscriber's hash,
   * `hex(HMAC-SHA256(apiKey, subscriberId))` (`subscriberHash` in Novu's clients).
   */
  requiresSubscriberHash: boolean;
}

/**
 * A new environment of an organization. Its widget sessions require the subscriber's HMAC
 * hash: without it anyone who knows the public application identifier could open any
 * subscriber's inbox. Only a Development environment may go without (local trials).
 */
export type NewEnvironment = { organizationId: string } & (
  { name: 'Production' } | { name: 'Development'; requireSubscriberHash?: boolean }
);

/**
 * How long the environment of a valid API key is reused without reading the database: every
 * server-API request carries a key. A key revoked through this service stops opening its
 * environment on every node at once (`caches`); this bounds how long a node that missed the
 * notification (decision 034), or a key revoked in the database by hand, goes on accepting it.
 */
export const API_KEY_CACHE_TTL_MS = 30_000;

export function createIdentityService(deps: {
  repo: IdentityRepository;
  secrets: SecretBox;
  /** Tells every node that API keys were revoked, and hears the other nodes' revocations. */
  caches?: Pick<CacheInvalidation, 'on' | 'changed'>;
}) {
  const { repo } = deps;
  // By the key's hash, as in the database: no key is kept in clear. Only valid keys are kept,
  // so a flood of wrong keys cannot push them out.
  const environmentsByKeyHash = new LRUCache<string, Environment>({
    max: 10_000,
    ttl: API_KEY_CACHE_TTL_MS,
  });
  deps.caches?.on('api-keys', () => environmentsByKeyHash.clear());

  return {
    /**
     * On a database without any organization, creates one with a Development environment, an
     * API key and an active in-app integration, and answers their credentials (shown once).
     * The environment requires the subscriber's hash unless told otherwise.
     * Afterwards answers null: nothing is created twice.
     */
    async bootstrapDevelopment(
      organizationName: string,
      options: {
        requireSubscriberHash?: boolean;
        /** The key to give the environment (an installation's processes share it); new otherwise. */
        apiKey?: string | undefined;
      } = {},
    ): Promise<DevelopmentCredentials | null> {
      if (await repo.anyOrganization()) return null;
      const organization = await repo.createOrganization(organizationName);
      const environment = await this.createEnvironment({
        organizationId: organization.id,
        name: 'Development',
        ...(options.requireSubscriberHash !== undefined && {
          requireSubscriberHash: options.requireSubscriberHash,
        }),
      });
      const apiKey = await this.addApiKey(environment.id, options.apiKey);
      return {
        organizationId: organization.id,
        environmentId: environment.id,
        applicationIdentifier: environment.identifier,
        apiKey,
        requiresSubscriberHash: environment.requiresSubscriberHash,
      };
    },

    /**
     * An environment with its active in-app integration and its "General" workflow group (API
     * keys are added apart).
     */
    async createEnvironment(
      input: NewEnvironment,
    ): Promise<Environment & { requiresSubscriberHash: boolean }> {
      const requiresSubscriberHash =
        input.name === 'Production' || input.requireSubscriberHash !== false;
      const environment = await repo.createEnvironment({
        organizationId: input.organizationId,
        name: input.name,
        identifier: newApplicationIdentifier(),
      });
      await repo.addDefaultIntegrations(environment.id, input.organizationId, {
        hmac: requiresSubscriberHash,
      });
      await repo.addDefaultGroup(environment.id, input.organizationId);
      return { ...environment, requiresSubscriberHash };
    },

    /** From now on the environment's widget sessions require the subscriber's hash. */
    requireSubscriberHash: (environmentId: string) => repo.requireInAppHmac(environmentId),

    /** A new key for the environment (or the one given); the only time it is available in clear. */
    async addApiKey(environmentId: string, key: string = newApiKey()): Promise<string> {
      await repo.addApiKey({
        environmentId,
        keyHash: hashApiKey(key),
        keyCiphertext: deps.secrets.seal(key),
        hint: key.slice(-4),
      });
      return key;
    },

    /**
     * Novu's "regenerate API keys": every key of the environment is revoked, on every node at
     * once, and a new one answered (the only time it is available in clear).
     */
    async regenerateApiKeys(environmentId: string): Promise<string> {
      const key = newApiKey();
      await repo.replaceApiKeys(environmentId, {
        keyHash: hashApiKey(key),
        keyCiphertext: deps.secrets.seal(key),
        hint: key.slice(-4),
      });
      if (deps.caches) await deps.caches.changed('api-keys');
      else environmentsByKeyHash.clear();
      return key;
    },

    /** The environment an `Authorization: ApiKey <key>` header opens, if the key is valid. */
    async environmentForApiKey(key: string): Promise<Environment | undefined> {
      const keyHash = hashApiKey(key);
      const known = environmentsByKeyHash.get(keyHash);
      if (known) return known;
      const environment = await repo.environmentByKeyHash(keyHash);
      if (environment) environmentsByKeyHash.set(keyHash, environment);
      return environment;
    },

    environmentForApplication(identifier: string): Promise<Environment | undefined> {
      return repo.environmentByIdentifier(identifier);
    },

    environment: (id: string) => repo.environment(id),
    organization: (id: string) => repo.organization(id),
    inAppIntegration: (environmentId: string) => repo.inAppIntegration(environmentId),

    /** The environment's oldest active key, in clear: webhook filters are signed with it. */
    async apiKeyOf(environmentId: string): Promise<string | undefined> {
      const [sealed] = await repo.sealedKeys(environmentId);
      return sealed === undefined
        ? undefined
        : deps.secrets.open(sealed, `an API key of environment ${environmentId}`);
    },

    /**
     * Checks `hmacHash = hex(HMAC-SHA256(API key, subscriberId))` against every active key of
     * the environment (a key rotation keeps both valid until the old one is revoked).
     */
    async hmacMatches(
      environmentId: string,
      subscriberId: string,
      hmacHash: string,
    ): Promise<boolean> {
      const given = Buffer.from(hmacHash, 'utf8');
      // A key no configured encryption key opens cannot match; said only if none other did.
      let unopened: unknown;
      for (const sealed of await repo.sealedKeys(environmentId)) {
        let key: string;
        try {
          key = deps.secrets.open(sealed, `an API key of environment ${environmentId}`);
        } catch (error) {
          if (!isUnopenable(error)) throw error;
          unopened = error;
          continue;
        }
        const expected = Buffer.from(
          createHmac('sha256', key).update(subscriberId).digest('hex'),
          'utf8',
        );
        if (expected.length === given.length && timingSafeEqual(expected, given)) return true;
      }
      if (unopened) throw unopened;
      return false;
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
