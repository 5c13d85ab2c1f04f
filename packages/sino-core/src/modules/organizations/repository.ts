import { eq, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { organizations, type Branding } from '../../db/schema.js';

/** The SQL of an organisation's branding (`PUT /v1/organizations/branding`, emails' layouts). */
export function createOrganizationRepository(db: Database) {
  return {
    /** The organisation's name and branding, if it exists. */
    async brandingOf(
      organizationId: string,
    ): Promise<{ name: string; branding: Branding | null } | undefined> {
      const [row] = await db
        .select({ name: organizations.name, branding: organizations.branding })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return row;
    },

    /**
     * Replaces the organisation's branding with `branding`, keeping its text direction (which
     * the branding route does not set). Answers the branding stored, or undefined when the
     * organisation does not exist.
     */
    async replaceBranding(
      organizationId: string,
      branding: Omit<Branding, 'direction'>,
    ): Promise<Branding | undefined> {
      const [row] = await db
        .update(organizations)
        .set({
          branding: sql`${JSON.stringify(branding)}::jsonb || coalesce(jsonb_strip_nulls(jsonb_build_object('direction', ${organizations.branding} -> 'direction')), '{}'::jsonb)`,
          updatedAt: sql`now()`,
        })
        .where(eq(organizations.id, organizationId))
        .returning({ branding: organizations.branding });
      return row ? (row.branding ?? {}) : undefined;
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
