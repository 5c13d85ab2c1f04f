import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import type { Channel } from '@sino/shared';
import { messages, sandboxOutbox, type DeliveryStatus } from '../db/schema.js';
import { newId } from '../ids.js';
import type { Job } from '../engine/repository.js';

export type SandboxMail = typeof sandboxOutbox.$inferSelect;

/**
 * How far each status is along: a webhook never takes a message back (a late "sent" after
 * "delivered" is ignored), and a bounce or failure is final.
 */
const RANK: Record<DeliveryStatus, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  bounced: 3,
  failed: 3,
};

/** The statuses a webhook's `state` may move a message from. */
const movableTo = (state: DeliveryStatus) =>
  (Object.keys(RANK) as DeliveryStatus[]).filter((s) => RANK[s] < RANK[state]);

/** SQL of deliveries: the message of each email, SMS, chat and push step, and the sandbox's outbox. */
export function createDeliveryRepository(db: Database) {
  return {
    /**
     * Where the job's message stands after an attempt, in one statement: created on the
     * first, updated by the later ones (a retry, the same job run again after a crash). Its id
     * is the job's, so every attempt names the same message to the providers. A message that
     * left (sent, then maybe delivered or bounced) is never taken back to queued or failed.
     */
    async saveAttempt(input: {
      job: Job;
      channel: Exclude<Channel, 'in_app'>;
      templateIdentifier: string;
      content: string;
      subject: string | undefined;
      status: 'queued' | 'sent' | 'failed';
      integrationId: string;
      providerId: string;
      providerMessageId?: string | undefined;
      error?: string | undefined;
    }): Promise<void> {
      const { job } = input;
      const outcome = {
        deliveryStatus: input.status,
        integrationId: input.integrationId,
        providerId: input.providerId,
        providerMessageId: input.providerMessageId ?? null,
        deliveryError: input.error ?? null,
      };
      await db
        .insert(messages)
        .values({
          id: job.id,
          environmentId: job.environmentId,
          organizationId: job.organizationId,
          notificationId: job.notificationId,
          subscriberId: job.subscriberId,
          workflowId: job.workflowId,
          templateIdentifier: input.templateIdentifier,
          jobId: job.id,
          stepId: job.stepId,
          transactionId: job.transactionId,
          channel: input.channel,
          content: input.content,
          subject: input.subject ?? null,
          payload: job.payload,
          ...outcome,
        })
        .onConflictDoUpdate({
          target: messages.jobId,
          set: { ...outcome, updatedAt: sql`now()` },
          setWhere: eq(messages.deliveryStatus, 'queued'),
        });
    },

    /**
     * A provider webhook's news of a message it accepted: moves it forward only. Answers
     * whether a message of the environment had that provider id.
     */
    async applyDeliveryEvent(
      environmentId: string,
      providerId: string,
      event: { providerMessageId: string; state: DeliveryStatus; reason?: string | undefined },
    ): Promise<boolean> {
      const where = and(
        eq(messages.environmentId, environmentId),
        eq(messages.providerId, providerId),
        eq(messages.providerMessageId, event.providerMessageId),
      );
      const [found] = await db.select({ id: messages.id }).from(messages).where(where);
      if (!found) return false;
      await db
        .update(messages)
        .set({
          deliveryStatus: event.state,
          ...(event.reason && { deliveryError: event.reason }),
          updatedAt: sql`now()`,
        })
        .where(and(where, inArray(messages.deliveryStatus, movableTo(event.state))));
      return true;
    },

    /** What the sandbox providers deliver; a message delivered again lands once. */
    async putInSandbox(
      mail: Omit<typeof sandboxOutbox.$inferInsert, 'id' | 'createdAt'>,
    ): Promise<string> {
      const [row] = await db
        .insert(sandboxOutbox)
        .values({ id: newId(), ...mail })
        .onConflictDoNothing({ target: sandboxOutbox.messageId })
        .returning({ id: sandboxOutbox.id });
      if (row) return row.id;
      const [found] = await db
        .select({ id: sandboxOutbox.id })
        .from(sandboxOutbox)
        .where(eq(sandboxOutbox.messageId, mail.messageId));
      return found!.id;
    },

    /** A page of the environment's sandbox outbox, newest first; one row more tells `hasMore`. */
    async sandboxPage(
      environmentId: string,
      query: { channel?: 'email' | 'sms' | undefined; page: number; limit: number },
    ): Promise<{ items: SandboxMail[]; hasMore: boolean }> {
      const rows = await db
        .select()
        .from(sandboxOutbox)
        .where(
          and(
            eq(sandboxOutbox.environmentId, environmentId),
            query.channel ? eq(sandboxOutbox.channel, query.channel) : undefined,
          ),
        )
        .orderBy(desc(sandboxOutbox.createdAt), desc(sandboxOutbox.id))
        .offset(query.page * query.limit)
        .limit(query.limit + 1);
      return { items: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
    },

    /** Deletes what the sandbox delivered before `before`; answers how many rows went. */
    async purgeSandbox(before: Date): Promise<number> {
      const gone = await db
        .delete(sandboxOutbox)
        .where(lt(sandboxOutbox.createdAt, before))
        .returning({ id: sandboxOutbox.id });
      return gone.length;
    },

    async sandboxMail(environmentId: string, id: string): Promise<SandboxMail | undefined> {
      const [m] = await db
        .select()
        .from(sandboxOutbox)
        .where(and(eq(sandboxOutbox.environmentId, environmentId), eq(sandboxOutbox.id, id)));
      return m;
    },
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
