import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { plannedSql, type Database } from '@locadora/db';
import type { Channel } from '@sino/shared';
import {
  executionDetails,
  messages,
  sandboxOutbox,
  webhookNonces,
  type DeliveryStatus,
} from '../db/schema.js';
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

/** The execution detail of a webhook's move, in words. */
const WEBHOOK_DETAIL: Record<DeliveryStatus, (providerId: string, reason?: string) => string> = {
  queued: (p) => `Queued, as ${p}'s delivery webhook reports`,
  sent: (p) => `Sent, as ${p}'s delivery webhook reports`,
  delivered: (p) => `Delivered to the recipient, as ${p}'s delivery webhook reports`,
  bounced: (p, reason) =>
    `Bounced, as ${p}'s delivery webhook reports${reason ? `: ${reason}` : ''}`,
  failed: (p, reason) => `Failed, as ${p}'s delivery webhook reports${reason ? `: ${reason}` : ''}`,
};

/** The statuses a webhook's `state` may move a message from. */
const movableTo = (state: DeliveryStatus) =>
  (Object.keys(RANK) as DeliveryStatus[]).filter((s) => RANK[s] < RANK[state]);

/** A provider webhook's news of one message, as adapters read it. */
export interface DeliveryNews {
  providerMessageId: string;
  state: DeliveryStatus;
  reason?: string | undefined;
}

/** A message a webhook moved, and where to (what delivery analytics and the console hear). */
export interface MovedMessage {
  id: string;
  channel: Channel;
  state: DeliveryStatus;
}

/** Where a job's message stands after a delivery attempt. */
export interface DeliveryAttempt {
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
}

/** Expired webhook nonces are deleted at most this often per process. */
const NONCE_PURGE_EVERY_MS = 60_000;

/** SQL of deliveries: the message of each email, SMS, chat and push step, and the sandbox's outbox. */
export function createDeliveryRepository(db: Database) {
  let lastNoncePurge = 0;
  /**
   * Moves the message forward only (a late "sent" after "delivered" changes nothing) and logs
   * the move in its job's execution details, source Webhook, so the activity feed shows what
   * the provider reported and when (Novu's webhook events in the Activity Feed). Answers the
   * message when it moved.
   */
  const moveForward = async (
    executor: Pick<Database, 'update' | 'insert'>,
    providerId: string,
    where: ReturnType<typeof and>,
    event: DeliveryNews,
  ): Promise<MovedMessage[]> => {
    const moved = await executor
      .update(messages)
      .set({
        deliveryStatus: event.state,
        ...(event.reason && { deliveryError: event.reason }),
        updatedAt: sql`now()`,
      })
      .where(and(where, inArray(messages.deliveryStatus, movableTo(event.state))))
      .returning({
        id: messages.id,
        channel: messages.channel,
        environmentId: messages.environmentId,
        organizationId: messages.organizationId,
        notificationId: messages.notificationId,
        jobId: messages.jobId,
        subscriberId: messages.subscriberId,
        transactionId: messages.transactionId,
        stepId: messages.stepId,
      });
    if (moved.length > 0)
      await executor.insert(executionDetails).values(
        moved.map((m) => ({
          id: newId(),
          environmentId: m.environmentId,
          organizationId: m.organizationId,
          notificationId: m.notificationId,
          jobId: m.jobId,
          subscriberId: m.subscriberId,
          transactionId: m.transactionId,
          stepId: m.stepId,
          channel: m.channel,
          detail: WEBHOOK_DETAIL[event.state](providerId, event.reason),
          status:
            event.state === 'bounced' || event.state === 'failed'
              ? ('Failed' as const)
              : ('Success' as const),
          source: 'Webhook' as const,
          raw: {
            providerId,
            providerMessageId: event.providerMessageId,
            state: event.state,
            ...(event.reason && { reason: event.reason }),
          },
        })),
      );
    return moved.map((m) => ({ id: m.id, channel: m.channel, state: event.state }));
  };

  return {
    /**
     * Where the job's message stands after an attempt, in one statement: created on the
     * first, updated by the later ones (a retry, the same job run again after a crash). Its id
     * is the job's, so every attempt names the same message to the providers. A message that
     * left (sent, then maybe delivered or bounced) is never taken back to queued or failed.
     */
    async saveAttempt(input: DeliveryAttempt): Promise<void> {
      await this.saveAttempts([input]);
    },

    /**
     * `saveAttempt` for several jobs in one statement. A job named twice in the set fails the
     * statement (a row cannot be changed twice by one statement): the caller writes such a set
     * one attempt at a time.
     */
    async saveAttempts(attempts: readonly DeliveryAttempt[]): Promise<void> {
      if (attempts.length === 0) return;
      await saveAttemptsStatement.execute(db, {
        rows: JSON.stringify(
          attempts.map(({ job, ...input }) => ({
            id: job.id,
            environment_id: job.environmentId,
            organization_id: job.organizationId,
            notification_id: job.notificationId,
            subscriber_id: job.subscriberId,
            workflow_id: job.workflowId,
            template_identifier: input.templateIdentifier,
            job_id: job.id,
            step_id: job.stepId,
            transaction_id: job.transactionId,
            channel: input.channel,
            content: input.content,
            subject: input.subject ?? null,
            payload: job.payload,
            delivery_status: input.status,
            integration_id: input.integrationId,
            provider_id: input.providerId,
            provider_message_id: input.providerMessageId ?? null,
            delivery_error: input.error ?? null,
          })),
        ),
      });
    },

    /**
     * A provider webhook's news of a message it accepted: moves it forward only. Answers
     * undefined when no message of the environment had that provider id, else what moved.
     */
    async applyDeliveryEvent(
      environmentId: string,
      providerId: string,
      event: DeliveryNews,
    ): Promise<MovedMessage[] | undefined> {
      const where = and(
        eq(messages.environmentId, environmentId),
        eq(messages.providerId, providerId),
        eq(messages.providerMessageId, event.providerMessageId),
      );
      const [found] = await db.select({ id: messages.id }).from(messages).where(where);
      if (!found) return undefined;
      return db.transaction((tx) => moveForward(tx, providerId, where, event));
    },

    /**
     * A webhook that came to one message's own callback URL, in one transaction: its events
     * must name that message (`foreign` otherwise, nothing written), the signature's nonce is
     * taken (`replayed` when it was before: kept until `keepNonceUntil`, when the URL is no
     * longer read), and the message moves forward. Answers how many events matched it, and
     * each move.
     */
    async applyCallbackEvents(input: {
      environmentId: string;
      providerId: string;
      messageId: string;
      nonce: string | undefined;
      keepNonceUntil: Date;
      events: DeliveryNews[];
    }): Promise<
      | { kind: 'applied'; matched: number; moved: MovedMessage[] }
      | { kind: 'replayed' }
      | { kind: 'foreign' }
    > {
      if (Date.now() - lastNoncePurge >= NONCE_PURGE_EVERY_MS) {
        lastNoncePurge = Date.now();
        await db.delete(webhookNonces).where(lt(webhookNonces.expiresAt, sql`now()`));
      }
      const where = and(
        eq(messages.id, input.messageId),
        eq(messages.environmentId, input.environmentId),
        eq(messages.providerId, input.providerId),
      );
      return db.transaction(async (tx) => {
        const [message] = await tx
          .select({ providerMessageId: messages.providerMessageId })
          .from(messages)
          .where(where);
        // Before the provider's id is saved (a callback faster than the send's answer), the
        // events cannot be matched; after, one naming another message is not the provider's.
        const known = message?.providerMessageId;
        if (known && input.events.some((e) => e.providerMessageId !== known))
          return { kind: 'foreign' as const };
        if (input.nonce !== undefined) {
          const taken = await tx
            .insert(webhookNonces)
            .values({
              environmentId: input.environmentId,
              providerId: input.providerId,
              nonce: input.nonce,
              expiresAt: input.keepNonceUntil,
            })
            .onConflictDoNothing()
            .returning({ nonce: webhookNonces.nonce });
          if (taken.length === 0) return { kind: 'replayed' as const };
        }
        if (!known) return { kind: 'applied' as const, matched: 0, moved: [] };
        const moved: MovedMessage[] = [];
        for (const event of input.events)
          moved.push(...(await moveForward(tx, input.providerId, where, event)));
        return { kind: 'applied' as const, matched: input.events.length, moved };
      });
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

/**
 * The message rows of delivery attempts (a JSON array, column names as keys), one statement
 * whatever their number, its text built once (Drizzle's insert builder rebuilt it at every
 * call, a sixth of the server's CPU per e-mail in bench:vazao). A job's row already there
 * takes the newer outcome only while it is still queued (decision 036).
 */
const saveAttemptsStatement = plannedSql(
  sql`
    insert into ${messages} (id, environment_id, organization_id, notification_id, subscriber_id,
      workflow_id, template_identifier, job_id, step_id, transaction_id, channel, content,
      subject, payload, delivery_status, integration_id, provider_id, provider_message_id,
      delivery_error)
    select m.id, m.environment_id, m.organization_id, m.notification_id, m.subscriber_id,
      m.workflow_id, m.template_identifier, m.job_id, m.step_id, m.transaction_id, m.channel,
      m.content, m.subject, coalesce(m.payload, '{}'::jsonb), m.delivery_status,
      m.integration_id, m.provider_id, m.provider_message_id, m.delivery_error
    from jsonb_populate_recordset(null::${messages}, ${sql.placeholder('rows')}::jsonb) as m
    on conflict (job_id) do update set
      delivery_status = excluded.delivery_status,
      integration_id = excluded.integration_id,
      provider_id = excluded.provider_id,
      provider_message_id = excluded.provider_message_id,
      delivery_error = excluded.delivery_error,
      updated_at = now()
    where ${messages.deliveryStatus} = 'queued'`,
);
