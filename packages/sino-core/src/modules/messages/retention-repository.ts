import { and, asc, eq, gt, gte, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  environments,
  executionDetails,
  inInboxOf,
  jobs,
  messages,
  notifications,
  sandboxOutbox,
  transactions,
} from '../../db/schema.js';
import { FINAL_STATUSES } from '../../engine/repository.js';

/** Where a purge of one environment stands: the last notification a batch took. */
export interface RetentionCursor {
  createdAt: Date;
  id: string;
}

/** A subscriber whose inbox counts a batch lowered: its in-app messages went, unseen or unread. */
export interface CountsChanged {
  environmentId: string;
  /** The subscriber's internal id. */
  subscriberId: string;
  unseen: boolean;
  unread: boolean;
}

/** What one batch deleted. */
export interface PurgedBatch {
  notifications: number;
  messages: number;
  executionDetails: number;
  /** Where the next batch of this environment starts; null when the batch took nothing. */
  cursor: RetentionCursor | null;
  countsChanged: CountsChanged[];
}

/**
 * The SQL of message retention: a notification past the retention goes with everything it made
 * (its jobs, messages of every channel, execution details, the sandbox outbox's copies) once
 * none of its steps is still to run and none of its messages is newer than the cutoff.
 */
export function createRetentionRepository(db: Database) {
  return {
    /** Every environment's id: a purge walks them one at a time, on their own index. */
    async environmentIds(): Promise<string[]> {
      const rows = await db
        .select({ id: environments.id })
        .from(environments)
        .orderBy(asc(environments.id));
      return rows.map((r) => r.id);
    },

    /**
     * Deletes up to `limit` of the environment's notifications created before `before` (after
     * `after`, oldest first), in one short transaction. Rows another transaction holds are
     * skipped, not waited for (a purge running on two nodes at once takes each row once).
     * Digest events merged into a running digest live in the digest's own job, so a merged
     * notification may go before its digest does.
     */
    async purgeBatch(
      environmentId: string,
      before: Date,
      after: RetentionCursor | null,
      limit: number,
    ): Promise<PurgedBatch> {
      return db.transaction(async (tx) => {
        const stillRunning = tx
          .select({ one: sql`1` })
          .from(jobs)
          .where(
            and(eq(jobs.notificationId, notifications.id), notInArray(jobs.status, FINAL_STATUSES)),
          );
        // Through the message's job: messages have no index on their notification.
        const recentMessage = tx
          .select({ one: sql`1` })
          .from(jobs)
          .innerJoin(messages, eq(messages.jobId, jobs.id))
          .where(and(eq(jobs.notificationId, notifications.id), gte(messages.createdAt, before)));
        const taken = await tx
          .select({ id: notifications.id, createdAt: notifications.createdAt })
          .from(notifications)
          .where(
            and(
              eq(notifications.environmentId, environmentId),
              lt(notifications.createdAt, before),
              after
                ? or(
                    gt(notifications.createdAt, after.createdAt),
                    and(
                      eq(notifications.createdAt, after.createdAt),
                      gt(notifications.id, after.id),
                    ),
                  )
                : undefined,
              sql`not exists (${stillRunning})`,
              sql`not exists (${recentMessage})`,
            ),
          )
          .orderBy(asc(notifications.createdAt), asc(notifications.id))
          .limit(limit)
          .for('update', { skipLocked: true });
        const last = taken.at(-1);
        if (!last)
          return {
            notifications: 0,
            messages: 0,
            executionDetails: 0,
            cursor: null,
            countsChanged: [],
          };
        const ids = taken.map((n) => n.id);
        const jobIds = tx
          .select({ id: jobs.id })
          .from(jobs)
          .where(inArray(jobs.notificationId, ids));
        const goneMessages = await tx
          .delete(messages)
          .where(inArray(messages.jobId, jobIds))
          .returning({
            id: messages.id,
            environmentId: messages.environmentId,
            subscriberId: messages.subscriberId,
            counted: sql<boolean>`${messages.channel} = 'in_app' and ${inInboxOf(messages)}`,
            seen: messages.seen,
            read: messages.read,
          });
        if (goneMessages.length > 0)
          await tx.delete(sandboxOutbox).where(
            inArray(
              sandboxOutbox.messageId,
              goneMessages.map((m) => m.id),
            ),
          );
        const goneDetails = await tx
          .delete(executionDetails)
          .where(inArray(executionDetails.notificationId, ids))
          .returning({ id: executionDetails.id });
        // Their jobs go with them (the foreign key cascades).
        const goneNotifications = await tx
          .delete(notifications)
          .where(inArray(notifications.id, ids))
          .returning({ transactionId: notifications.transactionId });
        // A trigger's transactionId is free again once its last notification is gone.
        const transactionIds = [...new Set(goneNotifications.map((n) => n.transactionId))];
        await tx
          .delete(transactions)
          .where(
            and(
              eq(transactions.environmentId, environmentId),
              inArray(transactions.transactionId, transactionIds),
              sql`not exists (select 1 from ${notifications} where ${notifications.environmentId} = ${transactions.environmentId} and ${notifications.transactionId} = ${transactions.transactionId})`,
            ),
          );
        return {
          notifications: goneNotifications.length,
          messages: goneMessages.length,
          executionDetails: goneDetails.length,
          cursor: { createdAt: last.createdAt, id: last.id },
          countsChanged: countsChangedBy(goneMessages),
        };
      });
    },
  };
}

/** Per subscriber, whether its unseen and unread counts held any of the deleted messages. */
function countsChangedBy(
  gone: {
    environmentId: string;
    subscriberId: string;
    counted: boolean;
    seen: boolean;
    read: boolean;
  }[],
): CountsChanged[] {
  const bySubscriber = new Map<string, CountsChanged>();
  for (const m of gone) {
    if (!m.counted || (m.seen && m.read)) continue;
    const changed = bySubscriber.get(m.subscriberId) ?? {
      environmentId: m.environmentId,
      subscriberId: m.subscriberId,
      unseen: false,
      unread: false,
    };
    changed.unseen ||= !m.seen;
    changed.unread ||= !m.read;
    bySubscriber.set(m.subscriberId, changed);
  }
  return [...bySubscriber.values()];
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
