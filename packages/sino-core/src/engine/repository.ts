import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { preparedSql, type Database } from '@locadora/db';
import type { JobStatus } from '@sino/shared';
import {
  executionDetails,
  jobs,
  messages,
  notifications,
  subscriberPreferences,
  subscribers,
  transactions,
  workflowSteps,
  workflows,
} from '../db/schema.js';
import { newId } from '../ids.js';
import type { PreferenceRow } from '../modules/preferences/resolve.js';

export type Workflow = typeof workflows.$inferSelect;
export type WorkflowStep = typeof workflowSteps.$inferSelect;
export type Job = typeof jobs.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type NewExecutionDetail = Omit<typeof executionDetails.$inferInsert, 'id'>;

/** A subscriber's preference rows that bear on one workflow: its own, and the global one. */
export interface SubscriberPreferences {
  workflow: PreferenceRow | undefined;
  global: PreferenceRow | undefined;
}

/** How a claimed (environment, transactionId) pair is named in `claimTransactions`' answer. */
export const claimKey = (environmentId: string, transactionId: string) =>
  `${environmentId}\u0000${transactionId}`;

/** Statuses after which a job never runs again. */
export const FINAL_STATUSES: JobStatus[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/** The SQL of the workflow engine: workflows as triggers see them, jobs, execution details. */
export function createEngineRepository(db: Database) {
  // The statements every trigger runs are prepared (built once here, parsed and planned once
  // per connection by PostgreSQL), on first use by this repository.
  const withSteps = (where: SQL) =>
    db
      .select({ workflow: workflows, step: workflowSteps })
      .from(workflows)
      .leftJoin(workflowSteps, eq(workflowSteps.workflowId, workflows.id))
      .where(where)
      .orderBy(asc(workflowSteps.position));
  const statements = {
    workflowById: () =>
      withSteps(eq(workflows.id, sql.placeholder('workflowId'))).prepare('sino_workflow_by_id'),
    workflowForTrigger: () =>
      withSteps(
        and(
          eq(workflows.environmentId, sql.placeholder('environmentId')),
          eq(workflows.identifier, sql.placeholder('identifier')),
          isNull(workflows.deletedAt),
        )!,
      ).prepare('sino_workflow_for_trigger'),
    transition: () =>
      db
        .update(jobs)
        .set({ status: sql`${sql.placeholder('status')}`, updatedAt: sql`now()` })
        .where(
          and(
            eq(jobs.id, sql.placeholder('id')),
            sql`${jobs.status} = any(${sql.placeholder('from')}::text[])`,
          ),
        )
        .returning()
        .prepare('sino_job_transition'),
    notificationOf: () =>
      db
        .select({ id: notifications.id })
        .from(notifications)
        .where(
          and(
            eq(notifications.environmentId, sql.placeholder('environmentId')),
            eq(notifications.transactionId, sql.placeholder('transactionId')),
            eq(notifications.subscriberId, sql.placeholder('subscriberId')),
          ),
        )
        .limit(1)
        .prepare('sino_notification_of'),
    preferencesOf: () =>
      db
        .select()
        .from(subscriberPreferences)
        .where(
          and(
            eq(subscriberPreferences.subscriberId, sql.placeholder('subscriberId')),
            sql`(${subscriberPreferences.workflowId} = ${sql.placeholder('workflowId')} or ${subscriberPreferences.workflowId} is null)`,
          ),
        )
        .prepare('sino_preferences_of'),
  };
  const prepared: { [K in keyof typeof statements]?: ReturnType<(typeof statements)[K]> } = {};
  const statement = <K extends keyof typeof statements>(name: K) =>
    (prepared[name] ??= statements[name]() as never) as ReturnType<(typeof statements)[K]>;

  /** One workflow (the condition names at most one) and its steps in order, in one round trip. */
  function workflowOf(
    rows: { workflow: Workflow; step: WorkflowStep | null }[],
  ): { workflow: Workflow; steps: WorkflowStep[] } | undefined {
    if (rows.length === 0) return undefined;
    return {
      workflow: rows[0]!.workflow,
      steps: rows.flatMap((r) => (r.step ? [r.step] : [])),
    };
  }

  return {
    /** The workflow a trigger names (active or not, not deleted) with its steps in order. */
    async workflowForTrigger(environmentId: string, identifier: string) {
      return workflowOf(
        await statement('workflowForTrigger').execute({ environmentId, identifier }),
      );
    },

    async workflowWithSteps(workflowId: string) {
      return workflowOf(await statement('workflowById').execute({ workflowId }));
    },

    /**
     * Claims transactionIds, several in one statement; answers those claimed now (a pair used
     * before, or twice in the list, is claimed once).
     */
    async claimTransactions(
      claims: { environmentId: string; transactionId: string; workflowId: string }[],
    ): Promise<Set<string>> {
      if (claims.length === 0) return new Set();
      const rows = await claimStatement.execute(db, {
        environmentIds: claims.map((c) => c.environmentId),
        transactionIds: claims.map((c) => c.transactionId),
        workflowIds: claims.map((c) => c.workflowId),
      });
      return new Set(rows.map((r) => claimKey(r.environment_id, r.transaction_id)));
    },

    /** Frees claims whose triggers could not be queued, so the caller may send them again. */
    async releaseTransactions(claims: { environmentId: string; transactionId: string }[]) {
      if (claims.length === 0) return;
      await db.delete(transactions).where(
        sql`(${transactions.environmentId}, ${transactions.transactionId}) in (${sql.join(
          claims.map((c) => sql`(${c.environmentId}, ${c.transactionId})`),
          sql`, `,
        )})`,
      );
    },

    /** Seen and read of the message an earlier step (by uuid) sent in this notification. */
    async messageOfStep(notificationId: string, stepUuid: string) {
      const [m] = await db
        .select({ seen: messages.seen, read: messages.read })
        .from(messages)
        .innerJoin(workflowSteps, eq(workflowSteps.id, messages.stepId))
        .where(and(eq(messages.notificationId, notificationId), eq(workflowSteps.uuid, stepUuid)))
        .limit(1);
      return m ?? null;
    },

    async subscribersByIds(ids: string[]) {
      if (ids.length === 0) return [];
      return db.select().from(subscribers).where(inArray(subscribers.id, ids));
    },

    async subscriber(id: string) {
      const [s] = await db.select().from(subscribers).where(eq(subscribers.id, id));
      return s;
    },

    /**
     * A subscriber's notification of a trigger, with its jobs (one per active step: the first
     * `firstStatus`, the others pending) and its "trigger received" detail, in one statement
     * (a fan-out runs it for every subscriber). Undefined when the subscriber already has this
     * transaction's notification: a fan-out delivered again.
     */
    async createNotification(
      n: Omit<typeof notifications.$inferInsert, 'id'>,
      steps: WorkflowStep[],
      payload: Record<string, unknown>,
      overrides: Record<string, unknown>,
      received: Pick<NewExecutionDetail, 'channel' | 'code' | 'detail' | 'status' | 'raw'>,
      firstStatus: 'queued' | 'running',
    ): Promise<
      { notificationId: string; jobs: Job[]; preferences: SubscriberPreferences } | undefined
    > {
      const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
      const rows = await createNotificationStatement.execute(db, {
        notificationId: newId(),
        environmentId: n.environmentId,
        organizationId: n.organizationId,
        workflowId: n.workflowId,
        subscriberId: n.subscriberId,
        transactionId: n.transactionId,
        notificationPayload: json(n.payload ?? {}),
        tenant: json(n.tenant),
        actorSubscriberId: n.actorSubscriberId ?? null,
        receivedId: newId(),
        receivedChannel: received.channel ?? null,
        receivedCode: received.code ?? null,
        receivedDetail: received.detail,
        receivedStatus: received.status,
        receivedRaw: json(received.raw),
        jobIds: steps.map(() => newId()),
        stepIds: steps.map((step) => step.id),
        types: steps.map((step) => step.type),
        statuses: steps.map((_, i) => (i === 0 ? firstStatus : 'pending')),
        payload: json(payload),
        overrides: json(overrides),
      });
      if (rows.length === 0) return undefined;
      const created = rows.map(jobOfRow);
      // In step order, as `steps`.
      const order = new Map(steps.map((s, i) => [s.id, i]));
      created.sort((a, b) => order.get(a.stepId)! - order.get(b.stepId)!);
      const stored = rows[0]!.subscriber_preferences as (PreferenceRow & { global: boolean })[];
      return {
        notificationId: created[0]!.notificationId,
        jobs: created,
        preferences: {
          workflow: stored.find((r) => !r.global),
          global: stored.find((r) => r.global),
        },
      };
    },

    async job(id: string): Promise<Job | undefined> {
      const [j] = await db.select().from(jobs).where(eq(jobs.id, id));
      return j;
    },

    async notification(id: string): Promise<Notification | undefined> {
      const [n] = await db.select().from(notifications).where(eq(notifications.id, id));
      return n;
    },

    /** The notification's jobs in step order. */
    async jobsOfNotification(notificationId: string): Promise<(Job & { position: number })[]> {
      const rows = await db
        .select({ job: jobs, position: workflowSteps.position })
        .from(jobs)
        .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
        .where(eq(jobs.notificationId, notificationId))
        .orderBy(asc(workflowSteps.position));
      return rows.map((r) => ({ ...r.job, position: r.position }));
    },

    async step(id: string): Promise<WorkflowStep | undefined> {
      const [s] = await db.select().from(workflowSteps).where(eq(workflowSteps.id, id));
      return s;
    },

    /**
     * Moves the job to `status` only from one of `from`: the compare-and-set that keeps a job
     * delivered twice by the queue (at-least-once) from running twice.
     */
    async transition(
      id: string,
      from: JobStatus[],
      status: JobStatus,
      fields: Partial<
        Pick<Job, 'runAt' | 'queueJobId' | 'error' | 'digest' | 'payload' | 'attempts'>
      > = {},
    ): Promise<Job | undefined> {
      if (Object.keys(fields).length === 0) {
        const [j] = await statement('transition').execute({ id, from, status });
        return j;
      }
      const [j] = await db
        .update(jobs)
        .set({ status, ...fields, updatedAt: sql`now()` })
        .where(and(eq(jobs.id, id), inArray(jobs.status, from)))
        .returning();
      return j;
    },

    /**
     * `transition` that also records execution details in the same statement (whether the
     * job moves or not): a step's outcome and its log are one round trip and one commit.
     */
    async finish(
      id: string,
      from: JobStatus[],
      status: JobStatus,
      details: NewExecutionDetail[],
    ): Promise<Job | undefined> {
      if (details.length === 0) {
        const [j] = await statement('transition').execute({ id, from, status });
        return j;
      }
      const [row] = await finishStatement.execute(db, {
        id,
        from,
        status,
        details: JSON.stringify(details.map((d) => detailRecord({ id: newId(), ...d }))),
      });
      return row && jobOfRow(row);
    },

    async setQueueJobId(id: string, queueJobId: string): Promise<void> {
      await db.update(jobs).set({ queueJobId }).where(eq(jobs.id, id));
    },

    /**
     * The open digest of this subscriber and step (and digest value, if any), locked so two
     * events arriving together cannot both start one.
     */
    async openDigestLocked(
      j: Pick<Job, 'environmentId' | 'subscriberId' | 'stepId'>,
      digestValue: string | undefined,
    ): Promise<Job | undefined> {
      const key = `${j.environmentId}:${j.subscriberId}:${j.stepId}:${digestValue ?? ''}`;
      await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      const [leader] = await db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.environmentId, j.environmentId),
            eq(jobs.subscriberId, j.subscriberId),
            eq(jobs.stepId, j.stepId),
            eq(jobs.type, 'digest'),
            eq(jobs.status, 'delayed'),
            digestValue === undefined
              ? sql`(${jobs.digest}->>'digestValue') is null`
              : sql`(${jobs.digest}->>'digestValue') = ${digestValue}`,
          ),
        )
        .orderBy(asc(jobs.createdAt))
        .limit(1)
        .for('update');
      return leader;
    },

    /** The subscriber's notification of this transaction, if any (a re-delivered fan-out). */
    async notificationOf(
      environmentId: string,
      transactionId: string,
      subscriberId: string,
    ): Promise<string | undefined> {
      const [n] = await statement('notificationOf').execute({
        environmentId,
        transactionId,
        subscriberId,
      });
      return n?.id;
    },

    /** Another job of this subscriber and step created since `since` (digest backoff). */
    async recentJobOfStep(
      j: Pick<Job, 'id' | 'environmentId' | 'subscriberId' | 'stepId'>,
      since: Date,
    ): Promise<boolean> {
      const [other] = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.environmentId, j.environmentId),
            eq(jobs.subscriberId, j.subscriberId),
            eq(jobs.stepId, j.stepId),
            sql`${jobs.id} <> ${j.id}`,
            sql`${jobs.createdAt} >= ${since.toISOString()}`,
          ),
        )
        .limit(1);
      return other !== undefined;
    },

    /** Pending, queued or delayed jobs of a transaction (what cancel stops). */
    async cancelableJobs(environmentId: string, transactionId: string): Promise<Job[]> {
      return db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.environmentId, environmentId),
            eq(jobs.transactionId, transactionId),
            inArray(jobs.status, ['pending', 'queued', 'delayed']),
          ),
        );
    },

    async recordDetail(d: NewExecutionDetail): Promise<void> {
      await db.insert(executionDetails).values({ id: newId(), ...d });
    },

    /** The subscriber's workflow and global preference rows. */
    async preferencesOf(subscriberId: string, workflowId: string): Promise<SubscriberPreferences> {
      const rows = await statement('preferencesOf').execute({ subscriberId, workflowId });
      return {
        workflow: rows.find((r) => r.workflowId === workflowId),
        global: rows.find((r) => r.workflowId === null),
      };
    },
  };
}

export type EngineRepository = ReturnType<typeof createEngineRepository>;

const jobColumns = Object.entries(getTableColumns(jobs));

/** A `jobs` row of raw SQL (snake_case, driver values) as Drizzle's own select answers it. */
function jobOfRow(row: Record<string, unknown>): Job {
  return Object.fromEntries(
    jobColumns.map(([key, column]) => {
      const value = row[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as Job;
}

const detailColumns = getTableColumns(executionDetails);

/** An execution detail with its columns' names, as `jsonb_populate_recordset` reads it. */
function detailRecord(d: typeof executionDetails.$inferInsert): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(d).map(([key, value]) => [
      detailColumns[key as keyof typeof detailColumns].name,
      value,
    ]),
  );
}

const placeholder = (name: string) => sql.placeholder(name);

/**
 * A subscriber's notification of a trigger, its "trigger received" detail and its jobs (one
 * per step, given as parallel arrays), in one statement; nothing when the subscriber already
 * has this transaction's notification. Each job row also carries the subscriber's preference
 * rows for the workflow (the first step, run at once, needs them).
 */
const createNotificationStatement = preparedSql(
  'sino_create_notification',
  sql`
    with n as (
      insert into ${notifications} (id, environment_id, organization_id, workflow_id,
        subscriber_id, transaction_id, payload, tenant, actor_subscriber_id)
      select ${placeholder('notificationId')}, ${placeholder('environmentId')},
        ${placeholder('organizationId')}, ${placeholder('workflowId')},
        ${placeholder('subscriberId')}, ${placeholder('transactionId')},
        ${placeholder('notificationPayload')}::jsonb, ${placeholder('tenant')}::jsonb,
        ${placeholder('actorSubscriberId')}
      where not exists (
        select 1 from ${notifications}
        where environment_id = ${placeholder('environmentId')}
          and transaction_id = ${placeholder('transactionId')}
          and subscriber_id = ${placeholder('subscriberId')})
      returning id
    ), received as (
      insert into ${executionDetails} (id, environment_id, organization_id, notification_id,
        subscriber_id, transaction_id, channel, code, detail, status, raw)
      select ${placeholder('receivedId')}, ${placeholder('environmentId')},
        ${placeholder('organizationId')}, n.id, ${placeholder('subscriberId')},
        ${placeholder('transactionId')}, ${placeholder('receivedChannel')},
        ${placeholder('receivedCode')}::int, ${placeholder('receivedDetail')},
        ${placeholder('receivedStatus')}, ${placeholder('receivedRaw')}::jsonb
      from n
    ), preferences as (
      select coalesce(jsonb_agg(jsonb_build_object('global', p.workflow_id is null,
        'enabled', p.enabled, 'channels', p.channels)), '[]'::jsonb) as rows
      from ${subscriberPreferences} p
      where p.subscriber_id = ${placeholder('subscriberId')}
        and (p.workflow_id = ${placeholder('workflowId')} or p.workflow_id is null)
    )
    insert into ${jobs} (id, environment_id, organization_id, notification_id, workflow_id,
      subscriber_id, step_id, transaction_id, type, status, payload, overrides)
    select s.id, ${placeholder('environmentId')}, ${placeholder('organizationId')}, n.id,
      ${placeholder('workflowId')}, ${placeholder('subscriberId')}, s.step_id,
      ${placeholder('transactionId')}, s.type, s.status, ${placeholder('payload')}::jsonb,
      ${placeholder('overrides')}::jsonb
    from n, unnest(${placeholder('jobIds')}::text[], ${placeholder('stepIds')}::text[],
      ${placeholder('types')}::text[], ${placeholder('statuses')}::text[])
      as s (id, step_id, type, status)
    returning *, (select rows from preferences) as subscriber_preferences`,
);

/** Claims transactionIds given as parallel arrays: one prepared statement, whatever their number. */
const claimStatement = preparedSql<{ environment_id: string; transaction_id: string }>(
  'sino_claim_transactions',
  sql`
    insert into ${transactions} (environment_id, transaction_id, workflow_id)
    select * from unnest(${placeholder('environmentIds')}::text[],
      ${placeholder('transactionIds')}::text[], ${placeholder('workflowIds')}::text[])
    on conflict do nothing
    returning environment_id, transaction_id`,
);

/** A job's compare-and-set transition, with execution details (a JSON array) recorded. */
const finishStatement = preparedSql(
  'sino_job_finish',
  sql`
    with recorded as (
      insert into ${executionDetails} (id, environment_id, organization_id, notification_id,
        job_id, subscriber_id, transaction_id, step_id, channel, code, detail, status, source,
        raw)
      select d.id, d.environment_id, d.organization_id, d.notification_id, d.job_id,
        d.subscriber_id, d.transaction_id, d.step_id, d.channel, d.code, d.detail, d.status,
        coalesce(d.source, 'Internal'), d.raw
      from jsonb_populate_recordset(null::${executionDetails}, ${placeholder('details')}::jsonb) as d
    )
    update ${jobs} set status = ${placeholder('status')}, updated_at = now()
    where id = ${placeholder('id')} and status = any(${placeholder('from')}::text[])
    returning *`,
);

/** Runs `work` in a transaction, with a repository bound to it. */
export function inEngineTransaction<T>(
  db: Database,
  work: (r: EngineRepository) => Promise<T>,
): Promise<T> {
  return db.transaction((tx) => work(createEngineRepository(tx as unknown as Database)));
}
