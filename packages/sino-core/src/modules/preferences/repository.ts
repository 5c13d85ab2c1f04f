import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import type { Channel } from '@sino/shared';
import { subscriberPreferences } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type PreferenceRowRecord = typeof subscriberPreferences.$inferSelect;

/** What a subscriber changes: the whole switch and/or some channels (the others stay). */
export interface PreferenceChange {
  enabled?: boolean | undefined;
  channels?: Partial<Record<Channel, boolean>> | undefined;
}

const sp = subscriberPreferences;

export function createPreferenceRepository(db: Database) {
  /** Inserts the row, or merges the change into the existing one, in one statement. */
  async function upsert(
    ids: { environmentId: string; subscriberId: string; workflowId: string | null },
    change: PreferenceChange,
  ): Promise<PreferenceRowRecord> {
    const channels = change.channels ?? {};
    const [row] = await db
      .insert(sp)
      .values({ id: newId(), ...ids, enabled: change.enabled ?? true, channels })
      .onConflictDoUpdate({
        target: ids.workflowId === null ? [sp.subscriberId] : [sp.subscriberId, sp.workflowId],
        targetWhere: ids.workflowId === null ? isNull(sp.workflowId) : isNotNull(sp.workflowId),
        set: {
          ...(change.enabled !== undefined && { enabled: change.enabled }),
          channels: sql`${sp.channels} || ${JSON.stringify(channels)}::jsonb`,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row!;
  }

  return {
    async global(subscriberId: string): Promise<PreferenceRowRecord | undefined> {
      const [row] = await db
        .select()
        .from(sp)
        .where(and(eq(sp.subscriberId, subscriberId), isNull(sp.workflowId)));
      return row;
    },

    async forWorkflow(
      subscriberId: string,
      workflowId: string,
    ): Promise<PreferenceRowRecord | undefined> {
      const [row] = await db
        .select()
        .from(sp)
        .where(and(eq(sp.subscriberId, subscriberId), eq(sp.workflowId, workflowId)));
      return row;
    },

    /** The subscriber's rows for these workflows, by workflow id. */
    async forWorkflows(
      subscriberId: string,
      workflowIds: string[],
    ): Promise<Map<string, PreferenceRowRecord>> {
      if (workflowIds.length === 0) return new Map();
      const rows = await db
        .select()
        .from(sp)
        .where(and(eq(sp.subscriberId, subscriberId), inArray(sp.workflowId, workflowIds)));
      return new Map(rows.map((r) => [r.workflowId!, r]));
    },

    /** The workflow's row and the global row at once: what a delivery decision reads. */
    async forDelivery(subscriberId: string, workflowId: string) {
      const rows = await db
        .select()
        .from(sp)
        .where(
          and(
            eq(sp.subscriberId, subscriberId),
            sql`(${sp.workflowId} = ${workflowId} or ${sp.workflowId} is null)`,
          ),
        );
      return {
        workflowPreference: rows.find((r) => r.workflowId === workflowId),
        globalPreference: rows.find((r) => r.workflowId === null),
      };
    },

    changeWorkflow(
      ids: { environmentId: string; subscriberId: string; workflowId: string },
      change: PreferenceChange,
    ) {
      return upsert(ids, change);
    },

    changeGlobal(ids: { environmentId: string; subscriberId: string }, change: PreferenceChange) {
      return upsert({ ...ids, workflowId: null }, change);
    },
  };
}

export type PreferenceRepository = ReturnType<typeof createPreferenceRepository>;
