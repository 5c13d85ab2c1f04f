import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  erasedSubscribers,
  executionDetails,
  idempotencyKeys,
  jobs,
  notifications,
  sandboxOutbox,
  subscribers,
} from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { TombstoneKeys } from './tombstones.js';

/** What stands where an erased subscriber's data was. */
export const ERASED_MARK = '[erased]';

/**
 * Words of a detail or error up to their first `": "`, the rest replaced by the mark. What
 * follows a colon is a provider's answer, a filter's or an attachment's words: it may quote an
 * address; what precedes it is Sino's own ("SendGrid (sendgrid) failed").
 */
const redacted = (column: typeof executionDetails.detail | typeof jobs.error) =>
  sql`regexp_replace(${column}, ${':\\s.*$'}, ${`: ${ERASED_MARK}`})`;

/** The SQL of erasure: a subscriber's data deleted or redacted, its tombstone written. */
export function createErasureRepository(db: Database, tombstones: TombstoneKeys) {
  return {
    /**
     * Erases one subscriber of an environment in one transaction, and leaves its tombstone.
     * Deleted: the subscriber row with its channel credentials, its messages of every channel,
     * preferences and topic memberships (foreign keys), the sandbox outbox's copies of what was
     * sent to it, and remembered server API answers that name it. Kept without personal data:
     * its notifications, jobs and execution details (the environment's activity), with
     * payloads emptied, raw data replaced by `{erased: true}` and providers' words by the
     * mark; steps not yet run are canceled. Answers the subscriber's internal id when it had
     * a row, and the queue's ids of the steps canceled. Doing it again changes nothing.
     */
    async erase(ids: {
      environmentId: string;
      organizationId: string;
      subscriberId: string;
    }): Promise<{ subscriberId: string | null; queueJobIds: string[] }> {
      const { environmentId, subscriberId } = ids;
      // Before the transaction: the keys' first load reads the database.
      const subscriberKey = await tombstones.keyOf(environmentId, subscriberId);
      return db.transaction(async (tx) => {
        // The row, locked, or one made for the length of this transaction: a session or a
        // trigger creating the subscriber meanwhile waits on it, then finds the tombstone.
        const [row] = await tx
          .insert(subscribers)
          .values({ id: newId(), ...ids })
          .onConflictDoUpdate({
            target: [subscribers.environmentId, subscribers.subscriberId],
            set: { updatedAt: sql`now()` },
          })
          .returning({ id: subscribers.id, created: sql<boolean>`(xmax = 0)` });
        const internalId = row!.id;
        await tx
          .insert(erasedSubscribers)
          .values({ environmentId, subscriberKey })
          .onConflictDoNothing();

        const ofSubscriber = tx
          .select({ id: notifications.id })
          .from(notifications)
          .where(
            and(
              eq(notifications.environmentId, environmentId),
              eq(notifications.subscriberId, internalId),
            ),
          );
        const canceled = await tx
          .update(jobs)
          .set({ status: 'canceled', updatedAt: sql`now()` })
          .where(
            and(
              inArray(jobs.notificationId, ofSubscriber),
              inArray(jobs.status, ['pending', 'queued', 'delayed']),
            ),
          )
          .returning({ queueJobId: jobs.queueJobId });
        await tx
          .update(jobs)
          .set({ payload: {}, overrides: null, digest: null, error: redacted(jobs.error) })
          .where(inArray(jobs.notificationId, ofSubscriber));
        // A delivered message's id is its job's, and the sandbox keeps its copy under it.
        await tx
          .delete(sandboxOutbox)
          .where(
            and(
              eq(sandboxOutbox.environmentId, environmentId),
              inArray(
                sandboxOutbox.messageId,
                tx
                  .select({ id: jobs.id })
                  .from(jobs)
                  .where(inArray(jobs.notificationId, ofSubscriber)),
              ),
            ),
          );
        await tx
          .update(executionDetails)
          .set({ raw: { erased: true }, detail: redacted(executionDetails.detail) })
          .where(
            and(
              eq(executionDetails.environmentId, environmentId),
              inArray(executionDetails.notificationId, ofSubscriber),
            ),
          );
        await tx
          .update(notifications)
          .set({ payload: {} })
          .where(
            and(
              eq(notifications.environmentId, environmentId),
              eq(notifications.subscriberId, internalId),
            ),
          );
        // Answers replayed for 24 h per Idempotency-Key: an identify's holds the profile.
        const named = `"subscriberId":${JSON.stringify(subscriberId)}`;
        await tx
          .delete(idempotencyKeys)
          .where(
            and(
              eq(idempotencyKeys.environmentId, environmentId),
              isNotNull(idempotencyKeys.body),
              sql`position(${named} in ${idempotencyKeys.body}) > 0`,
            ),
          );
        // Messages, preferences and topic memberships go with the row (foreign keys cascade).
        await tx.delete(subscribers).where(eq(subscribers.id, internalId));
        return {
          subscriberId: row!.created ? null : internalId,
          queueJobIds: canceled.flatMap((c) => (c.queueJobId ? [c.queueJobId] : [])),
        };
      });
    },
  };
}

export type ErasureRepository = ReturnType<typeof createErasureRepository>;
