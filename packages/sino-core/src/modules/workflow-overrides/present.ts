import type { WorkflowOverride } from './repository.js';

/** An override as `/v1/workflow-overrides` answers it (Novu's shape; deletions are for good). */
export const overrideAnswer = (o: WorkflowOverride) => ({
  _id: o.id,
  _organizationId: o.organizationId,
  _environmentId: o.environmentId,
  _workflowId: o.workflowId,
  _tenantId: o.tenantId,
  active: o.active,
  preferenceSettings: o.preferenceSettings,
  deleted: false,
  createdAt: o.createdAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
});
