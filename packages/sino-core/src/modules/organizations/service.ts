import type { Branding } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { EnvironmentRef } from '../workflows/service.js';
import type { OrganizationRepository } from './repository.js';
import type { BrandingBody } from './schemas.js';

/** The organisation of the server API's key: its branding (`/v1/organizations/branding`). */
export function createOrganizationService(deps: {
  organizations: OrganizationRepository;
  /** Told after the branding changed (the emails' copies of it, on every node), and awaited. */
  changed?: () => Promise<void>;
}) {
  const changed = deps.changed ?? (() => Promise.resolve());
  return {
    /**
     * Replaces the branding as Novu 0.24 does (a field not given is no longer set); the text
     * direction, which this route does not take, is kept.
     */
    async updateBranding(env: EnvironmentRef, body: BrandingBody): Promise<Branding> {
      const branding = Object.fromEntries(
        Object.entries(body).filter(([, v]) => v !== undefined && v !== null),
      ) as Omit<Branding, 'direction'>;
      const stored = await deps.organizations.replaceBranding(env.organizationId, branding);
      if (!stored) throw notFound('Organization not found');
      await changed();
      return stored;
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
