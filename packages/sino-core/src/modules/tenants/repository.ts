import { and, asc, eq, sql } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '@locadora/db';
import { tenants } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type Tenant = typeof tenants.$inferSelect;

export interface TenantChanges {
  identifier?: string | undefined;
  name?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

export function createTenantRepository(db: Database) {
  const byIdentifierWhere = (environmentId: string, identifier: string) =>
    and(eq(tenants.environmentId, environmentId), eq(tenants.identifier, identifier));

  return {
    /** The environment's tenant of that identifier (triggers name tenants by it). */
    async tenantByIdentifier(
      environmentId: string,
      identifier: string,
    ): Promise<Tenant | undefined> {
      const [t] = await db
        .select()
        .from(tenants)
        .where(byIdentifierWhere(environmentId, identifier));
      return t;
    },

    /** The new tenant, or undefined when the identifier is taken in the environment. */
    async create(
      environmentId: string,
      fields: { identifier: string; name: string; data?: Record<string, unknown> | undefined },
    ): Promise<Tenant | undefined> {
      const [t] = await db
        .insert(tenants)
        .values({ id: newId(), environmentId, ...fields })
        .onConflictDoNothing()
        .returning();
      return t;
    },

    /**
     * The updated tenant; undefined when absent; `'taken'` when the new identifier belongs to
     * another tenant of the environment.
     */
    async update(
      environmentId: string,
      identifier: string,
      changes: TenantChanges,
    ): Promise<Tenant | undefined | 'taken'> {
      try {
        const [t] = await db
          .update(tenants)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(byIdentifierWhere(environmentId, identifier))
          .returning();
        return t;
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    async remove(environmentId: string, identifier: string): Promise<boolean> {
      const removed = await db
        .delete(tenants)
        .where(byIdentifierWhere(environmentId, identifier))
        .returning({ id: tenants.id });
      return removed.length > 0;
    },

    /** A page of the environment's tenants, oldest first; one extra row tells `hasMore`. */
    async page(environmentId: string, page: number, limit: number) {
      const rows = await db
        .select()
        .from(tenants)
        .where(eq(tenants.environmentId, environmentId))
        .orderBy(asc(tenants.createdAt), asc(tenants.id))
        .limit(limit + 1)
        .offset(page * limit);
      return { items: rows.slice(0, limit), hasMore: rows.length > limit };
    },
  };
}

export type TenantRepository = ReturnType<typeof createTenantRepository>;
