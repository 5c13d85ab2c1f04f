import { conflict, notFound } from '../../errors.js';
import type { EnvironmentRef } from '../workflows/service.js';
import { recordNothing, type RecordChange } from '../changes/record.js';
import type { NotificationGroup, NotificationGroupRepository } from './repository.js';

/** Workflow groups of the server API (`/v1/notification-groups`). */
export function createNotificationGroupService(deps: {
  groups: NotificationGroupRepository;
  /** Keeps Development's pending changes (decision 052). */
  record?: RecordChange;
}) {
  const { groups } = deps;
  const record: RecordChange = deps.record ?? recordNothing;
  const missing = (id: string) => notFound(`Workflow group with id ${id} not found`);

  return {
    list: (env: EnvironmentRef) => groups.list(env.id),

    async get(env: EnvironmentRef, id: string): Promise<NotificationGroup> {
      const group = await groups.byId(env.id, id);
      if (!group) throw missing(id);
      return group;
    },

    async create(env: EnvironmentRef, name: string): Promise<NotificationGroup> {
      const group = await groups.create(env.id, env.organizationId, name);
      await record(env, 'NotificationGroup', group.id);
      return group;
    },

    async rename(env: EnvironmentRef, id: string, name: string): Promise<NotificationGroup> {
      const group = await groups.rename(env.id, id, name);
      if (!group) throw missing(id);
      await record(env, 'NotificationGroup', id);
      return group;
    },

    /**
     * Deletes an empty group. Novu 0.24 deletes a group its workflows still name, leaving them
     * in none; Sino refuses, so every live workflow stays in a group.
     */
    async remove(env: EnvironmentRef, id: string): Promise<void> {
      const outcome = await groups.remove(env.id, id);
      if (outcome === 'missing') throw missing(id);
      if (outcome === 'in-use') {
        throw conflict(
          `Workflow group with id ${id} still holds workflows: move them to another group first`,
        );
      }
      await record(env, 'NotificationGroup', id);
    },

    /** The group a new workflow goes in when it names none (the environment's "General"). */
    defaultOf: (env: EnvironmentRef) => groups.defaultOf(env.id, env.organizationId),

    /** The group `id` of the environment, if it is one. */
    find: (env: EnvironmentRef, id: string) => groups.byId(env.id, id),
  };
}

export type NotificationGroupService = ReturnType<typeof createNotificationGroupService>;
