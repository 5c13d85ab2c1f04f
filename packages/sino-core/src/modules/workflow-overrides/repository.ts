import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { plannedSql, rowMapper, type Database } from '@locadora/db';
import type { Channel } from '@sino/shared';
import { tenants, workflowOverrides, workflows, type ChannelSwitches } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type WorkflowOverride = typeof workflowOverrides.$inferSelect;

/** What a create or an update sets; absent fields are left as they are. */
export interface OverrideChanges {
  active?: boolean | undefined;
  /** Only the channels given: merged over the stored switches. */
  preferenceSettings?: Partial<Record<Channel, boolean>> | undefined;
}

/** Which override an update names: its id, or its workflow and tenant. */
export type OverrideKey = { id: string } | { workflowId: string; tenantId: string };

/** The tenant a trigger names, as templates see it, and its override of the workflow if any. */
export interface TenantForTrigger {
  tenant: { identifier: string; name: string | null; data: Record<string, unknown> };
  override: { active: boolean; preferenceSettings: ChannelSwitches } | undefined;
}

const overrideOfRow = rowMapper(workflowOverrides);

/**
 * A new override of a live workflow and a tenant, both of the environment, in one statement:
 * no row when either is not there, or when the pair has one already. The workflow's row is
 * share-locked, so a deletion of it (which takes its overrides, see the workflows'
 * repository) is either seen here or sees this override.
 */
const insertOverride = plannedSql(sql`
  insert into ${workflowOverrides} (id, environment_id, organization_id, workflow_id, tenant_id,
    active, preference_settings)
  select ${sql.placeholder('id')}, w.environment_id, ${sql.placeholder('organizationId')}, w.id,
    t.id, ${sql.placeholder('active')}, ${sql.placeholder('preferenceSettings')}::jsonb
  from ${workflows} w
  join ${tenants} t on t.environment_id = w.environment_id and t.id = ${sql.placeholder('tenantId')}
  where w.id = ${sql.placeholder('workflowId')}
    and w.environment_id = ${sql.placeholder('environmentId')}
    and w.deleted_at is null
  for share of w
  on conflict do nothing
  returning *`);

export function createWorkflowOverrideRepository(db: Database) {
  const keyOf = (environmentId: string, key: OverrideKey) =>
    'id' in key
      ? and(eq(workflowOverrides.environmentId, environmentId), eq(workflowOverrides.id, key.id))
      : and(
          eq(workflowOverrides.environmentId, environmentId),
          eq(workflowOverrides.workflowId, key.workflowId),
          eq(workflowOverrides.tenantId, key.tenantId),
        );

  // Every trigger naming a tenant reads it (with its override): prepared once, on first use.
  const statements = {
    tenantForTrigger: () =>
      db
        .select({
          identifier: tenants.identifier,
          name: tenants.name,
          data: tenants.data,
          active: workflowOverrides.active,
          preferenceSettings: workflowOverrides.preferenceSettings,
        })
        .from(tenants)
        .leftJoin(
          workflowOverrides,
          and(
            eq(workflowOverrides.tenantId, tenants.id),
            eq(workflowOverrides.workflowId, sql.placeholder('workflowId')),
          ),
        )
        .where(
          and(
            eq(tenants.environmentId, sql.placeholder('environmentId')),
            eq(tenants.identifier, sql.placeholder('identifier')),
          ),
        )
        .prepare('sino_tenant_for_trigger'),
  };
  let tenantForTrigger: ReturnType<typeof statements.tenantForTrigger> | undefined;

  return {
    /**
     * The environment's tenant of that identifier, with its override of the workflow, in one
     * round trip (the trigger's lookup); undefined when there is no such tenant.
     */
    async tenantForTrigger(
      environmentId: string,
      identifier: string,
      workflowId: string,
    ): Promise<TenantForTrigger | undefined> {
      tenantForTrigger ??= statements.tenantForTrigger();
      const [row] = await tenantForTrigger.execute({ environmentId, identifier, workflowId });
      if (!row) return undefined;
      return {
        tenant: { identifier: row.identifier, name: row.name, data: row.data ?? {} },
        override:
          row.active === null || row.preferenceSettings === null
            ? undefined
            : { active: row.active, preferenceSettings: row.preferenceSettings },
      };
    },

    /** A page of the environment's overrides, newest first; one extra row tells `hasMore`. */
    async page(environmentId: string, page: number, limit: number) {
      const rows = await db
        .select()
        .from(workflowOverrides)
        .where(eq(workflowOverrides.environmentId, environmentId))
        .orderBy(desc(workflowOverrides.createdAt), desc(workflowOverrides.id))
        .limit(limit + 1)
        .offset(page * limit);
      return { items: rows.slice(0, limit), hasMore: rows.length > limit };
    },

    async find(environmentId: string, key: OverrideKey): Promise<WorkflowOverride | undefined> {
      const [row] = await db.select().from(workflowOverrides).where(keyOf(environmentId, key));
      return row;
    },

    /**
     * The new override, or why there is none: the tenant or the (live) workflow is not the
     * environment's, or the pair has one already.
     */
    async create(
      environmentId: string,
      organizationId: string,
      fields: { workflowId: string; tenantId: string; active: boolean },
      preferenceSettings: ChannelSwitches,
    ): Promise<WorkflowOverride | 'no-tenant' | 'no-workflow' | 'taken'> {
      const [row] = await insertOverride.execute(db, {
        id: newId(),
        environmentId,
        organizationId,
        ...fields,
        preferenceSettings: JSON.stringify(preferenceSettings),
      });
      if (row) return overrideOfRow(row);
      const { tenant, workflow } = await this.targets(environmentId, fields);
      if (!tenant) return 'no-tenant';
      if (!workflow) return 'no-workflow';
      return 'taken';
    },

    /** Whether the tenant and the live workflow are the environment's. */
    async targets(environmentId: string, ids: { workflowId: string; tenantId: string }) {
      const [tenant, workflow] = await Promise.all([
        db
          .select({ id: tenants.id })
          .from(tenants)
          .where(and(eq(tenants.environmentId, environmentId), eq(tenants.id, ids.tenantId))),
        db
          .select({ id: workflows.id })
          .from(workflows)
          .where(
            and(
              eq(workflows.environmentId, environmentId),
              eq(workflows.id, ids.workflowId),
              isNull(workflows.deletedAt),
            ),
          ),
      ]);
      return { tenant: tenant.length > 0, workflow: workflow.length > 0 };
    },

    /**
     * Sets the given fields in one statement (the channels given are merged over the stored
     * ones); the updated override, or undefined when the environment has none so named.
     */
    async update(
      environmentId: string,
      key: OverrideKey,
      changes: OverrideChanges,
    ): Promise<WorkflowOverride | undefined> {
      const [row] = await db
        .update(workflowOverrides)
        .set({
          ...(changes.active !== undefined && { active: changes.active }),
          ...(changes.preferenceSettings && {
            preferenceSettings: sql`${workflowOverrides.preferenceSettings} || ${JSON.stringify(
              changes.preferenceSettings,
            )}::jsonb`,
          }),
          updatedAt: sql`now()`,
        })
        .where(keyOf(environmentId, key))
        .returning();
      return row;
    },

    async remove(environmentId: string, id: string): Promise<boolean> {
      const removed = await db
        .delete(workflowOverrides)
        .where(keyOf(environmentId, { id }))
        .returning({ id: workflowOverrides.id });
      return removed.length > 0;
    },
  };
}

export type WorkflowOverrideRepository = ReturnType<typeof createWorkflowOverrideRepository>;
