import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { notificationGroups, workflows } from '../../db/schema.js';
import { isId, newId } from '../../ids.js';

export type NotificationGroup = typeof notificationGroups.$inferSelect;

/** The name of the group every environment starts with. */
export const DEFAULT_GROUP_NAME = 'General';

const ofEnvironment = (environmentId: string, id: string) =>
  and(eq(notificationGroups.environmentId, environmentId), eq(notificationGroups.id, id));

export function createNotificationGroupRepository(db: Database) {
  return {
    /** The environment's groups, oldest first. */
    list(environmentId: string): Promise<NotificationGroup[]> {
      return db
        .select()
        .from(notificationGroups)
        .where(eq(notificationGroups.environmentId, environmentId))
        .orderBy(asc(notificationGroups.createdAt), asc(notificationGroups.id));
    },

    /** A group of the environment; a malformed id or another environment's group is none. */
    async byId(environmentId: string, id: string): Promise<NotificationGroup | undefined> {
      if (!isId(id)) return undefined;
      const [group] = await db
        .select()
        .from(notificationGroups)
        .where(ofEnvironment(environmentId, id));
      return group;
    },

    async create(environmentId: string, organizationId: string, name: string) {
      const [group] = await db
        .insert(notificationGroups)
        .values({ id: newId(), environmentId, organizationId, name })
        .returning();
      return group!;
    },

    async rename(environmentId: string, id: string, name: string) {
      if (!isId(id)) return undefined;
      const [group] = await db
        .update(notificationGroups)
        .set({ name, updatedAt: sql`now()` })
        .where(ofEnvironment(environmentId, id))
        .returning();
      return group;
    },

    /**
     * Deletes the group unless a live workflow is in it, in one statement (a workflow moved in
     * meanwhile keeps it). Answers what happened.
     */
    async remove(environmentId: string, id: string): Promise<'deleted' | 'missing' | 'in-use'> {
      if (!isId(id)) return 'missing';
      const inUse = db
        .select({ one: sql`1` })
        .from(workflows)
        .where(and(eq(workflows.notificationGroupId, id), isNull(workflows.deletedAt)));
      const removed = await db
        .delete(notificationGroups)
        .where(and(ofEnvironment(environmentId, id), sql`not exists (${inUse})`))
        .returning({ id: notificationGroups.id });
      if (removed.length > 0) return 'deleted';
      return (await this.byId(environmentId, id)) ? 'in-use' : 'missing';
    },

    /**
     * The group of workflows created without naming one: the environment's oldest group,
     * "General" unless renamed; made again when every group was deleted.
     */
    async defaultOf(environmentId: string, organizationId: string): Promise<NotificationGroup> {
      const [oldest] = await db
        .select()
        .from(notificationGroups)
        .where(eq(notificationGroups.environmentId, environmentId))
        .orderBy(asc(notificationGroups.createdAt), asc(notificationGroups.id))
        .limit(1);
      return oldest ?? this.create(environmentId, organizationId, DEFAULT_GROUP_NAME);
    },
  };
}

export type NotificationGroupRepository = ReturnType<typeof createNotificationGroupRepository>;
