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
  /**
   * The Production environment made beside it, promoted from Development; its widget sessions
   * always require the subscriber's hash (absent where credentials are read back, not made).
   */
  production?: { environmentId: string; applicationIdentifier: string; apiKey: string };
}

/**
 * A new environment of an organization. Its widget sessions require the subscriber's HMAC
 * hash: without it anyone who knows the public application identifier could open any
 * subscriber's inbox. Only a Development environment may go without (local trials).
 */
export type NewEnvironment = { organizationId: string } & (
  | { name: 'Production'; parentId?: string }
  | { name: 'Development'; requireSubscriberHash?: boolean }
  /** Another environment an admin makes: its sessions require the hash, as Production's. */
  | { name: string; parentId?: string | null; custom: true }
);

/** An API key in clear, as an admin reads it, with when it stops working (null: never). */
export interface OpenedApiKey {
  id: string;
  key: string;
  userId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

/** A key the environment's listing cannot show: no configured encryption key opens it. */
const UNOPENED = null;

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
  /**
   * How long the keys a regeneration replaces keep working, unless the caller says otherwise:
   * what uses them (Locadora's outbox, a customer's server) has that long to move to the new
   * key. 0 revokes them at once, as Novu does.
   */
  apiKeyGraceMs?: number;
}) {
  const { repo } = deps;
  // By the key's hash, as in the database: no key is kept in clear. Only valid keys are kept,
  // so a flood of wrong keys cannot push them out; each with when it stops working.
  const environmentsByKeyHash = new LRUCache<
    string,
    { environment: Environment; keyId: string; ownerId: string | null; expiresAt: Date | null }
  >({ max: 10_000, ttl: API_KEY_CACHE_TTL_MS });
  deps.caches?.on('api-keys', () => environmentsByKeyHash.clear());
  const keysChanged = async () => {
    if (deps.caches) await deps.caches.changed('api-keys');
    else environmentsByKeyHash.clear();
  };

  return {
    /**
     * On a database without any organization, creates one with a Development environment and
     * a Production one promoted from it, each with an API key and an active in-app integration,
     * and answers their credentials (shown once).
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
      return this.createOrganization(organizationName, options);
    },

    /**
     * A new organization with a Development environment and a Production one promoted from
     * it, each with an API key, and their credentials (shown once).
     */
    async createOrganization(
      organizationName: string,
      options: { requireSubscriberHash?: boolean; apiKey?: string | undefined } = {},
    ): Promise<DevelopmentCredentials> {
      const organization = await repo.createOrganization(organizationName);
      const environment = await this.createEnvironment({
        organizationId: organization.id,
        name: 'Development',
        ...(options.requireSubscriberHash !== undefined && {
          requireSubscriberHash: options.requireSubscriberHash,
        }),
      });
      const apiKey = await this.addApiKey(environment.id, options.apiKey);
      const production = await this.createEnvironment({
        organizationId: organization.id,
        name: 'Production',
        parentId: environment.id,
      });
      return {
        production: {
          environmentId: production.id,
          applicationIdentifier: production.identifier,
          apiKey: await this.addApiKey(production.id),
        },
        organizationId: organization.id,
        environmentId: environment.id,
        applicationIdentifier: environment.identifier,
        apiKey,
        requiresSubscriberHash: environment.requiresSubscriberHash,
      };
    },

    /**
     * An environment with its active in-app integration, its "General" workflow group and its
     * default email layout (API keys are added apart).
     */
    async createEnvironment(
      input: NewEnvironment,
    ): Promise<Environment & { requiresSubscriberHash: boolean }> {
      const requiresSubscriberHash =
        !('requireSubscriberHash' in input) || input.requireSubscriberHash !== false;
      const environment = await repo.createEnvironment({
        organizationId: input.organizationId,
        name: input.name,
        identifier: newApplicationIdentifier(),
        parentId: 'parentId' in input ? (input.parentId ?? null) : null,
      });
      await repo.addDefaultIntegrations(environment.id, input.organizationId, {
        hmac: requiresSubscriberHash,
      });
      await repo.addDefaultGroup(environment.id, input.organizationId);
      await repo.addDefaultLayout(environment.id, input.organizationId);
      return { ...environment, requiresSubscriberHash };
    },

    /** From now on the environment's widget sessions require the subscriber's hash. */
    requireSubscriberHash: (environmentId: string) => repo.requireInAppHmac(environmentId),

    /**
     * A new key for the environment (or the one given), belonging to `ownerId` when given;
     * the only time it is available in clear.
     */
    async addApiKey(
      environmentId: string,
      key: string = newApiKey(),
      ownerId?: string | null,
    ): Promise<string> {
      await repo.addApiKey({
        environmentId,
        keyHash: hashApiKey(key),
        keyCiphertext: deps.secrets.seal(key),
        hint: key.slice(-4),
        userId: ownerId ?? null,
      });
      return key;
    },

    /** The organization's environments, oldest first (Development before Production). */
    environmentsOf: (organizationId: string) => repo.environmentsOf(organizationId),

    /**
     * Novu's "regenerate API keys": a new key, answered (the only time it is made available
     * without asking), and the environment's other keys ended on every node: at once with a
     * grace of 0, else once the grace has passed.
     */
    async regenerateApiKeys(
      environmentId: string,
      options: { graceMs?: number; ownerId?: string | null } = {},
    ): Promise<string> {
      const key = newApiKey();
      const graceMs = options.graceMs ?? deps.apiKeyGraceMs ?? 0;
      await repo.replaceApiKeys(
        environmentId,
        {
          keyHash: hashApiKey(key),
          keyCiphertext: deps.secrets.seal(key),
          hint: key.slice(-4),
          userId: options.ownerId ?? null,
        },
        new Date(Date.now() + graceMs),
      );
      await keysChanged();
      return key;
    },

    /**
     * Revokes one key of the environment at once, on every node. The last valid key stays
     * ('last'): an environment without a key could not be reached with one again.
     */
    async revokeApiKey(environmentId: string, keyId: string) {
      const outcome = await repo.revokeApiKey(environmentId, keyId);
      if (outcome === 'revoked') await keysChanged();
      return outcome;
    },

    /**
     * The environment's valid keys in clear, as Novu answers them to its admins; a key that
     * no configured encryption key opens is left out (it is reported at start).
     */
    async apiKeys(environmentId: string): Promise<OpenedApiKey[]> {
      const keys = await repo.validKeys(environmentId);
      const opened = keys.map(({ id, sealed, userId, createdAt, expiresAt }) => {
        try {
          const key = deps.secrets.open(sealed, `an API key of environment ${environmentId}`);
          return { id, key, userId, createdAt, expiresAt };
        } catch (error) {
          if (!isUnopenable(error)) throw error;
          return UNOPENED;
        }
      });
      return opened.filter((k): k is OpenedApiKey => k !== UNOPENED);
    },

    /** Keys changed elsewhere (a person's erasure): every node forgets what it cached of them. */
    apiKeysChanged: keysChanged,

    /** The environment an `Authorization: ApiKey <key>` header opens, if the key is valid. */
    async environmentForApiKey(key: string): Promise<Environment | undefined> {
      return (await this.apiKeyFor(key))?.environment;
    },

    /** The valid key's environment and id (the id names the key in the audit log). */
    async apiKeyFor(
      key: string,
    ): Promise<{ environment: Environment; keyId: string; ownerId: string | null } | undefined> {
      const keyHash = hashApiKey(key);
      let found = environmentsByKeyHash.get(keyHash);
      if (!found) {
        found = await repo.environmentByKeyHash(keyHash);
        if (found) environmentsByKeyHash.set(keyHash, found);
      }
      // A key in its grace stops at its end, whatever the cache says.
      if (found?.expiresAt && found.expiresAt.getTime() <= Date.now()) {
        environmentsByKeyHash.delete(keyHash);
        return undefined;
      }
      return (
        found && { environment: found.environment, keyId: found.keyId, ownerId: found.ownerId }
      );
    },

    environmentForApplication(identifier: string): Promise<Environment | undefined> {
      return repo.environmentByIdentifier(identifier);
    },

    environment: (id: string) => repo.environment(id),
    organization: (id: string) => repo.organization(id),
    renameOrganization: (id: string, name: string) => repo.renameOrganization(id, name),
    environmentNamed: (organizationId: string, name: string) =>
      repo.environmentNamed(organizationId, name),
    updateEnvironment: (
      id: string,
      organizationId: string,
      changes: { name?: string; identifier?: string; parentId?: string | null },
    ) => repo.updateEnvironment(id, organizationId, changes),
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
