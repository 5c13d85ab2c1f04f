import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { auditLog } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = Omit<typeof auditLog.$inferInsert, 'id' | 'createdAt'>;

export function createAuditRepository(db: Database) {
  return {
    async add(entry: NewAuditEntry): Promise<void> {
      await db.insert(auditLog).values({ ...entry, id: newId() });
    },

    /** The organization's entries, newest first, `limit` of them after the `before` cursor. */
    page(
      organizationId: string,
      options: { limit: number; before?: { createdAt: Date; id: string } | undefined },
    ): Promise<AuditEntry[]> {
      const { before } = options;
      return db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.organizationId, organizationId),
            before &&
              or(
                lt(auditLog.createdAt, before.createdAt),
                and(eq(auditLog.createdAt, before.createdAt), lt(auditLog.id, before.id)),
              ),
          ),
        )
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(options.limit);
    },

    async byId(organizationId: string, id: string): Promise<AuditEntry | undefined> {
      const [entry] = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.organizationId, organizationId), eq(auditLog.id, id)));
      return entry;
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
