import { and, asc, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import type { MemberRole } from '@sino/shared';
import {
  accountTokens,
  apiKeys,
  consoleSessions,
  environments,
  members,
  organizations,
  users,
} from '../../db/schema.js';
import { isId, newId } from '../../ids.js';

export type AccountToken = typeof accountTokens.$inferSelect;
export type TokenPurpose = AccountToken['purpose'];

/**
 * The SQL of invitations, sign-up, password resets, e-mail verification and erasure: the
 * single-use tokens of the console's mails (kept as SHA-256 only) and what using one changes.
 */
export function createPeopleRepository(db: Database) {
  const valid = and(isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, sql`now()`));

  return {
    async addToken(values: {
      purpose: TokenPurpose;
      tokenHash: string;
      email: string;
      expiresAt: Date;
      organizationId?: string;
      role?: MemberRole;
      invitedBy?: string;
      userId?: string;
    }): Promise<AccountToken> {
      const [row] = await db
        .insert(accountTokens)
        .values({ ...values, id: newId(), email: values.email.toLowerCase() })
        .returning();
      return row!;
    },

    /**
     * A reset or verification token for `userId`, unless one of that purpose was made less
     * than `seconds` ago: one statement, so two requests at once make one token.
     */
    async addTokenUnlessRecent(
      purpose: 'password_reset' | 'email_verification',
      values: { tokenHash: string; email: string; expiresAt: Date; userId: string },
      seconds: number,
    ): Promise<boolean> {
      const rows = await db.execute(sql`
        insert into ${accountTokens} (id, purpose, token_hash, email, user_id, expires_at)
        select ${newId()}, ${purpose}, ${values.tokenHash}, ${values.email.toLowerCase()},
               ${values.userId}, ${values.expiresAt.toISOString()}::timestamptz
        where not exists (
          select 1 from ${accountTokens}
          where user_id = ${values.userId} and purpose = ${purpose}
            and created_at > now() - make_interval(secs => ${seconds}))
        returning id`);
      return rowsOf(rows).length > 0;
    },

    /** A token still valid (unused, not expired), without using it: the accept page's read. */
    async peekToken(purpose: TokenPurpose, tokenHash: string): Promise<AccountToken | undefined> {
      const [row] = await db
        .select()
        .from(accountTokens)
        .where(
          and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose), valid),
        );
      return row;
    },

    /** Any token with that hash, used or expired included (to tell 400 from 404). */
    async tokenByHash(purpose: TokenPurpose, tokenHash: string) {
      const [row] = await db
        .select()
        .from(accountTokens)
        .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose)));
      return row;
    },

    /**
     * Uses a token: one UPDATE that finds it only while unused and unexpired, so a replay or a
     * second request racing the first finds nothing.
     */
    async consumeToken(
      purpose: TokenPurpose,
      tokenHash: string,
      email?: string,
    ): Promise<AccountToken | undefined> {
      const [row] = await db
        .update(accountTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(accountTokens.tokenHash, tokenHash),
            eq(accountTokens.purpose, purpose),
            valid,
            email === undefined ? undefined : eq(accountTokens.email, email.toLowerCase()),
          ),
        )
        .returning();
      return row;
    },

    /** Gives a token back after what using it had to do failed (the account exists already). */
    async releaseToken(id: string): Promise<void> {
      await db.update(accountTokens).set({ usedAt: null }).where(eq(accountTokens.id, id));
    },

    /** The organization's invitations not yet accepted, revoked nor expired, newest first. */
    pendingInvitations(organizationId: string) {
      return db
        .select({ invitation: accountTokens, inviterFirstName: users.firstName })
        .from(accountTokens)
        .leftJoin(users, eq(users.id, accountTokens.invitedBy))
        .where(
          and(
            eq(accountTokens.organizationId, organizationId),
            eq(accountTokens.purpose, 'invitation'),
            valid,
          ),
        )
        .orderBy(desc(accountTokens.createdAt), desc(accountTokens.id));
    },

    /** Revokes a pending invitation of the organization (its link opens nothing after). */
    async revokeInvitation(organizationId: string, id: string): Promise<AccountToken | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .update(accountTokens)
        .set({ usedAt: sql`now()`, expiresAt: sql`now()` })
        .where(
          and(
            eq(accountTokens.id, id),
            eq(accountTokens.organizationId, organizationId),
            eq(accountTokens.purpose, 'invitation'),
            valid,
          ),
        )
        .returning();
      return row;
    },

    async organizationName(id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, id));
      return row?.name;
    },

    /** The address is verified and the account active (a verification link was used). */
    async markVerified(userId: string): Promise<void> {
      await db
        .update(users)
        .set({
          emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
          status: 'active',
          updatedAt: sql`now()`,
        })
        .where(and(eq(users.id, userId), ne(users.status, 'invited')));
    },

    /** Ends every console session of the person (their access tokens stop at once). */
    async revokeSessionsOf(userId: string): Promise<void> {
      await db
        .update(consoleSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt)));
    },

    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, userId));
    },

    /**
     * Erases a person, unless they are the last admin of an organization that has other
     * members. One transaction: their API keys go to another admin of the key's organization
     * (the oldest), or are revoked where there is none; then the user row goes, and with it
     * (cascades) memberships, identities, sessions and their own tokens. Answers the
     * organizations they belonged to, or 'last-admin'.
     */
    async erase(userId: string): Promise<string[] | 'last-admin' | 'missing'> {
      if (!isId(userId)) return 'missing';
      return db.transaction(async (tx) => {
        // Locks the person's memberships' organizations against a concurrent demotion.
        const mine = await tx
          .select({ organizationId: members.organizationId, role: members.role })
          .from(members)
          .where(eq(members.userId, userId))
          .orderBy(asc(members.organizationId))
          .for('update');
        const blocked = await tx.execute(sql`
          select 1 from ${members} m
          where m.user_id = ${userId} and m.role = 'admin'
            and not exists (select 1 from ${members} o
              where o.organization_id = m.organization_id and o.role = 'admin' and o.user_id <> ${userId})
            and exists (select 1 from ${members} o
              where o.organization_id = m.organization_id and o.user_id <> ${userId})
          limit 1`);
        if (rowsOf(blocked).length > 0) return 'last-admin';
        // Keys move to another admin of the key's organization, the oldest.
        await tx.execute(sql`
          update ${apiKeys} k set user_id = (
            select m.user_id from ${members} m
            join ${environments} e on e.organization_id = m.organization_id
            where e.id = k.environment_id and m.role = 'admin' and m.user_id <> ${userId}
            order by m.created_at, m.user_id limit 1)
          where k.user_id = ${userId}
            and exists (select 1 from ${members} m
              join ${environments} e on e.organization_id = m.organization_id
              where e.id = k.environment_id and m.role = 'admin' and m.user_id <> ${userId})`);
        // The others (no other admin there) stop working now.
        await tx
          .update(apiKeys)
          .set({
            userId: null,
            revokedAt: sql`least(coalesce(${apiKeys.revokedAt}, now()), now())`,
          })
          .where(eq(apiKeys.userId, userId));
        const deleted = await tx
          .delete(users)
          .where(eq(users.id, userId))
          .returning({ id: users.id });
        if (deleted.length === 0) return 'missing';
        return mine.map((m) => m.organizationId);
      });
    },
  };
}

/** Raw SQL answers `rows` on both drivers (PGlite and node-postgres). */
const rowsOf = (result: unknown): unknown[] => (result as { rows?: unknown[] }).rows ?? [];

export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
