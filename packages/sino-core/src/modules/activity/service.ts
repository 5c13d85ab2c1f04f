import type { Channel, JobStatus } from '@sino/shared';
import { notFound } from '../../errors.js';
import { isId } from '../../ids.js';
import type { Environment } from '../identity/repository.js';
import type { SubscriberRepository } from '../subscribers/repository.js';
import { detailWire, notificationWire, type ActivityContext } from './present.js';
import type {
  ActivityDetail,
  ActivityJob,
  ActivityRepository,
  ActivityStep,
  Notification,
  NotificationFilter,
} from './repository.js';
import type {
  ActivityFeedAnswer,
  ActivityNotificationWire,
  ExecutionDetailWire,
} from './schemas.js';

/** What the activity feed is asked for, lists already merged from their query forms. */
export interface ActivityRequest {
  page: number;
  limit: number;
  channels?: Channel[] | undefined;
  /** Workflow `_id`s. */
  templates?: string[] | undefined;
  emails?: string[] | undefined;
  /** External subscriberIds. */
  subscriberIds?: string[] | undefined;
  transactionIds?: string[] | undefined;
  search?: string | undefined;
  /** Sino's: notifications with a job in one of these statuses. */
  statuses?: JobStatus[] | undefined;
  /** Sino's: created at or after. */
  after?: Date | undefined;
  /** Sino's: created before. */
  before?: Date | undefined;
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * The activity feed of the server API: what each trigger did, per notification (one per
 * subscriber and transaction), with its jobs and their execution log.
 */
export function createActivityService(deps: {
  repo: ActivityRepository;
  subscribers: SubscriberRepository;
}) {
  const { repo } = deps;

  /** Loads, once for the whole page, everything its notifications refer to. */
  async function present(
    environment: Environment,
    list: Notification[],
  ): Promise<ActivityNotificationWire[]> {
    const notificationIds = list.map((n) => n.id);
    const [subscribers, found, jobs, details] = await Promise.all([
      repo.subscribers([...new Set(list.map((n) => n.subscriberId))]),
      repo.workflows([...new Set(list.map((n) => n.workflowId))]),
      repo.jobs(notificationIds),
      repo.details(environment.id, notificationIds),
    ]);
    const context: ActivityContext = {
      subscribers: new Map(subscribers.map((s) => [s.id, s])),
      workflows: new Map(found.workflows.map((w) => [w.id, w])),
      steps: groupBy<ActivityStep>(found.steps, (s) => s.workflowId),
      jobs: groupBy<ActivityJob>(jobs, (j) => j.notificationId),
      details: groupBy<ActivityDetail>(details, (d) => d.notificationId),
    };
    return list.map((n) => notificationWire(n, context));
  }

  return {
    /** A page of the environment's notifications, newest first, narrowed by the filters. */
    async feed(environment: Environment, request: ActivityRequest): Promise<ActivityFeedAnswer> {
      const empty = { data: [], hasMore: false, pageSize: request.limit, page: request.page };
      const filter: NotificationFilter = {
        transactionIds: request.transactionIds,
        channels: request.channels,
        statuses: request.statuses,
        after: request.after,
        before: request.before,
      };
      if (request.templates) {
        // A malformed id names no workflow.
        filter.workflowIds = request.templates.filter(isId);
        if (filter.workflowIds.length === 0) return empty;
      }
      if (request.subscriberIds || request.emails || request.search) {
        filter.subscriberIds = await repo.subscriberIdsMatching(environment.id, {
          ...(request.subscriberIds && { subscriberIds: request.subscriberIds }),
          ...(request.emails && { emails: request.emails }),
          ...(request.search && { search: request.search }),
        });
        if (filter.subscriberIds.length === 0) return empty;
      }
      // One more than the page tells whether another page follows.
      const rows = await repo.page(
        environment.id,
        filter,
        request.page * request.limit,
        request.limit + 1,
      );
      const list = rows.slice(0, request.limit);
      return {
        data: await present(environment, list),
        hasMore: rows.length > request.limit,
        pageSize: request.limit,
        page: request.page,
      };
    },

    /** One notification of the environment with its jobs and their execution log, or 404. */
    async notification(
      environment: Environment,
      notificationId: string,
    ): Promise<ActivityNotificationWire> {
      const found = await repo.notification(environment.id, notificationId);
      if (!found) throw notFound(`Notification with id ${notificationId} not found`);
      const [wire] = await present(environment, [found]);
      return wire!;
    },

    /**
     * The execution log of one notification for one subscriber (external id), oldest first;
     * 404 when the environment has no such subscriber.
     */
    async executionDetails(
      environment: Environment,
      notificationId: string,
      subscriberId: string,
    ): Promise<ExecutionDetailWire[]> {
      const subscriber = await deps.subscribers.bySubscriberId(environment.id, subscriberId);
      if (!subscriber) throw notFound(`Subscriber not found for id ${subscriberId}`);
      const details = await repo.details(environment.id, [notificationId], subscriber.id);
      return details.map(detailWire);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
