import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  apiKeys,
  environments,
  integrations,
  layouts,
  notificationGroups,
  organizations,
} from '../../db/schema.js';
import { DEFAULT_GROUP_NAME } from '../notification-groups/repository.js';
import { DEFAULT_LAYOUT } from '../layouts/default-layout.js';
import { newId } from '../../ids.js';

export type Environment = typeof environments.$inferSelect;
export type Organization = typeof organizations.$inferSelect;

/** A key that still opens its environment: never revoked, or in a regeneration's grace. */
const keyValid = or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, sql`now()`));

/** An API key as listed: sealed, with when it stops working (null: until revoked). */
export interface StoredApiKey {
  id: string;
  sealed: string;
  hint: string;
  /** Its owner (Novu's `_userId`), if any. */
  userId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

export function createIdentityRepository(db: Database) {
  // Every server API call looks its key up: prepared once, on first use.
  const byKeyHash = () =>
    db
      .select({
        environment: environments,
        keyId: apiKeys.id,
        ownerId: apiKeys.userId,
        expiresAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .innerJoin(environments, eq(environments.id, apiKeys.environmentId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), keyValid))
      .prepare('sino_environment_by_key_hash_v4');
  let environmentByKeyHash: ReturnType<typeof byKeyHash> | undefined;
  return {
    async anyOrganization(): Promise<Organization | undefined> {
      const [o] = await db.select().from(organizations).limit(1);
      return o;
    },
    async organization(id: string): Promise<Organization | undefined> {
      const [o] = await db.select().from(organizations).where(eq(organizations.id, id));
      return o;
    },
    async environmentByIdentifier(identifier: string): Promise<Environment | undefined> {
      const [e] = await db
        .select()
        .from(environments)
        .where(eq(environments.identifier, identifier));
      return e;
    },
    async environment(id: string): Promise<Environment | undefined> {
      const [e] = await db.select().from(environments).where(eq(environments.id, id));
      return e;
    },
    /** The environment a valid key belongs to, and when the key stops working (null: never). */
    async environmentByKeyHash(
      keyHash: string,
    ): Promise<
      | { environment: Environment; keyId: string; ownerId: string | null; expiresAt: Date | null }
      | undefined
    > {
      const [row] = await (environmentByKeyHash ??= byKeyHash()).execute({ keyHash });
      return row;
    },
    /**
     * The environment's valid keys, sealed: those without an end first, then those in a grace
     * period, oldest first in each. HMAC hashes are keyed by them.
     */
    async validKeys(environmentId: string): Promise<StoredApiKey[]> {
      return db
        .select({
          id: apiKeys.id,
          sealed: apiKeys.keyCiphertext,
          hint: apiKeys.hint,
          userId: apiKeys.userId,
          createdAt: apiKeys.createdAt,
          expiresAt: apiKeys.revokedAt,
        })
        .from(apiKeys)
        .where(and(eq(apiKeys.environmentId, environmentId), keyValid))
        .orderBy(sql`${apiKeys.revokedAt} is not null`, asc(apiKeys.createdAt), asc(apiKeys.id));
    },
    async sealedKeys(environmentId: string): Promise<string[]> {
      return (await this.validKeys(environmentId)).map((k) => k.sealed);
    },
    /** The organization's environments, oldest first. */
    environmentsOf(organizationId: string): Promise<Environment[]> {
      return db
        .select()
        .from(environments)
        .where(eq(environments.organizationId, organizationId))
        .orderBy(asc(environments.createdAt), asc(environments.id));
    },
    /** The organization's environment of that name (Development, Production), if any. */
    async environmentNamed(organizationId: string, name: string): Promise<Environment | undefined> {
      const [e] = await db
        .select()
        .from(environments)
        .where(and(eq(environments.organizationId, organizationId), eq(environments.name, name)))
        .orderBy(asc(environments.createdAt))
        .limit(1);
      return e;
    },
    /** Changes the organization's environment `id`; a taken identifier is a unique violation. */
    async updateEnvironment(
      id: string,
      organizationId: string,
      changes: { name?: string; identifier?: string; parentId?: string | null },
    ) {
      const [e] = await db
        .update(environments)
        .set(changes)
        .where(and(eq(environments.id, id), eq(environments.organizationId, organizationId)))
        .returning();
      return e;
    },
    /** The environment's active in-app integration, if any. */
    async inAppIntegration(environmentId: string) {
      const [i] = await db
        .select()
        .from(integrations)
        .where(
          and(
            eq(integrations.environmentId, environmentId),
            eq(integrations.channel, 'in_app'),
            eq(integrations.active, true),
            isNull(integrations.deletedAt),
          ),
        )
        .limit(1);
      return i;
    },
    async renameOrganization(id: string, name: string): Promise<Organization | undefined> {
      const [o] = await db
        .update(organizations)
        .set({ name, updatedAt: sql`now()` })
        .where(eq(organizations.id, id))
        .returning();
      return o;
    },
    async createOrganization(name: string): Promise<Organization> {
      const [o] = await db.insert(organizations).values({ id: newId(), name }).returning();
      return o!;
    },
    async createEnvironment(v: {
      organizationId: string;
      name: string;
      identifier: string;
      parentId?: string | null;
    }): Promise<Environment> {
      const [e] = await db
        .insert(environments)
        .values({ id: newId(), ...v })
        .returning();
      return e!;
    },
    async addApiKey(k: {
      environmentId: string;
      keyHash: string;
      keyCiphertext: string;
      hint: string;
      userId?: string | null | undefined;
    }): Promise<void> {
      await db.insert(apiKeys).values({ id: newId(), ...k });
    },
    /**
     * Adds `k` and ends every other valid key of the environment at `until` (now: revoked at
     * once; later: a grace period), in one transaction. A key ending sooner keeps its end.
     */
    async replaceApiKeys(
      environmentId: string,
      k: { keyHash: string; keyCiphertext: string; hint: string; userId?: string | null },
      until: Date,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(apiKeys)
          .set({ revokedAt: sql`least(coalesce(${apiKeys.revokedAt}, ${until}), ${until})` })
          .where(and(eq(apiKeys.environmentId, environmentId), keyValid));
        await tx.insert(apiKeys).values({ id: newId(), environmentId, ...k });
      });
    },
    /**
     * Revokes one key at once, unless it is the environment's last valid one (answered
     * 'last': an environment keeps a key), in one statement.
     */
    async revokeApiKey(
      environmentId: string,
      keyId: string,
    ): Promise<'revoked' | 'missing' | 'last'> {
      const others = db
        .select({ one: sql`1` })
        .from(apiKeys)
        .where(
          and(eq(apiKeys.environmentId, environmentId), keyValid, sql`${apiKeys.id} <> ${keyId}`),
        );
      const rows = await db
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(apiKeys.environmentId, environmentId),
            eq(apiKeys.id, keyId),
            keyValid,
            sql`exists (${others})`,
          ),
        )
        .returning({ id: apiKeys.id });
      if (rows.length > 0) return 'revoked';
      const valid = await this.validKeys(environmentId);
      return valid.some((k) => k.id === keyId) ? 'last' : 'missing';
    },
    /**
     * A new environment's integrations, as Novu gives one: in-app (`hmac`: session initialize
     * requires the subscriber's HMAC hash), and the sandbox email and SMS providers, active and
     * primary until a real provider is made active, so email and SMS work from the start.
     */
    async addDefaultIntegrations(
      environmentId: string,
      organizationId: string,
      options: { hmac: boolean },
    ): Promise<void> {
      const common = { environmentId, organizationId, active: true, primary: true };
      await db.insert(integrations).values([
        {
          ...common,
          id: newId(),
          providerId: 'novu',
          channel: 'in_app',
          name: 'Sino In-App',
          identifier: 'sino-in-app',
          hmac: options.hmac,
        },
        {
          ...common,
          id: newId(),
          providerId: 'novu-email',
          channel: 'email',
          name: 'Sino Email (sandbox)',
          identifier: 'sino-email-sandbox',
          priority: 1,
        },
        {
          ...common,
          id: newId(),
          providerId: 'novu-sms',
          channel: 'sms',
          name: 'Sino SMS (sandbox)',
          identifier: 'sino-sms-sandbox',
          priority: 1,
        },
      ]);
    },
    /** A new environment's workflow group, "General", as Novu gives one. */
    async addDefaultGroup(environmentId: string, organizationId: string): Promise<void> {
      await db
        .insert(notificationGroups)
        .values({ id: newId(), environmentId, organizationId, name: DEFAULT_GROUP_NAME });
    },
    /** A new environment's default email layout (src/modules/layouts/default-layout.ts). */
    async addDefaultLayout(environmentId: string, organizationId: string): Promise<void> {
      await db
        .insert(layouts)
        .values({ id: newId(), environmentId, organizationId, ...DEFAULT_LAYOUT, isDefault: true });
    },
    /** Turns the subscriber-hash requirement on for the environment's in-app integrations. */
    async requireInAppHmac(environmentId: string): Promise<void> {
      await db
        .update(integrations)
        .set({ hmac: true, updatedAt: new Date() })
        .where(
          and(
            eq(integrations.environmentId, environmentId),
            eq(integrations.channel, 'in_app'),
            eq(integrations.hmac, false),
          ),
        );
    },
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
