import { and, asc, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import type { IdentityProvider, MemberRole } from '@sino/shared';
import {
  apiKeys,
  consoleSessions,
  environments,
  members,
  organizations,
  userIdentities,
  users,
} from '../../db/schema.js';
import { isId, newId } from '../../ids.js';

export type User = typeof users.$inferSelect;
export type Member = typeof members.$inferSelect;
export type ConsoleSession = typeof consoleSessions.$inferSelect;

/** What a console request acts with: the person, their role in the organization, where. */
export interface ConsoleContext {
  user: User;
  role: MemberRole;
  organizationId: string;
  environment: typeof environments.$inferSelect;
}

export function createAccountRepository(db: Database) {
  /** The organization's admins other than `userId` (exists: `userId` is not the last admin). */
  const otherAdminsThan = (organizationId: string, userId: string) =>
    db
      .select({ one: sql`1` })
      .from(members)
      .where(
        and(
          eq(members.organizationId, organizationId),
          eq(members.role, 'admin'),
          ne(members.userId, userId),
        ),
      );

  return {
    async userByEmail(email: string): Promise<User | undefined> {
      const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
      return user;
    },

    async userById(id: string): Promise<User | undefined> {
      if (!isId(id)) return undefined;
      const [user] = await db.select().from(users).where(eq(users.id, id));
      return user;
    },

    async createUser(values: Omit<typeof users.$inferInsert, 'id'>): Promise<User> {
      const [user] = await db
        .insert(users)
        .values({ ...values, id: newId(), email: values.email.toLowerCase() })
        .returning();
      return user!;
    },

    /** The person a GitHub or Google account is linked to. */
    async userByIdentity(
      provider: IdentityProvider,
      providerUserId: string,
    ): Promise<User | undefined> {
      const [row] = await db
        .select({ user: users })
        .from(userIdentities)
        .innerJoin(users, eq(users.id, userIdentities.userId))
        .where(
          and(
            eq(userIdentities.provider, provider),
            eq(userIdentities.providerUserId, providerUserId),
          ),
        );
      return row?.user;
    },

    /**
     * Links a GitHub or Google account to a person; false when it is already another's (two
     * sign-ins of the same new account at once).
     */
    async linkIdentity(
      userId: string,
      provider: IdentityProvider,
      providerUserId: string,
    ): Promise<boolean> {
      await db
        .insert(userIdentities)
        .values({ provider, providerUserId, userId })
        .onConflictDoNothing();
      return (await this.userByIdentity(provider, providerUserId))?.id === userId;
    },

    /** A new person and their GitHub or Google account, together or not at all. */
    async createUserWithIdentity(
      values: Omit<typeof users.$inferInsert, 'id'>,
      identity: { provider: IdentityProvider; providerUserId: string },
    ): Promise<User> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ ...values, id: newId(), email: values.email.toLowerCase() })
          .returning();
        await tx.insert(userIdentities).values({ ...identity, userId: user!.id });
        return user!;
      });
    },

    async addMember(organizationId: string, userId: string, role: MemberRole): Promise<void> {
      await db.insert(members).values({ organizationId, userId, role }).onConflictDoNothing();
    },

    /** The person's organizations, oldest membership first, with their role in each. */
    organizationsOf(userId: string) {
      return db
        .select({ organization: organizations, role: members.role })
        .from(members)
        .innerJoin(organizations, eq(organizations.id, members.organizationId))
        .where(eq(members.userId, userId))
        .orderBy(asc(members.createdAt), asc(members.organizationId));
    },

    /** The organization's members with their accounts, oldest first. */
    membersOf(organizationId: string) {
      return db
        .select({ user: users, role: members.role, since: members.createdAt })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(eq(members.organizationId, organizationId))
        .orderBy(asc(members.createdAt), asc(users.id));
    },

    async adminCount(organizationId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(members)
        .where(and(eq(members.organizationId, organizationId), eq(members.role, 'admin')));
      return row?.n ?? 0;
    },

    /**
     * Sets a member's role, unless that would leave the organization without an admin: one
     * statement, so two admins demoting each other at once cannot both succeed.
     */
    async setRole(
      organizationId: string,
      userId: string,
      role: MemberRole,
    ): Promise<'changed' | 'missing' | 'last-admin'> {
      if (!isId(userId)) return 'missing';
      const otherAdmins = otherAdminsThan(organizationId, userId);
      const rows = await db
        .update(members)
        .set({ role })
        .where(
          and(
            eq(members.organizationId, organizationId),
            eq(members.userId, userId),
            role === 'admin' ? sql`true` : sql`exists (${otherAdmins})`,
          ),
        )
        .returning({ userId: members.userId });
      if (rows.length > 0) return 'changed';
      return (await this.roleOf(organizationId, userId)) ? 'last-admin' : 'missing';
    },

    /** Removes a member, unless they are the organization's last admin (one statement). */
    async removeMember(
      organizationId: string,
      userId: string,
    ): Promise<'removed' | 'missing' | 'last-admin'> {
      if (!isId(userId)) return 'missing';
      const otherAdmins = otherAdminsThan(organizationId, userId);
      const rows = await db
        .delete(members)
        .where(
          and(
            eq(members.organizationId, organizationId),
            eq(members.userId, userId),
            sql`(${members.role} <> 'admin' or exists (${otherAdmins}))`,
          ),
        )
        .returning({ userId: members.userId });
      if (rows.length > 0) return 'removed';
      return (await this.roleOf(organizationId, userId)) ? 'last-admin' : 'missing';
    },

    async roleOf(organizationId: string, userId: string): Promise<MemberRole | undefined> {
      const [row] = await db
        .select({ role: members.role })
        .from(members)
        .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
      return row?.role;
    },

    async createSession(values: {
      userId: string;
      refreshHash: string;
      expiresAt: Date;
      organizationId: string;
      environmentId: string;
    }) {
      const [session] = await db
        .insert(consoleSessions)
        .values({ id: newId(), ...values })
        .returning();
      return session!;
    },

    /** Where a valid session works from now on (a switch of organization or environment). */
    async moveSession(id: string, organizationId: string, environmentId: string) {
      await db
        .update(consoleSessions)
        .set({ organizationId, environmentId })
        .where(and(eq(consoleSessions.id, id), isNull(consoleSessions.revokedAt)));
    },

    /** The organization's environment `id`, if it is one of its. */
    async environmentOf(organizationId: string, id: string) {
      if (!isId(id)) return undefined;
      const [environment] = await db
        .select()
        .from(environments)
        .where(and(eq(environments.id, id), eq(environments.organizationId, organizationId)));
      return environment;
    },

    /**
     * Swaps a valid session's refresh token for the next one, in one statement: a token used
     * twice (stolen and replayed) finds nothing the second time.
     */
    async rotateSession(refreshHash: string, nextHash: string, expiresAt: Date) {
      const [session] = await db
        .update(consoleSessions)
        .set({ refreshHash: nextHash, expiresAt })
        .where(
          and(
            eq(consoleSessions.refreshHash, refreshHash),
            isNull(consoleSessions.revokedAt),
            gt(consoleSessions.expiresAt, sql`now()`),
          ),
        )
        .returning();
      return session;
    },

    async revokeSession(id: string): Promise<void> {
      await db
        .update(consoleSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(consoleSessions.id, id), isNull(consoleSessions.revokedAt)));
    },

    /** Ends the refresh token's session; answers its id (undefined when none was open). */
    async revokeByRefresh(refreshHash: string): Promise<string | undefined> {
      const [row] = await db
        .update(consoleSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(consoleSessions.refreshHash, refreshHash), isNull(consoleSessions.revokedAt)))
        .returning({ id: consoleSessions.id });
      return row?.id;
    },

    /**
     * What an access token opens, read fresh at every request: its session still valid, the
     * person active and a member of the organization (with their role now), the environment
     * one of the organization's. One query.
     */
    async context(claims: {
      sessionId: string;
      userId: string;
      organizationId: string;
      environmentId: string;
    }): Promise<ConsoleContext | undefined> {
      if (
        ![claims.sessionId, claims.userId, claims.organizationId, claims.environmentId].every(isId)
      )
        return undefined;
      const [row] = await db
        .select({ user: users, role: members.role, environment: environments })
        .from(consoleSessions)
        .innerJoin(users, eq(users.id, consoleSessions.userId))
        .innerJoin(
          members,
          and(eq(members.userId, users.id), eq(members.organizationId, claims.organizationId)),
        )
        .innerJoin(
          environments,
          and(
            eq(environments.id, claims.environmentId),
            eq(environments.organizationId, claims.organizationId),
          ),
        )
        .where(
          and(
            eq(consoleSessions.id, claims.sessionId),
            eq(consoleSessions.userId, claims.userId),
            isNull(consoleSessions.revokedAt),
            gt(consoleSessions.expiresAt, sql`now()`),
            inArray(users.status, ['active', 'new']),
          ),
        );
      return row && { ...row, organizationId: claims.organizationId };
    },

    /** The organization's first environment (Development), where a sign-in lands. */
    async firstEnvironment(organizationId: string) {
      const [environment] = await db
        .select()
        .from(environments)
        .where(eq(environments.organizationId, organizationId))
        .orderBy(asc(environments.createdAt), asc(environments.id))
        .limit(1);
      return environment;
    },

    /** The organization's API keys that belong to nobody now belong to `userId`. */
    async claimOwnerlessKeys(organizationId: string, userId: string): Promise<void> {
      await db
        .update(apiKeys)
        .set({ userId })
        .where(
          and(
            isNull(apiKeys.userId),
            inArray(
              apiKeys.environmentId,
              db
                .select({ id: environments.id })
                .from(environments)
                .where(eq(environments.organizationId, organizationId)),
            ),
          ),
        );
    },

    /** Organizations without an admin who can sign in (an installation from before people). */
    organizationsWithoutAdmin() {
      return db
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .where(
          sql`not exists (select 1 from ${members} m where m.organization_id = ${organizations.id} and m.role = 'admin')`,
        )
        .orderBy(asc(organizations.createdAt));
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
