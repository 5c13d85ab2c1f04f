import { CHANNELS, type Channel } from '@sino/shared';
import type { ChannelSwitches } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { EnvironmentRef } from '../workflows/service.js';
import type {
  OverrideChanges,
  OverrideKey,
  WorkflowOverride,
  WorkflowOverrideRepository,
} from './repository.js';

/** A workflow and a tenant, each by its `_id`. */
export interface OverridePair {
  workflowId: string;
  tenantId: string;
}

/** Every channel said: those not given are on, as Novu stores them. */
const allChannels = (given: Partial<Record<Channel, boolean>> | undefined): ChannelSwitches =>
  Object.fromEntries(CHANNELS.map((c) => [c, given?.[c] ?? true])) as ChannelSwitches;

/**
 * Tenants' overrides of workflows (`/v1/workflow-overrides`, Novu's workflow overrides): one
 * per workflow and tenant, named by their `_id`s. The trigger applies them (events service).
 */
export function createWorkflowOverrideService(deps: { overrides: WorkflowOverrideRepository }) {
  const repo = deps.overrides;

  const noTenant = (id: string) => notFound(`Tenant with _id ${id} was not found`);
  const noWorkflow = (id: string) => notFound(`Workflow with _id ${id} was not found`);
  const missing = (key: OverrideKey) =>
    notFound(
      'id' in key
        ? `Workflow override with id ${key.id} was not found`
        : `No workflow override of workflow ${key.workflowId} for tenant ${key.tenantId} was found`,
    );

  async function found(env: EnvironmentRef, key: OverrideKey): Promise<WorkflowOverride> {
    const override = await repo.find(env.id, key);
    if (!override) throw missing(key);
    return override;
  }

  async function update(
    env: EnvironmentRef,
    key: OverrideKey,
    changes: OverrideChanges,
  ): Promise<WorkflowOverride> {
    const updated = await repo.update(env.id, key, changes);
    if (!updated) throw missing(key);
    return updated;
  }

  return {
    page: (env: EnvironmentRef, page: number, limit: number) => repo.page(env.id, page, limit),

    get: (env: EnvironmentRef, id: string) => found(env, { id }),

    /** The override of the pair (whether the workflow and tenant exist is not asked, as Novu). */
    getByPair: (env: EnvironmentRef, pair: OverridePair) => found(env, pair),

    /**
     * A new override. Not given, `active` is false (the workflow stops for the tenant) and every
     * channel is on: Novu's defaults. A second one of the same pair is refused (409).
     */
    async create(
      env: EnvironmentRef,
      body: OverridePair & OverrideChanges,
    ): Promise<WorkflowOverride> {
      const { workflowId, tenantId } = body;
      const created = await repo.create(
        env.id,
        env.organizationId,
        { workflowId, tenantId, active: body.active ?? false },
        allChannels(body.preferenceSettings),
      );
      if (created === 'no-tenant') throw noTenant(tenantId);
      if (created === 'no-workflow') throw noWorkflow(workflowId);
      if (created === 'taken')
        throw conflict(
          `Workflow ${workflowId} already has an override for tenant ${tenantId}: change it with PUT /v1/workflow-overrides/workflows/${workflowId}/tenants/${tenantId}`,
        );
      return created;
    },

    /** The given fields; the channels given are merged over the stored ones. */
    update: (env: EnvironmentRef, id: string, changes: OverrideChanges) =>
      update(env, { id }, changes),

    /** As `update`, the override named by its pair: 404 for an unknown tenant or workflow first. */
    async updateByPair(
      env: EnvironmentRef,
      pair: OverridePair,
      changes: OverrideChanges,
    ): Promise<WorkflowOverride> {
      const { tenant, workflow } = await repo.targets(env.id, pair);
      if (!tenant) throw noTenant(pair.tenantId);
      if (!workflow) throw noWorkflow(pair.workflowId);
      return update(env, pair, changes);
    },

    async remove(env: EnvironmentRef, id: string): Promise<void> {
      if (!(await repo.remove(env.id, id))) throw missing({ id });
    },
  };
}

export type WorkflowOverrideService = ReturnType<typeof createWorkflowOverrideService>;
