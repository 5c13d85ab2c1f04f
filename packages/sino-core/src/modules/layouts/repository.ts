import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '@locadora/db';
import { layouts, workflowSteps, workflows, type LayoutVariable } from '../../db/schema.js';
import { isId, newId } from '../../ids.js';
import { containsPattern } from '../../db/like.js';

export type Layout = typeof layouts.$inferSelect;

/** A layout's fields as written (create, update). */
export interface LayoutFields {
  name: string;
  identifier: string;
  description: string | null;
  content: string;
  variables: LayoutVariable[];
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const live = (environmentId: string) =>
  and(eq(layouts.environmentId, environmentId), isNull(layouts.deletedAt));
const liveOne = (environmentId: string, id: string) => and(live(environmentId), eq(layouts.id, id));

/**
 * One writer of an environment's default at a time: two layouts made default at once would
 * otherwise both clear the old default and meet at the partial unique index.
 */
const lockDefaults = (tx: Tx, environmentId: string) =>
  tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${'sino.layouts:' + environmentId}, 0))`,
  );

/** Makes `id` the environment's only default, in the caller's transaction. */
async function makeDefault(tx: Tx, environmentId: string, id: string): Promise<void> {
  await lockDefaults(tx, environmentId);
  await tx
    .update(layouts)
    .set({ isDefault: false, updatedAt: sql`now()` })
    .where(and(live(environmentId), eq(layouts.isDefault, true), ne(layouts.id, id)));
  await tx
    .update(layouts)
    .set({ isDefault: true, updatedAt: sql`now()` })
    .where(and(liveOne(environmentId, id), eq(layouts.isDefault, false)));
}

/** The statement that finds a live workflow step naming the layout (its `template.layoutId`). */
const stepsNaming = (db: Database | Tx, environmentId: string, id: string) =>
  db
    .select({ one: sql`1` })
    .from(workflowSteps)
    .innerJoin(workflows, eq(workflows.id, workflowSteps.workflowId))
    .where(
      and(
        eq(workflows.environmentId, environmentId),
        isNull(workflows.deletedAt),
        sql`${workflowSteps.template} ->> 'layoutId' = ${id}`,
      ),
    );

/** The SQL of `/v1/layouts` and of the layouts an email renders in. */
export function createLayoutRepository(db: Database) {
  return {
    /**
     * A page of the environment's live layouts, newest first unless told; with `search`, those
     * whose name or identifier holds it (any case).
     */
    async page(
      environmentId: string,
      options: { page: number; pageSize: number; ascending: boolean; search?: string | undefined },
    ): Promise<{ items: Layout[]; totalCount: number }> {
      const order = options.ascending
        ? [asc(layouts.createdAt), asc(layouts.id)]
        : [desc(layouts.createdAt), desc(layouts.id)];
      const pattern = options.search ? containsPattern(options.search) : undefined;
      const where = and(
        live(environmentId),
        pattern ? or(ilike(layouts.name, pattern), ilike(layouts.identifier, pattern)) : undefined,
      );
      const [items, [total]] = await Promise.all([
        db
          .select()
          .from(layouts)
          .where(where)
          .orderBy(...order)
          .limit(options.pageSize)
          .offset(options.page * options.pageSize),
        db.select({ n: count() }).from(layouts).where(where),
      ]);
      return { items, totalCount: total?.n ?? 0 };
    },

    /** A live layout of the environment; a malformed id or another environment's is none. */
    async byId(environmentId: string, id: string): Promise<Layout | undefined> {
      if (!isId(id)) return undefined;
      const [layout] = await db.select().from(layouts).where(liveOne(environmentId, id));
      return layout;
    },

    /** Every live layout of the environment (what an email's rendering chooses from). */
    liveOf(environmentId: string): Promise<Layout[]> {
      return db.select().from(layouts).where(live(environmentId));
    },

    /** Which of these ids are live layouts of the environment. */
    async existing(environmentId: string, ids: readonly string[]): Promise<Set<string>> {
      const wanted = [...new Set(ids.filter(isId))];
      if (wanted.length === 0) return new Set();
      const rows = await db
        .select({ id: layouts.id })
        .from(layouts)
        .where(and(live(environmentId), inArray(layouts.id, wanted)));
      return new Set(rows.map((r) => r.id));
    },

    /** The new layout (made the only default when asked), or `'taken'` for a used identifier. */
    async create(
      environmentId: string,
      organizationId: string,
      fields: LayoutFields,
      isDefault: boolean,
    ): Promise<Layout | 'taken'> {
      try {
        return await db.transaction(async (tx) => {
          const id = newId();
          await tx.insert(layouts).values({ id, environmentId, organizationId, ...fields });
          if (isDefault) await makeDefault(tx, environmentId, id);
          const [layout] = await tx.select().from(layouts).where(eq(layouts.id, id));
          return layout!;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /**
     * The layout with `fields` written (made the only default when asked); undefined when it is
     * not a live layout of the environment, `'taken'` for an identifier another one uses.
     */
    async update(
      environmentId: string,
      id: string,
      fields: LayoutFields,
      makeItDefault: boolean,
    ): Promise<Layout | undefined | 'taken'> {
      if (!isId(id)) return undefined;
      try {
        return await db.transaction(async (tx) => {
          const [written] = await tx
            .update(layouts)
            .set({ ...fields, updatedAt: sql`now()` })
            .where(liveOne(environmentId, id))
            .returning({ id: layouts.id });
          if (!written) return undefined;
          if (makeItDefault) await makeDefault(tx, environmentId, id);
          const [layout] = await tx.select().from(layouts).where(eq(layouts.id, id));
          return layout;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /** Makes the layout the environment's only default; false when it is not a live one. */
    async setDefault(environmentId: string, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({ id: layouts.id })
          .from(layouts)
          .where(liveOne(environmentId, id));
        if (!found) return false;
        await makeDefault(tx, environmentId, id);
        return true;
      });
    },

    /**
     * Deletes (softly) a layout that is not the default and that no live workflow's step names,
     * in one statement. Answers what happened.
     */
    async remove(
      environmentId: string,
      id: string,
    ): Promise<'deleted' | 'missing' | 'default' | 'in-use'> {
      if (!isId(id)) return 'missing';
      const removed = await db
        .update(layouts)
        .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
        .where(
          and(
            liveOne(environmentId, id),
            eq(layouts.isDefault, false),
            sql`not exists (${stepsNaming(db, environmentId, id)})`,
          ),
        )
        .returning({ id: layouts.id });
      if (removed.length > 0) return 'deleted';
      const layout = await this.byId(environmentId, id);
      if (!layout) return 'missing';
      // Novu 0.24 names the use first.
      return (await this.inUse(environmentId, id)) ? 'in-use' : 'default';
    },

    /** Whether a live workflow's step names the layout. */
    async inUse(environmentId: string, id: string): Promise<boolean> {
      const [row] = await stepsNaming(db, environmentId, id).limit(1);
      return row !== undefined;
    },
  };
}

export type LayoutRepository = ReturnType<typeof createLayoutRepository>;
