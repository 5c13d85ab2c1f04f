import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  changes,
  environments,
  feeds,
  layouts,
  notificationGroups,
  workflows,
  type ChangeEntityType,
} from '../../db/schema.js';
import { isId, newId } from '../../ids.js';

export type Change = typeof changes.$inferSelect;
type Snapshot = Record<string, unknown> | null;

/** The tables an entity type lives in, for what every type shares (parent links). */
const tables = {
  NotificationTemplate: workflows,
  NotificationGroup: notificationGroups,
  Layout: layouts,
  Feed: feeds,
} as const;

/** Not deleted, for the tables that delete softly. */
const liveOnly = (t: (typeof tables)[ChangeEntityType]) =>
  'deletedAt' in t ? isNull((t as typeof workflows | typeof layouts).deletedAt) : undefined;

/** The entity's pending change (at most one: `changes_pending_entity`). */
const pendingOf = (environmentId: string, type: ChangeEntityType, entityId: string) =>
  and(
    eq(changes.environmentId, environmentId),
    eq(changes.entityType, type),
    eq(changes.entityId, entityId),
    eq(changes.enabled, false),
  );

/**
 * Promotion's own SQL (decision 052): the changes, and the links between a Development entity
 * and its Production copy (`parent_id`). The entities themselves are read and written through
 * their own repositories.
 */
export function createChangeRepository(db: Database) {
  /** The environment's row of `table`, whatever its state (a malformed id: none). */
  async function rowOf<T extends typeof workflows | typeof layouts | typeof feeds>(
    table: T,
    environmentId: string,
    id: string,
  ): Promise<T['$inferSelect'] | undefined> {
    if (!isId(id)) return undefined;
    const [row] = await db
      .select()
      .from(table as typeof feeds)
      .where(and(eq(table.environmentId, environmentId), eq(table.id, id)));
    return row as T['$inferSelect'] | undefined;
  }

  return {
    /** The environment a Development one promotes to (its child: Production), if any. */
    async childOf(environmentId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: environments.id })
        .from(environments)
        .where(eq(environments.parentId, environmentId))
        .orderBy(asc(environments.createdAt))
        .limit(1);
      return row?.id;
    },

    /** The live Production copy of a Development entity. */
    async copyOf(
      type: ChangeEntityType,
      environmentId: string,
      parentId: string,
    ): Promise<string | undefined> {
      const t = tables[type];
      const [row] = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.environmentId, environmentId), eq(t.parentId, parentId), liveOnly(t)))
        .limit(1);
      return row?.id;
    },

    /** Links a Production entity to the Development one it copies. */
    async link(type: ChangeEntityType, id: string, parentId: string | null): Promise<void> {
      const t = tables[type];
      await db.update(t).set({ parentId }).where(eq(t.id, id));
    },

    /** A workflow of the environment, deleted or not (a deletion is promoted too). */
    workflowEvenDeleted: (environmentId: string, id: string) => rowOf(workflows, environmentId, id),
    layoutEvenDeleted: (environmentId: string, id: string) => rowOf(layouts, environmentId, id),
    feed: (environmentId: string, id: string) => rowOf(feeds, environmentId, id),

    /** Production's unlinked entity of the same name, which a first promotion adopts. */
    async unlinkedNamed(
      type: ChangeEntityType,
      environmentId: string,
      key: string,
    ): Promise<string | undefined> {
      const t = tables[type];
      // A group is known by its name; the others by their identifier.
      const named =
        type === 'NotificationGroup'
          ? notificationGroups.name
          : (t as typeof workflows | typeof layouts | typeof feeds).identifier;
      const [row] = await db
        .select({ id: t.id })
        .from(t)
        .where(
          and(eq(t.environmentId, environmentId), eq(named, key), isNull(t.parentId), liveOnly(t)),
        )
        .limit(1);
      return row?.id;
    },

    /** The Development id a Production entity copies (null: none). */
    async parentOf(type: ChangeEntityType, id: string): Promise<string | null> {
      const t = tables[type];
      const [row] = await db.select({ parentId: t.parentId }).from(t).where(eq(t.id, id));
      return row?.parentId ?? null;
    },

    async pending(environmentId: string, type: ChangeEntityType, entityId: string) {
      const [row] = await db
        .select()
        .from(changes)
        .where(pendingOf(environmentId, type, entityId));
      return row;
    },

    /** Writes the entity's pending change: a new one, or the one already waiting, updated. */
    async putPending(values: {
      environmentId: string;
      organizationId: string;
      entityType: ChangeEntityType;
      entityId: string;
      creatorId: string | null;
      snapshot: Snapshot;
      previous: Snapshot;
      diff: unknown[];
    }): Promise<void> {
      await db
        .insert(changes)
        .values({ id: newId(), ...values })
        .onConflictDoUpdate({
          target: [changes.environmentId, changes.entityType, changes.entityId],
          targetWhere: sql`not ${changes.enabled}`,
          set: {
            snapshot: values.snapshot,
            previous: values.previous,
            diff: values.diff,
            creatorId: values.creatorId,
            updatedAt: sql`now()`,
          },
        });
    },

    /** Development is back to what Production has: nothing is pending for the entity. */
    async dropPending(environmentId: string, type: ChangeEntityType, entityId: string) {
      await db.delete(changes).where(pendingOf(environmentId, type, entityId));
    },

    async byId(environmentId: string, id: string): Promise<Change | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .select()
        .from(changes)
        .where(and(eq(changes.environmentId, environmentId), eq(changes.id, id)));
      return row;
    },

    /** Pending (`enabled` false) or applied changes, newest first. */
    async page(environmentId: string, enabled: boolean, page: number, limit: number) {
      const where = and(eq(changes.environmentId, environmentId), eq(changes.enabled, enabled));
      const [items, [total]] = await Promise.all([
        db
          .select()
          .from(changes)
          .where(where)
          .orderBy(
            desc(enabled ? changes.appliedAt : changes.updatedAt),
            desc(changes.createdAt),
            desc(changes.id),
          )
          .limit(limit)
          .offset(page * limit),
        db.select({ n: count() }).from(changes).where(where),
      ]);
      return { items, totalCount: total?.n ?? 0 };
    },

    async countPending(environmentId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(changes)
        .where(and(eq(changes.environmentId, environmentId), eq(changes.enabled, false)));
      return row?.n ?? 0;
    },

    /**
     * Marks a pending change applied, keeping what Production had; false when another request
     * applied it first (the row is pending no more).
     */
    async markApplied(
      id: string,
      previous: Snapshot,
      by: string | null,
      snapshot: Snapshot,
      diff: unknown[],
    ): Promise<boolean> {
      const rows = await db
        .update(changes)
        .set({ enabled: true, previous, snapshot, diff, appliedAt: sql`now()`, appliedBy: by })
        .where(and(eq(changes.id, id), eq(changes.enabled, false)))
        .returning({ id: changes.id });
      return rows.length > 0;
    },

    /** A promotion that failed half-way is pending again. */
    async markPendingAgain(id: string): Promise<void> {
      await db
        .update(changes)
        .set({ enabled: false, appliedAt: null, appliedBy: null })
        .where(eq(changes.id, id));
    },

    /** The entity's latest applied change that is not rolled back. */
    async latestApplied(environmentId: string, type: ChangeEntityType, entityId: string) {
      const [row] = await db
        .select()
        .from(changes)
        .where(
          and(
            eq(changes.environmentId, environmentId),
            eq(changes.entityType, type),
            eq(changes.entityId, entityId),
            eq(changes.enabled, true),
            isNull(changes.rolledBackAt),
          ),
        )
        .orderBy(desc(changes.appliedAt), desc(changes.id))
        .limit(1);
      return row;
    },

    /** False when the change was rolled back meanwhile. */
    async markRolledBack(id: string): Promise<boolean> {
      const rows = await db
        .update(changes)
        .set({ rolledBackAt: sql`now()` })
        .where(and(eq(changes.id, id), isNull(changes.rolledBackAt)))
        .returning({ id: changes.id });
      return rows.length > 0;
    },
  };
}

export type ChangeRepository = ReturnType<typeof createChangeRepository>;
