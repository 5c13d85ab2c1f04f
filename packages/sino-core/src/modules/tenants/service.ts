import { conflict, notFound } from '../../errors.js';
import type { Scope } from '../subscribers/service.js';
import type { Tenant, TenantChanges, TenantRepository } from './repository.js';

/** Tenants of the server API (`/v1/tenants`): the `tenant` a trigger may name. */
export function createTenantService(deps: { tenants: TenantRepository }) {
  const repo = deps.tenants;

  const missing = (scope: Scope, identifier: string) =>
    notFound(`Tenant with identifier: ${identifier} does not exist under environment ${scope.id}`);
  const taken = (scope: Scope, identifier: string) =>
    conflict(`Tenant with identifier: ${identifier} already exists under environment ${scope.id}`);

  return {
    page: (scope: Scope, page: number, limit: number) => repo.page(scope.id, page, limit),

    async get(scope: Scope, identifier: string): Promise<Tenant> {
      const tenant = await repo.tenantByIdentifier(scope.id, identifier);
      if (!tenant) throw missing(scope, identifier);
      return tenant;
    },

    async create(
      scope: Scope,
      fields: { identifier: string; name: string; data?: Record<string, unknown> | undefined },
    ): Promise<Tenant> {
      const tenant = await repo.create(scope.id, fields);
      if (!tenant) throw taken(scope, fields.identifier);
      return tenant;
    },

    /** The given fields; a new `identifier` must be free in the environment. */
    async update(scope: Scope, identifier: string, changes: TenantChanges): Promise<Tenant> {
      const result = await repo.update(scope.id, identifier, changes);
      if (result === 'taken') throw taken(scope, changes.identifier!);
      if (!result) throw missing(scope, identifier);
      return result;
    },

    async remove(scope: Scope, identifier: string): Promise<void> {
      if (!(await repo.remove(scope.id, identifier))) throw missing(scope, identifier);
    },

    /** The environment's tenant of that identifier, if any (the engine's `tenant` lookup). */
    tenantByIdentifier: (environmentId: string, identifier: string) =>
      repo.tenantByIdentifier(environmentId, identifier),
  };
}

export type TenantService = ReturnType<typeof createTenantService>;
