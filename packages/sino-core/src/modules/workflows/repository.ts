import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  feeds,
  notificationGroups,
  workflowOverrides,
  workflowSteps,
  workflows,
} from '../../db/schema.js';
import { isId, newId } from '../../ids.js';
import { containsPattern } from '../../db/like.js';

export type Workflow = typeof workflows.$inferSelect;
export type WorkflowStep = typeof workflowSteps.$inferSelect;
export type Feed = typeof feeds.$inferSelect;
type Group = typeof notificationGroups.$inferSelect;

/** A workflow with its steps in order: what the API answers and the engine runs. */
export interface WorkflowWithSteps {
  workflow: Workflow;
  steps: WorkflowStep[];
  /** Its group (none for a deleted workflow whose group was deleted after it). */
  group: Group | null;
}

interface WorkflowRow {
  workflow: Workflow;
  group: Group | null;
}

export type NewWorkflow = Omit<typeof workflows.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
/** A step to store: its id and uuid are chosen by the service (kept across updates). */
export type NewStep = Omit<typeof workflowSteps.$inferInsert, 'workflowId' | 'position'> & {
  id: string;
};
export type WorkflowChanges = Partial<
  Pick<
    Workflow,
    | 'name'
    | 'identifier'
    | 'description'
    | 'critical'
    | 'tags'
    | 'preferenceSettings'
    | 'data'
    | 'origin'
    | 'notificationGroupId'
  >
>;

const live = (environmentId: string) =>
  and(eq(workflows.environmentId, environmentId), isNull(workflows.deletedAt));

export function createWorkflowRepository(db: Database) {
  async function stepsOf(workflowIds: string[]): Promise<Map<string, WorkflowStep[]>> {
    const byWorkflow = new Map<string, WorkflowStep[]>(workflowIds.map((id) => [id, []]));
    if (workflowIds.length === 0) return byWorkflow;
    const rows = await db
      .select()
      .from(workflowSteps)
      .where(inArray(workflowSteps.workflowId, workflowIds))
      .orderBy(asc(workflowSteps.workflowId), asc(workflowSteps.position));
    for (const row of rows) byWorkflow.get(row.workflowId)?.push(row);
    return byWorkflow;
  }

  async function withSteps(list: WorkflowRow[]): Promise<WorkflowWithSteps[]> {
    const steps = await stepsOf(list.map((w) => w.workflow.id));
    return list.map((row) => ({ ...row, steps: steps.get(row.workflow.id) ?? [] }));
  }

  /** Workflows with their group. */
  const rows = () =>
    db
      .select({ workflow: workflows, group: notificationGroups })
      .from(workflows)
      .leftJoin(notificationGroups, eq(notificationGroups.id, workflows.notificationGroupId));

  async function one(where: ReturnType<typeof and>): Promise<WorkflowWithSteps | undefined> {
    const [row] = await rows().where(where);
    return row ? (await withSteps([row]))[0] : undefined;
  }

  async function insertSteps(tx: Database, workflowId: string, steps: NewStep[]) {
    if (steps.length === 0) return;
    await tx
      .insert(workflowSteps)
      .values(steps.map((step, position) => ({ ...step, workflowId, position })));
  }

  return {
    stepsOf,

    /** A live (not deleted) workflow of the environment; a malformed id matches nothing. */
    byId(environmentId: string, id: string): Promise<WorkflowWithSteps | undefined> {
      if (!isId(id)) return Promise.resolve(undefined);
      return one(and(live(environmentId), eq(workflows.id, id)));
    },

    byIdentifier(environmentId: string, identifier: string) {
      return one(and(live(environmentId), eq(workflows.identifier, identifier)));
    },

    /** The active workflow a trigger names, with its steps in order (the engine's lookup). */
    activeByIdentifier(environmentId: string, identifier: string) {
      return one(
        and(live(environmentId), eq(workflows.identifier, identifier), eq(workflows.active, true)),
      );
    },

    /** Every active workflow of the environment with its steps, oldest first (preferences). */
    async activeWithSteps(environmentId: string): Promise<WorkflowWithSteps[]> {
      const list = await rows()
        .where(and(live(environmentId), eq(workflows.active, true)))
        .orderBy(asc(workflows.createdAt), asc(workflows.id));
      return withSteps(list);
    },

    /** A page of the environment's workflows, newest first, optionally by name or identifier. */
    async page(environmentId: string, options: { page: number; limit: number; query?: string }) {
      const text = options.query?.trim();
      const pattern = text ? containsPattern(text) : undefined;
      const where = pattern
        ? and(
            live(environmentId),
            or(ilike(workflows.name, pattern), ilike(workflows.identifier, pattern)),
          )
        : live(environmentId);
      const [list, [total]] = await Promise.all([
        rows()
          .where(where)
          .orderBy(desc(workflows.createdAt), desc(workflows.id))
          .limit(options.limit)
          .offset(options.page * options.limit),
        db.select({ n: count() }).from(workflows).where(where),
      ]);
      return { items: await withSteps(list), totalCount: total?.n ?? 0 };
    },

    /** Creates the workflow and its steps at once. */
    async insert(values: NewWorkflow, steps: NewStep[]): Promise<WorkflowWithSteps> {
      const id = newId();
      await db.transaction(async (t) => {
        const tx = t as unknown as Database;
        await tx.insert(workflows).values({ ...values, id });
        await insertSteps(tx, id, steps);
      });
      return (await one(eq(workflows.id, id)))!;
    },

    /** Changes the given fields; `steps`, when given, replace every step at once. */
    async update(
      environmentId: string,
      id: string,
      changes: WorkflowChanges,
      steps?: NewStep[],
    ): Promise<WorkflowWithSteps | undefined> {
      const updated = await db.transaction(async (t) => {
        const tx = t as unknown as Database;
        const rows = await tx
          .update(workflows)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(and(live(environmentId), eq(workflows.id, id)))
          .returning({ id: workflows.id });
        if (rows.length === 0) return false;
        if (steps) {
          await tx.delete(workflowSteps).where(eq(workflowSteps.workflowId, id));
          await insertSteps(tx, id, steps);
        }
        return true;
      });
      return updated ? one(eq(workflows.id, id)) : undefined;
    },

    async setActive(environmentId: string, id: string, active: boolean) {
      await db
        .update(workflows)
        .set({ active, updatedAt: sql`now()` })
        .where(and(live(environmentId), eq(workflows.id, id)));
      return one(eq(workflows.id, id));
    },

    /**
     * Soft delete: the row stays for past notifications; its identifier becomes free. Its
     * tenants' overrides go with it (nothing can trigger it again).
     */
    async softDelete(environmentId: string, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      return db.transaction(async (t) => {
        const tx = t as unknown as Database;
        const rows = await tx
          .update(workflows)
          .set({ deletedAt: sql`now()`, active: false, updatedAt: sql`now()` })
          .where(and(live(environmentId), eq(workflows.id, id)))
          .returning({ id: workflows.id });
        if (rows.length === 0) return false;
        await tx.delete(workflowOverrides).where(eq(workflowOverrides.workflowId, id));
        return true;
      });
    },
  };
}

export type WorkflowRepository = ReturnType<typeof createWorkflowRepository>;

export function createFeedRepository(db: Database) {
  return {
    list(environmentId: string): Promise<Feed[]> {
      return db
        .select()
        .from(feeds)
        .where(eq(feeds.environmentId, environmentId))
        .orderBy(asc(feeds.createdAt), asc(feeds.id));
    },

    async byIdentifier(environmentId: string, identifier: string): Promise<Feed | undefined> {
      const [f] = await db
        .select()
        .from(feeds)
        .where(and(eq(feeds.environmentId, environmentId), eq(feeds.identifier, identifier)));
      return f;
    },

    /** The ids among `ids` that are feeds of the environment. */
    async existing(environmentId: string, ids: string[]): Promise<Set<string>> {
      const valid = ids.filter(isId);
      if (valid.length === 0) return new Set();
      const rows = await db
        .select({ id: feeds.id })
        .from(feeds)
        .where(and(eq(feeds.environmentId, environmentId), inArray(feeds.id, valid)));
      return new Set(rows.map((r) => r.id));
    },

    /** Inserts the feed; a taken identifier surfaces as the database's unique violation. */
    async create(environmentId: string, name: string, identifier: string): Promise<Feed> {
      const [f] = await db
        .insert(feeds)
        .values({ id: newId(), environmentId, name, identifier })
        .returning();
      return f!;
    },

    /** The feed with that identifier, created when absent (workflows defined in code). */
    async ensure(environmentId: string, identifier: string): Promise<Feed> {
      await db
        .insert(feeds)
        .values({ id: newId(), environmentId, name: identifier, identifier })
        .onConflictDoNothing();
      return (await this.byIdentifier(environmentId, identifier))!;
    },

    /**
     * Removes the feed and detaches the steps that named it, so a workflow read back and sent
     * again stays valid. Past messages keep their feed id.
     */
    async remove(environmentId: string, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      return db.transaction(async (t) => {
        const tx = t as unknown as Database;
        const removed = await tx
          .delete(feeds)
          .where(and(eq(feeds.environmentId, environmentId), eq(feeds.id, id)))
          .returning({ id: feeds.id });
        if (removed.length === 0) return false;
        await tx
          .update(workflowSteps)
          .set({ template: sql`${workflowSteps.template} - 'feedId'` })
          .where(
            and(
              sql`${workflowSteps.template}->>'feedId' = ${id}`,
              inArray(
                workflowSteps.workflowId,
                tx
                  .select({ id: workflows.id })
                  .from(workflows)
                  .where(eq(workflows.environmentId, environmentId)),
              ),
            ),
          );
        return true;
      });
    },
  };
}

export type FeedRepository = ReturnType<typeof createFeedRepository>;
