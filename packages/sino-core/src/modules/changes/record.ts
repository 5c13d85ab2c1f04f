import type { ChangeEntityType } from '../../db/schema.js';

/**
 * Told after a write of a workflow, group, layout or feed, so that a Development environment
 * keeps the entity's pending change (decision 052); nothing happens in other environments.
 */
export type RecordChange = (
  env: { id: string; organizationId: string; actorId?: string | null },
  type: ChangeEntityType,
  entityId: string,
) => Promise<void>;

export const recordNothing: RecordChange = () => Promise.resolve();
