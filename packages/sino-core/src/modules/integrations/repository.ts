import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '@locadora/db';
import type { Channel } from '@sino/shared';
import { integrations } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type Integration = typeof integrations.$inferSelect;
export type NewIntegration = Omit<typeof integrations.$inferInsert, 'id'>;
export type IntegrationChanges = Partial<
  Pick<
    Integration,
    'name' | 'identifier' | 'active' | 'primary' | 'priority' | 'hmac' | 'credentialsCiphertext'
  >
>;

/**
 * The order an environment's integrations of a channel are tried in: the primary first, then
 * by priority (higher first), then the oldest.
 */
const deliveryOrder = [
  desc(integrations.primary),
  desc(integrations.priority),
  asc(integrations.createdAt),
];

export function createIntegrationRepository(db: Database) {
  const live = (environmentId: string) =>
    and(eq(integrations.environmentId, environmentId), isNull(integrations.deletedAt));
  /** The channel's active integrations of the environment (sandbox ones among them). */
  const activeOf = (environmentId: string, channel: Channel) =>
    and(live(environmentId), eq(integrations.channel, channel), eq(integrations.active, true));

  return {
    /** The environment's integrations (deleted ones aside), by channel then delivery order. */
    list: (environmentId: string): Promise<Integration[]> =>
      db
        .select()
        .from(integrations)
        .where(live(environmentId))
        .orderBy(asc(integrations.channel), ...deliveryOrder),

    /** Every environment's integrations, deleted ones aside (the start report, decision 024). */
    everyLive: (): Promise<Integration[]> =>
      db.select().from(integrations).where(isNull(integrations.deletedAt)),

    /** The environment's active integrations of a channel, in the order deliveries try them. */
    activeOfChannel: (environmentId: string, channel: Channel): Promise<Integration[]> =>
      db
        .select()
        .from(integrations)
        .where(activeOf(environmentId, channel))
        .orderBy(...deliveryOrder),

    async byId(environmentId: string, id: string): Promise<Integration | undefined> {
      const [i] = await db
        .select()
        .from(integrations)
        .where(and(live(environmentId), eq(integrations.id, id)));
      return i;
    },

    /** The active integration of that provider (delivery webhooks name the provider only). */
    async activeOfProvider(environmentId: string, providerId: string) {
      return db
        .select()
        .from(integrations)
        .where(
          and(
            live(environmentId),
            eq(integrations.providerId, providerId),
            eq(integrations.active, true),
          ),
        )
        .orderBy(...deliveryOrder);
    },

    /** The highest priority among the channel's live integrations (0 when none). */
    async topPriority(environmentId: string, channel: Channel, except?: string): Promise<number> {
      const [row] = await db
        .select({ top: sql<number>`coalesce(max(${integrations.priority}), 0)`.mapWith(Number) })
        .from(integrations)
        .where(
          and(
            live(environmentId),
            eq(integrations.channel, channel),
            except ? ne(integrations.id, except) : undefined,
          ),
        );
      return row?.top ?? 0;
    },

    /** Other active integrations of the channel, sandbox providers aside (Novu's count). */
    async countOtherActive(
      environmentId: string,
      channel: Channel,
      except: string | undefined,
      sandboxIds: readonly string[],
    ): Promise<number> {
      const rows = await db
        .select({ id: integrations.id, providerId: integrations.providerId })
        .from(integrations)
        .where(activeOf(environmentId, channel));
      return rows.filter((r) => r.id !== except && !sandboxIds.includes(r.providerId)).length;
    },

    /** The new integration, or `'taken'` when its identifier is used in the environment. */
    async create(values: NewIntegration): Promise<Integration | 'taken'> {
      try {
        return await db.transaction(async (tx) => {
          if (values.primary) await clearPrimary(tx, values.environmentId, values.channel);
          const [i] = await tx
            .insert(integrations)
            .values({ id: newId(), ...values })
            .returning();
          return i!;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /**
     * The updated integration (undefined when absent, `'taken'` for a used identifier). Made
     * primary, it takes the place of the channel's primary in the same transaction.
     */
    async update(
      environmentId: string,
      id: string,
      changes: IntegrationChanges,
    ): Promise<Integration | undefined | 'taken'> {
      try {
        return await db.transaction(async (tx) => {
          const [current] = await tx
            .select({ channel: integrations.channel })
            .from(integrations)
            .where(and(live(environmentId), eq(integrations.id, id)));
          if (!current) return undefined;
          if (changes.primary) await clearPrimary(tx, environmentId, current.channel, id);
          const [i] = await tx
            .update(integrations)
            .set({ ...changes, updatedAt: sql`now()` })
            .where(and(live(environmentId), eq(integrations.id, id)))
            .returning();
          return i;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /**
     * Sets the failover order of the channel's active integrations (sandbox providers aside):
     * `ids` from first tried to last. The first becomes the primary when `firstIsPrimary`;
     * the others stop being it. In one transaction holding those rows, so an integration
     * switched on or off meanwhile is seen: `'changed'` when `ids` is not exactly that set.
     */
    async reorder(
      environmentId: string,
      channel: Channel,
      ids: readonly string[],
      options: { sandboxIds: readonly string[]; firstIsPrimary: boolean },
    ): Promise<Integration[] | 'changed'> {
      return db.transaction(async (tx) => {
        const current = await tx
          .select({ id: integrations.id, providerId: integrations.providerId })
          .from(integrations)
          .where(activeOf(environmentId, channel))
          .for('update');
        const ordered = new Set(
          current.filter((i) => !options.sandboxIds.includes(i.providerId)).map((i) => i.id),
        );
        if (ordered.size !== ids.length || ids.some((id) => !ordered.has(id))) return 'changed';
        const result: Integration[] = [];
        // Priorities from ids.length down to 1: deliveries try the higher first.
        for (const [index, id] of ids.entries()) {
          const [i] = await tx
            .update(integrations)
            .set({
              priority: ids.length - index,
              primary: index === 0 && options.firstIsPrimary,
              updatedAt: sql`now()`,
            })
            .where(eq(integrations.id, id))
            .returning();
          result.push(i!);
        }
        // A primary left among the inactive or sandbox ones would still be tried first.
        if (options.firstIsPrimary) await clearPrimary(tx, environmentId, channel, ids[0]);
        return result;
      });
    },

    /** Soft-deletes it (its identifier becomes free); false when absent. */
    async remove(environmentId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(integrations)
        .set({ deletedAt: sql`now()`, active: false, primary: false, updatedAt: sql`now()` })
        .where(and(live(environmentId), eq(integrations.id, id)))
        .returning({ id: integrations.id });
      return rows.length > 0;
    },
  };
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The channel's primary, if any, stops being primary. */
async function clearPrimary(tx: Tx, environmentId: string, channel: Channel, except?: string) {
  await tx
    .update(integrations)
    .set({ primary: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(integrations.environmentId, environmentId),
        eq(integrations.channel, channel),
        eq(integrations.primary, true),
        except ? ne(integrations.id, except) : undefined,
      ),
    );
}

export type IntegrationRepository = ReturnType<typeof createIntegrationRepository>;
