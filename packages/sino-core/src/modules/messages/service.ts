import { ACTOR_TYPES, type ActorType } from '@sino/shared';
import type { MessageCta } from '../../db/schema.js';
import type { RealtimePublisher } from '../../realtime/port.js';
import type { Subscriber, SubscriberRepository } from '../subscribers/repository.js';
import { badRequest, notFound } from '../../errors.js';
import { isId } from '../../ids.js';
import { groupCommit } from '../../batching.js';
import { messageSubscriber, toMessageDocument, type MessageDocument } from './document.js';
import type {
  ChangeTally,
  MarkAllAs,
  MessageFilter,
  MessageRepository,
  MessageRow,
  MessageScope,
  NewInAppMessage,
} from './repository.js';

/** Socket counts stop at 100; `hasMore` says there are more. */
const SOCKET_COUNT_CAP = 100;

/** Counts read up to SOCKET_COUNT_CAP + 1, as the socket events carry them. */
const countEvents = (counts: { unseen: number; unread: number }) => ({
  unseen_count_changed: {
    unseenCount: Math.min(counts.unseen, SOCKET_COUNT_CAP),
    hasMore: counts.unseen > SOCKET_COUNT_CAP,
  },
  unread_count_changed: {
    unreadCount: Math.min(counts.unread, SOCKET_COUNT_CAP),
    hasMore: counts.unread > SOCKET_COUNT_CAP,
  },
});

/** The furthest a snooze may reach (the queue holds a delayed job for at most a year). */
export const MAX_SNOOZE_MS = 365 * 24 * 60 * 60 * 1000;

/** The queue task that ends a snooze at `until` (ISO time); the worker runs `wakeSnoozed`. */
export interface WakeSnoozedTask {
  kind: 'wake-snoozed';
  messageId: string;
  until: string;
}

/** The slice of the durable queue the inbox uses: a snooze's end is a delayed job. */
export interface SnoozeScheduler {
  enqueue(task: WakeSnoozedTask, options: { delayMs: number; dedupeKey: string }): Promise<string>;
}

const INVALID_PAYLOAD = 'Invalid payload, the JSON object should be encoded to base64 string.';

export interface FeedQuery {
  page: number;
  limit: number;
  feedIdentifiers?: string[] | undefined;
  seen?: boolean | undefined;
  read?: boolean | undefined;
  /** Base64 of a JSON object matched against the message payload. */
  payload?: string | undefined;
}

export interface FeedPage {
  data: MessageDocument[];
  totalCount: number;
  hasMore: boolean;
  pageSize: number;
  page: number;
}

export interface MessageMark {
  seen?: boolean | undefined;
  read?: boolean | undefined;
}

/** The engine's view of a new in-app message: its job and step, and what was rendered. */
export interface InAppDelivery {
  job: {
    id: string;
    environmentId: string;
    organizationId: string;
    notificationId: string;
    workflowId: string;
    subscriberId: string;
    transactionId: string;
  };
  step: { id: string };
  templateIdentifier: string;
  content: string;
  payload: Record<string, unknown>;
  /** `{type: 'redirect', data: {url?}, action?}` as the step's template built it. */
  cta: Record<string, unknown>;
  actor: { type: string; data: string | null } | null;
  feedId: string | null;
}

const isActorType = (t: string): t is ActorType => (ACTOR_TYPES as readonly string[]).includes(t);

const scopeOf = (s: Subscriber): MessageScope => ({
  environmentId: s.environmentId,
  subscriberId: s.id,
});

/** `payload` of the feed: base64 of a JSON object, or 400 with Novu's message. */
export function decodePayloadFilter(encoded: string | undefined) {
  if (encoded === undefined || encoded === '') return undefined;
  let decoded: unknown;
  try {
    // A raw `+` in a query string arrives as a space.
    decoded = JSON.parse(Buffer.from(encoded.replace(/ /g, '+'), 'base64').toString('utf8'));
  } catch {
    throw badRequest(INVALID_PAYLOAD);
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded))
    throw badRequest(INVALID_PAYLOAD);
  return decoded as Record<string, unknown>;
}

/**
 * The in-app inbox of one subscriber: feed, counts, marks, deletes and CTA actions, and the
 * socket events that follow each change. Every function takes the subscriber row (the widget's
 * token subscriber, or one found by `subscriberId` on the server API) and only ever reads or
 * changes that subscriber's messages in its own environment.
 */
export function createMessageService(deps: {
  repo: MessageRepository;
  subscribers: SubscriberRepository;
  realtime: RealtimePublisher;
  scheduler: SnoozeScheduler;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());
  // The engine's concurrent in-app steps write their messages together: one statement per
  // set, each message answered with its counts (decision 036). A set refused for one row's
  // sake is written again one message at a time.
  const insertInApp = groupCommit(
    (inputs: readonly NewInAppMessage[]) => repo.insertInAppMessages(inputs, SOCKET_COUNT_CAP + 1),
    { retryEach: true },
  );

  /** Sends the current unseen and/or unread counts (across feeds) to the subscriber's sockets. */
  async function emitCounts(scope: MessageScope, which: { unseen: boolean; unread: boolean }) {
    if (!which.unseen && !which.unread) return;
    sendCounts(scope, which, await repo.unseenAndUnread(scope, SOCKET_COUNT_CAP + 1));
  }

  /** Counts as read up to SOCKET_COUNT_CAP + 1, on the socket: capped, with `hasMore`. */
  function sendCounts(
    scope: MessageScope,
    which: { unseen: boolean; unread: boolean },
    counts: { unseen: number; unread: number },
  ) {
    const events = countEvents(counts);
    if (which.unseen)
      deps.realtime.emit(scope.subscriberId, 'unseen_count_changed', events.unseen_count_changed);
    if (which.unread)
      deps.realtime.emit(scope.subscriberId, 'unread_count_changed', events.unread_count_changed);
  }

  /**
   * Rows as the feed answers them: with the recipient, the workflow's tags and critical flag,
   * and a user actor's avatar. Every widget answer carrying messages (mark, action, remove,
   * archive, snooze) uses it, so a client that replaces its copy with the answer loses no
   * field the feed gave (the actor's picture turning into the silhouette after a mark).
   */
  async function documentsOf(subscriber: Subscriber, rows: MessageRow[]) {
    const userActors = rows.filter((r) => r.actor?.type === 'user').map((r) => r.notificationId);
    const [avatars, templates] = await Promise.all([
      repo.actorAvatars(subscriber.environmentId, userActors),
      repo.workflowSummaries(subscriber.environmentId, [...new Set(rows.map((r) => r.workflowId))]),
    ]);
    const recipient = messageSubscriber(subscriber);
    return rows.map((row) => {
      const template = templates.get(row.workflowId);
      return toMessageDocument(row, {
        subscriber: recipient,
        ...(row.actor?.type === 'user' && {
          actorAvatar: avatars.get(row.notificationId) ?? null,
        }),
        ...(template && { template }),
      });
    });
  }
  const documentOf = async (subscriber: Subscriber, row: MessageRow) =>
    (await documentsOf(subscriber, [row]))[0]!;

  /** A message entered or left the inbox: both counts, as the feed changed. */
  const emitBoth = (scope: MessageScope) => emitCounts(scope, { unseen: true, unread: true });

  /** Feed-shaped page of messages out of the inbox (archive, snoozed). */
  async function outOfInboxPage(
    subscriber: Subscriber,
    which: 'archived' | 'snoozed',
    query: { page: number; limit: number },
  ): Promise<FeedPage> {
    const rows = await repo.outOfInbox(scopeOf(subscriber), which, {
      offset: query.page * query.limit,
      limit: query.limit + 1,
    });
    const items = rows.slice(0, query.limit);
    return {
      data: await documentsOf(subscriber, items),
      totalCount: items.length,
      hasMore: rows.length > query.limit,
      pageSize: query.limit,
      page: query.page,
    };
  }

  /** After a delete: only the counts that changed. */
  const emitChanged = (scope: MessageScope, tally: ChangeTally) =>
    emitCounts(scope, { unseen: tally.unseen > 0, unread: tally.unread > 0 });

  return {
    repository: repo,
    emitCounts,

    /** Both counts as their socket events carry them (a socket that just connected). */
    async socketCounts(scope: MessageScope) {
      return countEvents(await repo.unseenAndUnread(scope, SOCKET_COUNT_CAP + 1));
    },

    /** The subscriber an API call names by its `subscriberId`, if it exists in the environment. */
    subscriberOf: (environmentId: string, subscriberId: string) =>
      deps.subscribers.bySubscriberId(environmentId, subscriberId),

    /**
     * A page of the in-app feed, newest first. As in Novu 0.24, one extra row tells `hasMore`
     * and `totalCount` is the number of items on this page, so no query ever counts all of a
     * subscriber's messages.
     */
    async feed(subscriber: Subscriber, query: FeedQuery): Promise<FeedPage> {
      const filter: MessageFilter = {
        feedIdentifiers: query.feedIdentifiers,
        seen: query.seen,
        read: query.read,
        payload: decodePayloadFilter(query.payload),
      };
      const scope = scopeOf(subscriber);
      const rows = await repo.feedPage(scope, filter, {
        offset: query.page * query.limit,
        limit: query.limit + 1,
      });
      const items = rows.slice(0, query.limit);
      return {
        data: await documentsOf(subscriber, items),
        totalCount: items.length,
        hasMore: rows.length > query.limit,
        pageSize: query.limit,
        page: query.page,
      };
    },

    /**
     * In-app messages counted up to `limit`, with Novu's defaults: `unseen` counts unseen ones
     * unless `seen` is given, `unread` unread ones unless `read` is given, and `count` unseen
     * ones unless `seen` or `read` is given.
     */
    count(
      subscriber: Subscriber,
      kind: 'unseen' | 'unread' | 'count',
      query: Omit<MessageFilter, 'payload'> & { limit: number },
    ): Promise<number> {
      const { limit, feedIdentifiers } = query;
      const filter: MessageFilter =
        kind === 'unseen'
          ? { feedIdentifiers, seen: query.seen ?? false }
          : kind === 'unread'
            ? { feedIdentifiers, read: query.read ?? false }
            : query.seen === undefined && query.read === undefined
              ? { feedIdentifiers, seen: false }
              : { feedIdentifiers, seen: query.seen, read: query.read };
      return repo.count(scopeOf(subscriber), filter, limit);
    },

    /**
     * Sets seen and/or read on the subscriber's messages among `messageIds` and answers them;
     * 404 when none of them is the subscriber's. Emits the count of each flag given.
     */
    async markAs(
      subscriber: Subscriber,
      messageIds: string[],
      mark: MessageMark,
    ): Promise<MessageDocument[]> {
      const scope = scopeOf(subscriber);
      const changes = mark.seen === undefined && mark.read === undefined ? { seen: true } : mark;
      const rows = await repo.mark(scope, messageIds, changes);
      if (rows.length === 0)
        throw notFound(
          messageIds.length === 1
            ? `Could not find a message with id ${messageIds[0]}`
            : 'Could not find any of the given messages',
        );
      await emitCounts(scope, {
        unseen: changes.seen !== undefined,
        unread: changes.read !== undefined,
      });
      // In the order asked for.
      const order = new Map(messageIds.map((id, i) => [id, i]));
      rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      return documentsOf(subscriber, rows);
    },

    /** Marks every message (of those feeds) read, seen, unread or unseen; answers how many changed. */
    async markAll(
      subscriber: Subscriber,
      markAs: MarkAllAs,
      feedIdentifiers?: string[],
    ): Promise<number> {
      const scope = scopeOf(subscriber);
      const tally = await repo.markAll(scope, markAs, feedIdentifiers);
      if (tally.modified > 0) {
        const readChanges = markAs === 'read' || markAs === 'unread';
        await emitCounts(scope, {
          // `read` and `unread` also set seen: the unseen count changes if any was unseen.
          unseen: readChanges ? tally.unseen > 0 : true,
          unread: readChanges,
        });
      }
      return tally.modified;
    },

    /** Soft-deletes one message; 400 as Novu when it is unknown or not the subscriber's. */
    async remove(subscriber: Subscriber, messageId: string): Promise<MessageDocument> {
      const scope = scopeOf(subscriber);
      const row = await repo.softDelete(scope, messageId);
      if (!row) throw badRequest(`Could not find a message with id ${messageId}`);
      await emitCounts(scope, { unseen: !row.seen, unread: !row.read });
      return documentOf(subscriber, row);
    },

    /** Soft-deletes every in-app message of the subscriber, or of one feed (its `_id` or identifier). */
    async removeAll(subscriber: Subscriber, feedId?: string): Promise<number> {
      const scope = scopeOf(subscriber);
      let feed: string | undefined;
      if (feedId) {
        const found = await repo.feed(subscriber.environmentId, feedId);
        if (!found) throw notFound(`Feed with ${feedId} not found`);
        feed = found.id;
      }
      const tally = await repo.softDeleteMany(scope, feed ? { feedId: feed } : {});
      await emitChanged(scope, tally);
      return tally.modified;
    },

    /** Soft-deletes the subscriber's messages among `messageIds` (others are ignored). */
    async removeMany(subscriber: Subscriber, messageIds: string[]): Promise<number> {
      const scope = scopeOf(subscriber);
      const tally = await repo.softDeleteMany(scope, { ids: messageIds });
      await emitChanged(scope, tally);
      return tally.modified;
    },

    /**
     * Archives one message (out of the feed and the counts, kept in the archive) or brings it
     * back; 404 when it is not the subscriber's. Both counts follow.
     */
    async setArchived(
      subscriber: Subscriber,
      messageId: string,
      archived: boolean,
    ): Promise<MessageDocument> {
      const scope = scopeOf(subscriber);
      const row = await repo.setArchived(scope, messageId, archived);
      if (!row) throw notFound(`Could not find a message with id ${messageId}`);
      await emitBoth(scope);
      return documentOf(subscriber, row);
    },

    /** Archives every read message (of those feeds); answers how many. */
    async archiveRead(subscriber: Subscriber, feedIdentifiers?: string[]): Promise<number> {
      const scope = scopeOf(subscriber);
      const tally = await repo.archiveRead(scope, feedIdentifiers);
      await emitChanged(scope, tally);
      return tally.modified;
    },

    /**
     * Snoozes one message until `until` (in the future, within a year): it leaves the inbox and
     * comes back unseen and unread then, through a delayed queue job that survives restarts.
     */
    async snooze(subscriber: Subscriber, messageId: string, until: Date): Promise<MessageDocument> {
      const delayMs = until.getTime() - now().getTime();
      if (delayMs <= 0) throw badRequest('until must be a time in the future');
      if (delayMs > MAX_SNOOZE_MS) throw badRequest('until must be at most 365 days ahead');
      const scope = scopeOf(subscriber);
      const row = await repo.snooze(scope, messageId, until);
      if (!row) throw notFound(`Could not find a message with id ${messageId}`);
      // Keyed by message and time: a client that retries the call schedules one job.
      await deps.scheduler.enqueue(
        { kind: 'wake-snoozed', messageId: row.id, until: until.toISOString() },
        { delayMs, dedupeKey: `wake-snoozed:${row.id}:${until.getTime()}` },
      );
      await emitBoth(scope);
      return documentOf(subscriber, row);
    },

    /** Ends a snooze now; the message is back as it was. 404 when it is not snoozed. */
    async unsnooze(subscriber: Subscriber, messageId: string): Promise<MessageDocument> {
      const scope = scopeOf(subscriber);
      const row = await repo.unsnooze(scope, messageId);
      if (!row) throw notFound(`Could not find a snoozed message with id ${messageId}`);
      await emitBoth(scope);
      return documentOf(subscriber, row);
    },

    /**
     * The worker's side of a snooze: at its end the message comes back unseen and unread and
     * is pushed like a new one. Run early by the queue's clock, it waits again for what is left.
     */
    async wakeSnoozed(task: WakeSnoozedTask): Promise<void> {
      const until = new Date(task.until);
      const outcome = await repo.wake(task.messageId, until);
      if (!outcome) return;
      if ('leftMs' in outcome) {
        await deps.scheduler.enqueue(task, {
          delayMs: outcome.leftMs,
          dedupeKey: `wake-snoozed:${task.messageId}:${until.getTime()}:${Date.now()}`,
        });
        return;
      }
      await this.notifyNewMessage(toMessageDocument(outcome.row));
    },

    /** The archive, newest archived first, as a feed page. */
    archived: (subscriber: Subscriber, query: { page: number; limit: number }) =>
      outOfInboxPage(subscriber, 'archived', query),

    /** The snoozed messages, soonest back first, as a feed page. */
    snoozed: (subscriber: Subscriber, query: { page: number; limit: number }) =>
      outOfInboxPage(subscriber, 'snoozed', query),

    /** Stores the outcome of a CTA button (`cta.action.status`, `cta.action.result`). */
    async updateAction(
      subscriber: Subscriber,
      messageId: string,
      action: {
        type: 'primary' | 'secondary';
        status: 'pending' | 'done';
        payload?: Record<string, unknown> | undefined;
      },
    ): Promise<MessageDocument> {
      const row = await repo.updateAction(scopeOf(subscriber), messageId, action);
      if (!row) throw notFound(`Message ${messageId} not found`);
      return documentOf(subscriber, row);
    },

    /** Pushes a new message to the recipient's sockets, followed by both counts. */
    async notifyNewMessage(message: MessageDocument): Promise<void> {
      deps.realtime.emit(message._subscriberId, 'notification_received', { message });
      await emitCounts(
        { environmentId: message._environmentId, subscriberId: message._subscriberId },
        { unseen: true, unread: true },
      );
    },

    /**
     * Creates an in-app message and pushes it, followed by both counts (what the workflow
     * engine calls). The counts come with the insert, one statement for every message written
     * at the same time.
     */
    async createInAppMessage(input: NewInAppMessage): Promise<MessageDocument> {
      const { row, created, ...counts } = await insertInApp(input);
      const message = toMessageDocument(row);
      // Sent before: the subscriber was told then.
      if (!created) return message;
      // After the set's commit: a socket event never names a message that is not stored.
      deps.realtime.emit(message._subscriberId, 'notification_received', { message });
      sendCounts(
        { environmentId: message._environmentId, subscriberId: message._subscriberId },
        { unseen: true, unread: true },
        counts,
      );
      return message;
    },

    /** `createInAppMessage` from the engine's job and step. */
    deliverInApp(input: InAppDelivery): Promise<MessageDocument> {
      const { job } = input;
      return this.createInAppMessage({
        environmentId: job.environmentId,
        organizationId: job.organizationId,
        notificationId: job.notificationId,
        subscriberId: job.subscriberId,
        workflowId: job.workflowId,
        jobId: job.id,
        stepId: input.step.id,
        transactionId: job.transactionId,
        templateIdentifier: input.templateIdentifier,
        feedId: input.feedId,
        content: input.content,
        payload: input.payload,
        cta: {
          ...(input.cta as Partial<MessageCta>),
          type: 'redirect',
          data: (input.cta.data as MessageCta['data'] | undefined) ?? {},
        },
        actor:
          input.actor && isActorType(input.actor.type)
            ? { type: input.actor.type, data: input.actor.data }
            : null,
      });
    },

    /**
     * GET /v1/messages: the environment's messages of every channel, newest first; a
     * subscriberId the environment does not know matches nothing.
     */
    async listOfEnvironment(
      environmentId: string,
      query: {
        subscriberId?: string | undefined;
        channel?: string | undefined;
        transactionIds?: string[] | undefined;
        page: number;
        limit: number;
      },
    ) {
      let subscriberId: string | undefined;
      if (query.subscriberId) {
        const subscriber = await deps.subscribers.bySubscriberId(environmentId, query.subscriberId);
        if (!subscriber) return { items: [], hasMore: false };
        subscriberId = subscriber.id;
      }
      const { items, hasMore } = await repo.listOfEnvironment(
        environmentId,
        { subscriberId, channel: query.channel, transactionIds: query.transactionIds },
        query.page,
        query.limit,
      );
      return { items: items.map((row) => toMessageDocument(row)), hasMore };
    },

    /** DELETE /v1/messages/:messageId: true when a message of the environment was deleted. */
    async deleteInEnvironment(environmentId: string, messageId: string): Promise<boolean> {
      if (!isId(messageId)) return false;
      const row = await repo.softDeleteInEnvironment(environmentId, messageId);
      if (!row) return false;
      // An unseen or unread in-app message changes the subscriber's badge.
      if (row.channel === 'in_app' && (!row.seen || !row.read)) {
        await emitChanged(
          { environmentId, subscriberId: row.subscriberId },
          { modified: 1, unseen: row.seen ? 0 : 1, unread: row.read ? 0 : 1 },
        );
      }
      return true;
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
