import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { plannedSql, preparedSql, rowMapper, type Database } from '@locadora/db';
import type { JobStatus } from '@sino/shared';
import {
  type ChannelSwitches,
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

export type NewNotification = Omit<typeof notifications.$inferInsert, 'id'>;
export type ReceivedDetail = Pick<
  NewExecutionDetail,
  'channel' | 'code' | 'detail' | 'status' | 'raw'
>;

/** What `createNotifications` creates for one subscriber of a trigger. */
export interface NotificationRequest {
  notification: NewNotification;
  steps: WorkflowStep[];
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  received: ReceivedDetail;
  firstStatus: 'queued' | 'running';
  /** The tenant's override switches, for every job (`jobs.tenant_preferences`); none if absent. */
  tenantPreferences?: ChannelSwitches | null | undefined;
}

/** A notification as created, its jobs in step order, with the subscriber's preferences. */
export interface CreatedNotification {
  notificationId: string;
  jobs: Job[];
  preferences: SubscriberPreferences;
}

/** A job's compare-and-set to a final status, with the details recorded alongside. */
export interface JobOutcome {
  id: string;
  from: JobStatus[];
  status: JobStatus;
  details: NewExecutionDetail[];
}

/** How a claimed (environment, transactionId) pair is named in `claimTransactions`' answer. */
export const claimKey = (environmentId: string, transactionId: string) =>
  `${environmentId}\u0000${transactionId}`;

/** Statuses after which a job never runs again. */
export const FINAL_STATUSES: JobStatus[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/** The SQL of the workflow engine: workflows as triggers see them, jobs, execution details. */
/**
 * The message an earlier step sent in a notification (a previous-step filter): through
 * `messages_notification` (migration 0009), which the plan test checks.
 */
export function messageOfStepQuery(db: Database, notificationId: string, stepUuid: string) {
  return db
    .select({ seen: messages.seen, read: messages.read })
    .from(messages)
    .innerJoin(workflowSteps, eq(workflowSteps.id, messages.stepId))
    .where(and(eq(messages.notificationId, notificationId), eq(workflowSteps.uuid, stepUuid)))
    .limit(1);
}

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
      const [m] = await messageOfStepQuery(db, notificationId, stepUuid);
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
     * transaction's notification: a fan-out delivered again. The jobs carry the notification's
     * tenant and the tenant's override switches (`tenantPreferences`).
     */
    async createNotification(
      n: NewNotification,
      steps: WorkflowStep[],
      payload: Record<string, unknown>,
      overrides: Record<string, unknown>,
      received: ReceivedDetail,
      firstStatus: 'queued' | 'running',
      tenantPreferences?: ChannelSwitches | null,
    ): Promise<CreatedNotification | undefined> {
      const [created] = await this.createNotifications([
        { notification: n, steps, payload, overrides, received, firstStatus, tenantPreferences },
      ]);
      return created;
    },

    /**
     * `createNotification` for several subscribers (and triggers) in one statement, answered in
     * order. A notification asked for twice in the set is created once (the first), as is one
     * that exists already: undefined for the others.
     */
    async createNotifications(
      wanted: readonly NotificationRequest[],
    ): Promise<(CreatedNotification | undefined)[]> {
      if (wanted.length === 0) return [];
      const json = (value: unknown) => (value === undefined ? null : value);
      const seen = new Set<string>();
      const rows = wanted.map((w) => {
        const n = w.notification;
        const key = `${n.environmentId}\u0000${n.transactionId}\u0000${n.subscriberId}`;
        const first = !seen.has(key);
        seen.add(key);
        return {
          notification_id: newId(),
          first,
          environment_id: n.environmentId,
          organization_id: n.organizationId,
          workflow_id: n.workflowId,
          subscriber_id: n.subscriberId,
          transaction_id: n.transactionId,
          payload: n.payload ?? {},
          tenant: json(n.tenant),
          actor_subscriber_id: n.actorSubscriberId ?? null,
          received_id: newId(),
          received_channel: w.received.channel ?? null,
          received_code: w.received.code ?? null,
          received_detail: w.received.detail,
          received_status: w.received.status,
          received_raw: json(w.received.raw),
          jobs: w.steps.map((step, i) => ({
            id: newId(),
            step_id: step.id,
            type: step.type,
            status: i === 0 ? w.firstStatus : 'pending',
          })),
          job_payload: w.payload,
          overrides: w.overrides,
          tenant_preferences: json(w.tenantPreferences),
        };
      });
      const returned = await createNotificationsStatement.execute(db, {
        rows: JSON.stringify(rows.filter((r) => r.first)),
      });
      const byNotification = new Map<string, Record<string, unknown>[]>();
      for (const row of returned) {
        const id = row.notification_id as string;
        byNotification.set(id, [...(byNotification.get(id) ?? []), row]);
      }
      return rows.map((r, i) => {
        const found = byNotification.get(r.notification_id);
        if (!found) return undefined;
        const created = found.map(jobOfRow);
        // In step order, as `steps`.
        const order = new Map(wanted[i]!.steps.map((s, index) => [s.id, index]));
        created.sort((a, b) => order.get(a.stepId)! - order.get(b.stepId)!);
        const stored = found[0]!.subscriber_preferences as (PreferenceRow & { global: boolean })[];
        return {
          notificationId: r.notification_id,
          jobs: created,
          preferences: {
            workflow: stored.find((p) => !p.global),
            global: stored.find((p) => p.global),
          },
        };
      });
    },

    async jobsByIds(ids: string[]): Promise<Job[]> {
      if (ids.length === 0) return [];
      return db.select().from(jobs).where(inArray(jobs.id, ids));
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
      const [done] = await this.finishMany([{ id, from, status, details }]);
      return done;
    },

    /**
     * `finish` for several jobs in one statement, answered in order. A job named twice in the
     * set moves once: the first of them is answered the job, the others undefined.
     */
    async finishMany(outcomes: readonly JobOutcome[]): Promise<(Job | undefined)[]> {
      if (outcomes.length === 0) return [];
      const rows = await finishManyStatement.execute(db, {
        outcomes: JSON.stringify(
          outcomes.map((o, ord) => ({ ord, id: o.id, from: o.from, status: o.status })),
        ),
        details: JSON.stringify(
          outcomes.flatMap((o) => o.details.map((d) => detailRecord({ id: newId(), ...d }))),
        ),
      });
      const moved = new Map(rows.map((row) => [row.id as string, row]));
      return outcomes.map((o) => {
        const row = moved.get(o.id);
        // Taken by the first outcome of this job in the set.
        moved.delete(o.id);
        return row && jobOfRow(row);
      });
    },

    async setQueueJobId(id: string, queueJobId: string): Promise<void> {
      await this.setQueueJobIds([{ id, queueJobId }]);
    },

    /** `setQueueJobId` for several jobs, one statement. */
    async setQueueJobIds(pairs: readonly { id: string; queueJobId: string }[]): Promise<void> {
      if (pairs.length === 0) return;
      await setQueueJobIdsStatement.execute(db, {
        ids: pairs.map((p) => p.id),
        queueJobIds: pairs.map((p) => p.queueJobId),
      });
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
      await this.recordDetails([d]);
    },

    /** Execution details of several jobs, one statement (its text built once). */
    async recordDetails(details: readonly NewExecutionDetail[]): Promise<void> {
      if (details.length === 0) return;
      await recordDetailsStatement.execute(db, {
        details: JSON.stringify(details.map((d) => detailRecord({ id: newId(), ...d }))),
      });
    },

    /** The subscriber's workflow and global preference rows. */
    /** `preferencesOf` for many (subscriber, workflow) pairs, one statement, in their order. */
    async preferencesOfMany(
      pairs: readonly { subscriberId: string; workflowId: string }[],
    ): Promise<SubscriberPreferences[]> {
      if (pairs.length === 0) return [];
      const rows = (
        await preferencesAmong.execute(db, {
          subscriberIds: pairs.map((p) => p.subscriberId),
          workflowIds: pairs.map((p) => p.workflowId),
        })
      ).map(preferencesRow);
      return pairs.map(({ subscriberId, workflowId }) => {
        const own = rows.filter((r) => r.subscriberId === subscriberId);
        return {
          workflow: own.find((r) => r.workflowId === workflowId),
          global: own.find((r) => r.workflowId === null),
        };
      });
    },

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

const preferencesRow = rowMapper(subscriberPreferences);

/** The global and per-workflow preferences of (subscriber, workflow) pairs given as arrays. */
const preferencesAmong = plannedSql(sql`
  select p.* from unnest(${sql.placeholder('subscriberIds')}::char(24)[],
      ${sql.placeholder('workflowIds')}::char(24)[]) as i (subscriber_id, workflow_id)
  join ${subscriberPreferences} p on p.subscriber_id = i.subscriber_id
    and (p.workflow_id = i.workflow_id or p.workflow_id is null)`);

/** A `jobs` row of raw SQL (snake_case, driver values) as Drizzle's own select answers it. */
const jobOfRow: (row: Record<string, unknown>) => Job = rowMapper(jobs);

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
 * Notifications of subscribers (given as a JSON array), each with its "trigger received"
 * detail and its jobs (one per step, a JSON array of its own), in one statement whatever their
 * number; nothing for a subscriber that already has the transaction's notification. Each job
 * row also carries its subscriber's preference rows for the workflow (the first step, run at
 * once, needs them).
 */
const createNotificationsStatement = plannedSql(
  sql`
    with input as (
      select * from jsonb_to_recordset(${placeholder('rows')}::jsonb) as i (
        notification_id char(24), environment_id char(24), organization_id char(24),
        workflow_id char(24), subscriber_id char(24), transaction_id text, payload jsonb,
        tenant jsonb, actor_subscriber_id char(24), received_id char(24), received_channel text,
        received_code int, received_detail text, received_status text, received_raw jsonb,
        jobs jsonb, job_payload jsonb, overrides jsonb, tenant_preferences jsonb)
    ), n as (
      insert into ${notifications} (id, environment_id, organization_id, workflow_id,
        subscriber_id, transaction_id, payload, tenant, actor_subscriber_id)
      select i.notification_id, i.environment_id, i.organization_id, i.workflow_id,
        i.subscriber_id, i.transaction_id, i.payload, nullif(i.tenant, 'null'::jsonb),
        i.actor_subscriber_id
      from input i
      where not exists (
        select 1 from ${notifications} x
        where x.environment_id = i.environment_id
          and x.transaction_id = i.transaction_id
          and x.subscriber_id = i.subscriber_id)
      returning id
    ), received as (
      insert into ${executionDetails} (id, environment_id, organization_id, notification_id,
        subscriber_id, transaction_id, channel, code, detail, status, raw)
      select i.received_id, i.environment_id, i.organization_id, n.id, i.subscriber_id,
        i.transaction_id, i.received_channel, i.received_code, i.received_detail,
        i.received_status, nullif(i.received_raw, 'null'::jsonb)
      from input i join n on n.id = i.notification_id
    ), preferences as (
      select i.notification_id, coalesce(jsonb_agg(jsonb_build_object('global',
        p.workflow_id is null, 'enabled', p.enabled, 'channels', p.channels))
        filter (where p.subscriber_id is not null), '[]'::jsonb) as rows
      from input i join n on n.id = i.notification_id
      left join ${subscriberPreferences} p on p.subscriber_id = i.subscriber_id
        and (p.workflow_id = i.workflow_id or p.workflow_id is null)
      group by i.notification_id
    )
    insert into ${jobs} (id, environment_id, organization_id, notification_id, workflow_id,
      subscriber_id, step_id, transaction_id, type, status, payload, overrides, tenant,
      tenant_preferences)
    select s.id, i.environment_id, i.organization_id, n.id, i.workflow_id, i.subscriber_id,
      s.step_id, i.transaction_id, s.type, s.status, i.job_payload, i.overrides,
      nullif(i.tenant, 'null'::jsonb), nullif(i.tenant_preferences, 'null'::jsonb)
    from input i join n on n.id = i.notification_id,
      jsonb_to_recordset(i.jobs) as s (id char(24), step_id char(24), type text, status text)
    returning *, (select rows from preferences
      where preferences.notification_id = ${jobs.notificationId}) as subscriber_preferences`,
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

/**
 * Jobs' compare-and-set transitions (a JSON array of id, from, status), with execution details
 * (a JSON array) recorded whether the jobs move or not: one statement for a set of outcomes.
 */
const finishManyStatement = plannedSql(
  sql`
    with recorded as (
      insert into ${executionDetails} (id, environment_id, organization_id, notification_id,
        job_id, subscriber_id, transaction_id, step_id, channel, code, detail, status, source,
        raw)
      select d.id, d.environment_id, d.organization_id, d.notification_id, d.job_id,
        d.subscriber_id, d.transaction_id, d.step_id, d.channel, d.code, d.detail, d.status,
        coalesce(d.source, 'Internal'), d.raw
      from jsonb_populate_recordset(null::${executionDetails}, ${placeholder('details')}::jsonb) as d
    ), outcome as (
      select distinct on (o.id) o.id, o."from", o.status
      from jsonb_to_recordset(${placeholder('outcomes')}::jsonb)
        as o (ord int, id char(24), "from" text[], status text)
      order by o.id, o.ord
    )
    update ${jobs} set status = outcome.status, updated_at = now()
    from outcome
    where ${jobs.id} = outcome.id and ${jobs.status} = any(outcome."from")
    returning "jobs".*`,
);

/** Execution details (a JSON array, column names as keys), recorded in one statement. */
const recordDetailsStatement = plannedSql(
  sql`
    insert into ${executionDetails} (id, environment_id, organization_id, notification_id,
      job_id, subscriber_id, transaction_id, step_id, channel, code, detail, status, source,
      is_retry, is_test, raw)
    select d.id, d.environment_id, d.organization_id, d.notification_id, d.job_id,
      d.subscriber_id, d.transaction_id, d.step_id, d.channel, d.code, d.detail, d.status,
      coalesce(d.source, 'Internal'), coalesce(d.is_retry, false), coalesce(d.is_test, false),
      d.raw
    from jsonb_populate_recordset(null::${executionDetails}, ${placeholder('details')}::jsonb) as d`,
);

/** Queue job ids of jobs, given as parallel arrays: one prepared statement, whatever their number. */
const setQueueJobIdsStatement = plannedSql(
  sql`
    update ${jobs} set queue_job_id = given.queue_job_id
    from unnest(${placeholder('ids')}::char(24)[], ${placeholder('queueJobIds')}::text[])
      as given (id, queue_job_id)
    where ${jobs.id} = given.id`,
);

/** Runs `work` in a transaction, with a repository bound to it. */
export function inEngineTransaction<T>(
  db: Database,
  work: (r: EngineRepository) => Promise<T>,
): Promise<T> {
  return db.transaction((tx) => work(createEngineRepository(tx as unknown as Database)));
}
