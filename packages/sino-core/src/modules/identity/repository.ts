import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  apiKeys,
  environments,
  integrations,
  notificationGroups,
  organizations,
} from '../../db/schema.js';
import { DEFAULT_GROUP_NAME } from '../notification-groups/repository.js';
import { newId } from '../../ids.js';

export type Environment = typeof environments.$inferSelect;
export type Organization = typeof organizations.$inferSelect;

export function createIdentityRepository(db: Database) {
  // Every server API call looks its key up: prepared once, on first use.
  const byKeyHash = () =>
    db
      .select({ environment: environments })
      .from(apiKeys)
      .innerJoin(environments, eq(environments.id, apiKeys.environmentId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), isNull(apiKeys.revokedAt)))
      .prepare('sino_environment_by_key_hash');
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
    /** The environment an unrevoked key belongs to. */
    async environmentByKeyHash(keyHash: string): Promise<Environment | undefined> {
      const [row] = await (environmentByKeyHash ??= byKeyHash()).execute({ keyHash });
      return row?.environment;
    },
    /** The sealed unrevoked keys of the environment, oldest first: HMAC hashes are keyed by them. */
    async sealedKeys(environmentId: string): Promise<string[]> {
      const rows = await db
        .select({ sealed: apiKeys.keyCiphertext })
        .from(apiKeys)
        .where(and(eq(apiKeys.environmentId, environmentId), isNull(apiKeys.revokedAt)))
        .orderBy(apiKeys.createdAt);
      return rows.map((r) => r.sealed);
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
    async createOrganization(name: string): Promise<Organization> {
      const [o] = await db.insert(organizations).values({ id: newId(), name }).returning();
      return o!;
    },
    async createEnvironment(v: {
      organizationId: string;
      name: string;
      identifier: string;
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
    }): Promise<void> {
      await db.insert(apiKeys).values({ id: newId(), ...k });
    },
    /** Revokes every key of the environment and adds `k`, in one transaction. */
    async replaceApiKeys(
      environmentId: string,
      k: { keyHash: string; keyCiphertext: string; hint: string },
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(apiKeys)
          .set({ revokedAt: new Date() })
          .where(and(eq(apiKeys.environmentId, environmentId), isNull(apiKeys.revokedAt)));
        await tx.insert(apiKeys).values({ id: newId(), environmentId, ...k });
      });
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
