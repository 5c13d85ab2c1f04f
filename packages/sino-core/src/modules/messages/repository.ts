import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { plannedSql, rowMapper, type Database } from '@locadora/db';
import {
  feeds,
  inInboxOf,
  messages,
  notifications,
  subscribers,
  workflows,
  type MessageCta,
} from '../../db/schema.js';
import { isId, newId } from '../../ids.js';
import type { ActorType } from '@sino/shared';

export type MessageRow = typeof messages.$inferSelect;

/** Whose messages: the subscriber's internal `_id` and its environment, both always checked. */
export interface MessageScope {
  environmentId: string;
  subscriberId: string;
}

/** Filters of the feed and of the counts (Novu's `feedIdentifier`, `seen`, `read`, `payload`). */
export interface MessageFilter {
  /** Feed identifiers of the environment; messages of any of those feeds. */
  feedIdentifiers?: string[] | undefined;
  seen?: boolean | undefined;
  read?: boolean | undefined;
  /** Matched against the message payload by containment, nested keys included. */
  payload?: Record<string, unknown> | undefined;
}

/** Novu's `MessagesStatusEnum`: what mark-all sets. */
export type MarkAllAs = 'read' | 'seen' | 'unread' | 'unseen';

/** Every column of a new in-app message (the workflow engine fills them). */
export interface NewInAppMessage {
  environmentId: string;
  organizationId: string;
  notificationId: string;
  /** The recipient's internal `_id`. */
  subscriberId: string;
  workflowId: string;
  templateIdentifier: string;
  jobId: string;
  stepId: string;
  feedId: string | null;
  transactionId: string;
  /** Compiled HTML. */
  content: string;
  payload: Record<string, unknown>;
  cta: MessageCta;
  actor: { type: ActorType; data: string | null } | null;
}

/**
 * How many rows a statement changed, and how many of them the unseen and unread counts held
 * before it (unseen or unread, and in the inbox).
 */
export interface ChangeTally {
  modified: number;
  unseen: number;
  unread: number;
}

/** The subscriber's own live (not deleted) in-app messages: what a call naming ids may touch. */
function own(scope: MessageScope): SQL[] {
  return [
    eq(messages.subscriberId, scope.subscriberId),
    eq(messages.environmentId, scope.environmentId),
    sql`${messages.channel} = 'in_app'`,
    sql`not ${messages.deleted}`,
  ];
}

/** Live, neither archived nor snoozed: in the feed and the counts. */
const IN_INBOX = inInboxOf(messages);

/**
 * The subscriber's in-app messages in the inbox (feed, counts, mark-all), written literally
 * as the partial indexes' predicate (`messages_subscriber_*`) so the planner matches them.
 */
function inbox(scope: MessageScope): SQL[] {
  return [
    eq(messages.subscriberId, scope.subscriberId),
    eq(messages.environmentId, scope.environmentId),
    sql`${messages.channel} = 'in_app'`,
    IN_INBOX,
  ];
}

function matching(scope: MessageScope, filter: MessageFilter): SQL[] {
  const conditions = inbox(scope);
  if (filter.feedIdentifiers) conditions.push(inFeeds(scope.environmentId, filter.feedIdentifiers));
  if (filter.seen !== undefined)
    conditions.push(filter.seen ? sql`${messages.seen}` : sql`not ${messages.seen}`);
  if (filter.read !== undefined)
    conditions.push(filter.read ? sql`${messages.read}` : sql`not ${messages.read}`);
  if (filter.payload && Object.keys(filter.payload).length > 0)
    conditions.push(sql`${messages.payload} @> ${JSON.stringify(filter.payload)}::jsonb`);
  return conditions;
}

/** Messages of the feeds with these identifiers; unknown identifiers match nothing. */
function inFeeds(environmentId: string, identifiers: string[]): SQL {
  if (identifiers.length === 0) return sql`false`;
  return sql`${messages.feedId} in (select ${feeds.id} from ${feeds} where ${feeds.environmentId} = ${environmentId} and ${inArray(feeds.identifier, identifiers)})`;
}

const validIds = (ids: string[]) => [...new Set(ids.filter(isId))];

/** Rows of an aggregate over a data-modifying statement (raw SQL answers `rows` on both drivers). */
async function tally(db: Database, changed: SQL): Promise<ChangeTally> {
  const result = (await db.execute(sql`
    with changed as (${changed})
    select count(*)::int as "modified",
           count(*) filter (where not "was_seen")::int as "unseen",
           count(*) filter (where not "was_read")::int as "unread"
    from changed`)) as unknown as { rows: ChangeTally[] };
  return result.rows[0] ?? { modified: 0, unseen: 0, unread: 0 };
}

/** The subscriber's in-app messages in the inbox, as placeholders (prepared statements). */
const inboxPrepared = (): SQL[] => [
  eq(messages.subscriberId, sql.placeholder('subscriberId')),
  eq(messages.environmentId, sql.placeholder('environmentId')),
  sql`${messages.channel} = 'in_app'`,
  IN_INBOX,
];

export function createMessageRepository(db: Database) {
  // Both counts follow every new message and every mark: prepared once, on first use.
  const upTo = (condition: SQL) =>
    sql<number>`(select count(*)::int from (select 1 from ${messages} where ${and(...inboxPrepared(), condition)} limit ${sql.placeholder('cap')}) as capped)`;
  const countsStatement = () =>
    db
      .select({
        unseen: upTo(sql`not ${messages.seen}`),
        unread: upTo(sql`not ${messages.read}`),
      })
      .from(sql`(values (1)) as one (x)`)
      .prepare('sino_unseen_and_unread');
  let counts: ReturnType<typeof countsStatement> | undefined;

  const feedQuery = (conditions: SQL[]) =>
    db
      .select()
      .from(messages)
      .where(and(...conditions))
      .orderBy(desc(messages.createdAt), desc(messages.id));
  const wholeFeedStatement = () =>
    feedQuery(inboxPrepared())
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare('sino_feed_page');
  let wholeFeed: ReturnType<typeof wholeFeedStatement> | undefined;

  return {
    /**
     * Creates in-app messages, unseen and unread, in one statement, and answers with each the
     * recipient's unseen and unread counts as they stand after it (the messages of the set
     * before it included), each counted up to `cap`: both follow every new message on the
     * socket. A message whose job already has one (a redelivery after a crash) is not written
     * again: the one it sent is answered, `created` false.
     */
    async insertInAppMessages(
      inputs: readonly NewInAppMessage[],
      cap: number,
    ): Promise<{ row: MessageRow; unseen: number; unread: number; created: boolean }[]> {
      const wanted = inputs.map((input, ord) => ({
        ord,
        id: newId(),
        environment_id: input.environmentId,
        organization_id: input.organizationId,
        notification_id: input.notificationId,
        subscriber_id: input.subscriberId,
        workflow_id: input.workflowId,
        template_identifier: input.templateIdentifier,
        job_id: input.jobId,
        step_id: input.stepId,
        feed_id: input.feedId,
        transaction_id: input.transactionId,
        content: input.content,
        payload: input.payload,
        cta: input.cta,
        actor: input.actor,
      }));
      const inserted = await insertInAppSet.execute(db, {
        rows: JSON.stringify(wanted),
        othersCap: cap - 1,
      });
      const byId = new Map(inserted.map((r) => [r.id as string, r]));
      // Messages of one subscriber in this set: each counts the ones before it.
      const before = new Map<string, number>();
      const answers: (
        { row: MessageRow; unseen: number; unread: number; created: boolean } | undefined
      )[] = wanted.map((w) => {
        const found = byId.get(w.id);
        if (!found) return undefined;
        const earlier = before.get(w.subscriber_id) ?? 0;
        before.set(w.subscriber_id, earlier + 1);
        return {
          row: messageOfRow(found),
          unseen: Math.min(cap, Number(found.unseen_others) + earlier + 1),
          unread: Math.min(cap, Number(found.unread_others) + earlier + 1),
          created: true,
        };
      });
      const missing = wanted.filter((_, i) => !answers[i]).map((w) => w.job_id);
      if (missing.length > 0) {
        // Their jobs ran before (or twice in this set): each job's message is the one it sent.
        const sent = await db.select().from(messages).where(inArray(messages.jobId, missing));
        const byJob = new Map(sent.map((m) => [m.jobId, m]));
        wanted.forEach((w, i) => {
          answers[i] ??= { row: byJob.get(w.job_id)!, unseen: 0, unread: 0, created: false };
        });
      }
      return answers as { row: MessageRow; unseen: number; unread: number; created: boolean }[];
    },

    /** A page of the feed, newest first (walks `messages_subscriber_feed`). */
    feedPage(
      scope: MessageScope,
      filter: MessageFilter,
      page: { offset: number; limit: number },
    ): Promise<MessageRow[]> {
      // The widget's usual page, with no filter, is the most read statement: prepared.
      if (Object.values(filter).every((value) => value === undefined))
        return (wholeFeed ??= wholeFeedStatement()).execute({ ...scope, ...page });
      return feedQuery(matching(scope, filter)).limit(page.limit).offset(page.offset);
    },

    /** The number of matching messages, counting no further than `cap`. */
    async count(scope: MessageScope, filter: MessageFilter, cap: number): Promise<number> {
      const capped = db
        .select({ one: sql`1`.as('one') })
        .from(messages)
        .where(and(...matching(scope, filter)))
        .limit(cap)
        .as('capped');
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
      return row?.n ?? 0;
    },

    /** Unseen and unread counts across feeds in one round trip, each counted up to `cap`. */
    async unseenAndUnread(
      scope: MessageScope,
      cap: number,
    ): Promise<{ unseen: number; unread: number }> {
      const [row] = await (counts ??= countsStatement()).execute({ ...scope, cap });
      return row ?? { unseen: 0, unread: 0 };
    },

    /** The subscriber's messages among `ids`; malformed ids match nothing. */
    async byIds(scope: MessageScope, ids: string[]): Promise<MessageRow[]> {
      const wanted = validIds(ids);
      if (wanted.length === 0) return [];
      return db
        .select()
        .from(messages)
        .where(and(...own(scope), inArray(messages.id, wanted)));
    },

    /** Sets seen and/or read (and their dates) on the subscriber's messages among `ids`. */
    async mark(
      scope: MessageScope,
      ids: string[],
      mark: { seen?: boolean | undefined; read?: boolean | undefined },
    ): Promise<MessageRow[]> {
      const wanted = validIds(ids);
      if (wanted.length === 0) return [];
      return db
        .update(messages)
        .set({
          updatedAt: sql`now()`,
          ...(mark.seen !== undefined && { seen: mark.seen, lastSeenDate: sql`now()` }),
          ...(mark.read !== undefined && { read: mark.read, lastReadDate: sql`now()` }),
        })
        .where(and(...own(scope), inArray(messages.id, wanted)))
        .returning();
    },

    /**
     * Marks every message of the subscriber (or of those feeds) as Novu's mark-all does: `read`
     * also sets seen, `unread` leaves the message seen. Only messages whose state changes are
     * touched; the tally says how many were unseen or unread before.
     */
    markAll(scope: MessageScope, markAs: MarkAllAs, feedIdentifiers?: string[]) {
      // Archived and snoozed messages are out of the inbox: a snoozed one comes back unread.
      const target = inbox(scope);
      if (feedIdentifiers) target.push(inFeeds(scope.environmentId, feedIdentifiers));
      const changes: Record<MarkAllAs, { where: SQL; set: SQL }> = {
        read: {
          where: sql`not read`,
          set: sql`read = true, last_read_date = now(), seen = true, last_seen_date = case when target.seen then target.last_seen_date else now() end`,
        },
        unread: {
          where: sql`read`,
          set: sql`read = false, last_read_date = now(), seen = true, last_seen_date = case when target.seen then target.last_seen_date else now() end`,
        },
        seen: { where: sql`not seen`, set: sql`seen = true, last_seen_date = now()` },
        unseen: { where: sql`seen`, set: sql`seen = false, last_seen_date = now()` },
      };
      const { where, set } = changes[markAs];
      // The target rows are read (and locked) first so the tally can report their old state.
      return tally(
        db,
        sql`with target as (
              select id, seen, read, last_seen_date from ${messages}
              where ${and(...target)} and ${where}
              for update
            )
            update ${messages} set ${set}, updated_at = now()
            from target where ${messages.id} = target.id
            returning target.seen as "was_seen", target.read as "was_read"`,
      );
    },

    /** Soft-deletes one of the subscriber's messages; undefined when it is not theirs or gone. */
    async softDelete(scope: MessageScope, id: string): Promise<MessageRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .update(messages)
        .set({ deleted: true, updatedAt: sql`now()` })
        .where(and(...own(scope), eq(messages.id, id)))
        .returning();
      return row;
    },

    /** Soft-deletes the subscriber's messages among `ids`, or all of them (of one feed). */
    softDeleteMany(scope: MessageScope, which: { ids: string[] } | { feedId?: string }) {
      const conditions = own(scope);
      if ('ids' in which) {
        const wanted = validIds(which.ids);
        if (wanted.length === 0) return Promise.resolve({ modified: 0, unseen: 0, unread: 0 });
        conditions.push(inArray(messages.id, wanted));
      } else if (which.feedId) {
        conditions.push(eq(messages.feedId, which.feedId));
      }
      return tally(
        db,
        sql`update ${messages} set deleted = true, updated_at = now()
            where ${and(...conditions)}
            returning (seen or archived_at is not null or snoozed_until is not null) as "was_seen",
                      (read or archived_at is not null or snoozed_until is not null) as "was_read"`,
      );
    },

    /**
     * Moves one of the subscriber's messages into the archive (out of the feed and the counts)
     * or back into the inbox. Archiving a snoozed message ends the snooze. Undefined when the
     * message is not theirs or gone.
     */
    async setArchived(
      scope: MessageScope,
      id: string,
      archived: boolean,
    ): Promise<MessageRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .update(messages)
        .set({
          archivedAt: archived ? sql`coalesce(${messages.archivedAt}, now())` : null,
          snoozedUntil: null,
          updatedAt: sql`now()`,
        })
        .where(and(...own(scope), eq(messages.id, id)))
        .returning();
      return row;
    },

    /** Archives every read message in the inbox (of those feeds); the tally of the change. */
    archiveRead(scope: MessageScope, feedIdentifiers?: string[]) {
      const target = inbox(scope);
      if (feedIdentifiers) target.push(inFeeds(scope.environmentId, feedIdentifiers));
      return tally(
        db,
        sql`update ${messages} set archived_at = now(), updated_at = now()
            where ${and(...target, sql`${messages.read}`)}
            returning seen as "was_seen", read as "was_read"`,
      );
    },

    /**
     * Takes one of the subscriber's messages out of the inbox until `until` (a later snooze
     * replaces an earlier one; a snoozed archived message leaves the archive).
     */
    async snooze(scope: MessageScope, id: string, until: Date): Promise<MessageRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .update(messages)
        .set({ snoozedUntil: until, archivedAt: null, updatedAt: sql`now()` })
        .where(and(...own(scope), eq(messages.id, id)))
        .returning();
      return row;
    },

    /** Ends a snooze now: the message is back in the inbox as it was. */
    async unsnooze(scope: MessageScope, id: string): Promise<MessageRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .update(messages)
        .set({ snoozedUntil: null, updatedAt: sql`now()` })
        .where(and(...own(scope), eq(messages.id, id), sql`${messages.snoozedUntil} is not null`))
        .returning();
      return row;
    },

    /**
     * The snooze that ends at `until` is over: the message comes back unseen and unread. When
     * the database's clock has not reached `until` yet (the queue ran the job early by another
     * clock), answers how long is left; when the message was deleted, unsnoozed or snoozed
     * again meanwhile, answers neither (that snooze is no longer this job's).
     */
    async wake(
      id: string,
      until: Date,
    ): Promise<{ row: MessageRow } | { leftMs: number } | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db
        .update(messages)
        .set({ snoozedUntil: null, seen: false, read: false, updatedAt: sql`now()` })
        .where(
          and(
            eq(messages.id, id),
            sql`not ${messages.deleted}`,
            eq(messages.snoozedUntil, until),
            sql`${messages.snoozedUntil} <= now()`,
          ),
        )
        .returning();
      if (row) return { row };
      const [left] = await db
        .select({
          ms: sql<number>`ceil(extract(epoch from ${messages.snoozedUntil} - now()) * 1000)::float8`,
        })
        .from(messages)
        .where(
          and(eq(messages.id, id), sql`not ${messages.deleted}`, eq(messages.snoozedUntil, until)),
        );
      return left ? { leftMs: Math.max(1, left.ms) } : undefined;
    },

    /**
     * A page of the subscriber's archive (newest archived first) or of its snoozed messages
     * (soonest back first), one extra row telling `hasMore`.
     */
    outOfInbox(
      scope: MessageScope,
      which: 'archived' | 'snoozed',
      page: { offset: number; limit: number },
    ): Promise<MessageRow[]> {
      const base = [
        eq(messages.subscriberId, scope.subscriberId),
        eq(messages.environmentId, scope.environmentId),
        sql`${messages.channel} = 'in_app'`,
        sql`not ${messages.deleted}`,
      ];
      const query = db.select().from(messages);
      return (
        which === 'archived'
          ? query
              .where(and(...base, sql`${messages.archivedAt} is not null`))
              .orderBy(desc(messages.archivedAt), desc(messages.id))
          : query
              .where(and(...base, sql`${messages.snoozedUntil} is not null`))
              .orderBy(messages.snoozedUntil, desc(messages.id))
      )
        .limit(page.limit)
        .offset(page.offset);
    },

    /** Stores a CTA button's outcome: `cta.action.status` and `cta.action.result`. */
    async updateAction(
      scope: MessageScope,
      id: string,
      action: {
        type: 'primary' | 'secondary';
        status: 'pending' | 'done';
        payload?: Record<string, unknown> | undefined;
      },
    ): Promise<MessageRow | undefined> {
      if (!isId(id)) return undefined;
      const result = JSON.stringify({
        type: action.type,
        ...(action.payload !== undefined && { payload: action.payload }),
      });
      const [row] = await db
        .update(messages)
        .set({
          cta: sql`${messages.cta} || jsonb_build_object('action',
            coalesce(${messages.cta}->'action', '{}'::jsonb) || jsonb_build_object(
              'status', ${action.status}::text,
              'result', coalesce(${messages.cta}->'action'->'result', '{}'::jsonb) || ${result}::jsonb))`,
          updatedAt: sql`now()`,
        })
        .where(and(...own(scope), eq(messages.id, id)))
        .returning();
      return row;
    },

    /** The environment's feed with this `_id` or, failing that, this identifier. */
    /**
     * The environment's messages of every channel, newest first (GET /v1/messages), one extra
     * row telling `hasMore`.
     */
    async listOfEnvironment(
      environmentId: string,
      filter: {
        subscriberId?: string | undefined;
        channel?: string | undefined;
        transactionIds?: string[] | undefined;
      },
      page: number,
      limit: number,
    ) {
      const rows = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.environmentId, environmentId),
            eq(messages.deleted, false),
            filter.subscriberId ? eq(messages.subscriberId, filter.subscriberId) : undefined,
            filter.channel
              ? eq(messages.channel, filter.channel as MessageRow['channel'])
              : undefined,
            filter.transactionIds
              ? inArray(messages.transactionId, filter.transactionIds)
              : undefined,
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit + 1)
        .offset(page * limit);
      return { items: rows.slice(0, limit), hasMore: rows.length > limit };
    },

    /** Deletes a message of the environment (any channel); the row, or undefined. */
    async softDeleteInEnvironment(environmentId: string, id: string) {
      const [row] = await db
        .update(messages)
        .set({ deleted: true, updatedAt: sql`now()` })
        .where(
          and(
            eq(messages.environmentId, environmentId),
            eq(messages.id, id),
            eq(messages.deleted, false),
          ),
        )
        .returning();
      return row;
    },

    async feed(environmentId: string, idOrIdentifier: string) {
      const [feed] = await db
        .select()
        .from(feeds)
        .where(
          and(
            eq(feeds.environmentId, environmentId),
            isId(idOrIdentifier)
              ? or(eq(feeds.id, idOrIdentifier), eq(feeds.identifier, idOrIdentifier))
              : eq(feeds.identifier, idOrIdentifier),
          ),
        )
        .orderBy(sql`${feeds.id} = ${idOrIdentifier} desc`)
        .limit(1);
      return feed;
    },

    /** Avatars of the actors (subscribers) of these notifications, by notification id. */
    async actorAvatars(
      environmentId: string,
      notificationIds: string[],
    ): Promise<Map<string, string | null>> {
      if (notificationIds.length === 0) return new Map();
      const rows = await db
        .select({ notificationId: notifications.id, avatar: subscribers.avatar })
        .from(notifications)
        .innerJoin(subscribers, eq(subscribers.id, notifications.actorSubscriberId))
        .where(
          and(
            eq(notifications.environmentId, environmentId),
            inArray(notifications.id, [...new Set(notificationIds)]),
          ),
        );
      return new Map(rows.map((r) => [r.notificationId, r.avatar]));
    },

    /**
     * The tags and critical flag of the messages' workflows, by workflow id (the template Novu's
     * feed populates on each message); deleted workflows too, since their messages stay.
     */
    async workflowSummaries(
      environmentId: string,
      workflowIds: string[],
    ): Promise<Map<string, { tags: string[]; critical: boolean }>> {
      const wanted = validIds(workflowIds);
      if (wanted.length === 0) return new Map();
      const rows = await db
        .select({ id: workflows.id, tags: workflows.tags, critical: workflows.critical })
        .from(workflows)
        .where(and(eq(workflows.environmentId, environmentId), inArray(workflows.id, wanted)));
      return new Map(rows.map((r) => [r.id, { tags: r.tags, critical: r.critical }]));
    },
  };
}

export type MessageRepository = ReturnType<typeof createMessageRepository>;

const messageOfRow = rowMapper(messages);

/** Counts the recipient's other in-app messages in the inbox matching `condition`, up to a cap. */
const others = (condition: SQL) =>
  sql`(select count(*)::int from (select 1 from ${messages} as other
      where other.subscriber_id = r.subscriber_id
        and other.channel = 'in_app' and not other.deleted
        and other.archived_at is null and other.snoozed_until is null and ${condition}
      limit ${sql.placeholder('othersCap')}) as capped)`;

/**
 * In-app messages given as a JSON array, in one statement whatever their number, each
 * answered with its recipient's unseen and unread counts of the messages before this
 * statement (counted once per recipient of the set). Its snapshot does not hold the rows it inserts, so the
 * caller adds those of the set. The counts read only columns of the partial indexes
 * (subscriber ids are unique across environments), so they are index-only scans.
 */
const insertInAppSet = plannedSql(
  sql`
    with input as (
      select * from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as i (ord int,
        id char(24), environment_id char(24), organization_id char(24),
        notification_id char(24), subscriber_id char(24), workflow_id char(24),
        template_identifier text, job_id char(24), step_id char(24), feed_id char(24),
        transaction_id text, content text, payload jsonb, cta jsonb, actor jsonb)
    ), inserted as (
      insert into ${messages} (id, channel, environment_id, organization_id, notification_id,
        subscriber_id, workflow_id, template_identifier, job_id, step_id, feed_id,
        transaction_id, content, payload, cta, actor)
      select id, 'in_app', environment_id, organization_id, notification_id, subscriber_id,
        workflow_id, template_identifier, job_id, step_id, feed_id, transaction_id, content,
        payload, cta, nullif(actor, 'null'::jsonb)
      from input order by ord
      on conflict (job_id) do nothing
      returning *
    ), recipients as (
      -- Once per recipient of the set, however many of its messages the set holds.
      select r.subscriber_id, ${others(sql`not other.seen`)} as unseen_others,
        ${others(sql`not other.read`)} as unread_others
      from (select distinct subscriber_id from inserted) as r
    )
    select inserted.*, recipients.unseen_others, recipients.unread_others
    from inserted join recipients on recipients.subscriber_id = inserted.subscriber_id`,
);
