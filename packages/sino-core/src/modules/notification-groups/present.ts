import type { NotificationGroup } from './repository.js';

/** A group as `/v1/notification-groups` answers it, and as a workflow answers its group. */
export const groupAnswer = (group: NotificationGroup) => ({
  _id: group.id,
  name: group.name,
  _environmentId: group.environmentId,
  _organizationId: group.organizationId,
  createdAt: group.createdAt.toISOString(),
  updatedAt: group.updatedAt.toISOString(),
});
