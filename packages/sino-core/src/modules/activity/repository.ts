import {
  and,
  asc,
  desc,
  eq,
  exists,
  gte,
  ilike,
  inArray,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { containsPattern } from '../../db/like.js';
import type { Channel, JobStatus } from '@sino/shared';
import {
  executionDetails,
  jobs,
  notifications,
  subscribers,
  workflowSteps,
  workflows,
} from '../../db/schema.js';
import { isId } from '../../ids.js';

export type Notification = typeof notifications.$inferSelect;
export type ActivityJob = typeof jobs.$inferSelect;
export type ActivitySubscriber = typeof subscribers.$inferSelect;
export type ActivityWorkflow = typeof workflows.$inferSelect;
export type ActivityStep = typeof workflowSteps.$inferSelect;
/** An execution detail with the workflow of its notification (Novu's `_notificationTemplateId`). */
export type ActivityDetail = typeof executionDetails.$inferSelect & { workflowId: string };

/** What the activity feed can be narrowed by; every list is "any of". */
export interface NotificationFilter {
  transactionIds?: string[] | undefined;
  workflowIds?: string[] | undefined;
  /** Internal subscriber ids. */
  subscriberIds?: string[] | undefined;
  channels?: Channel[] | undefined;
  /** A job of the notification in one of these statuses. */
  statuses?: JobStatus[] | undefined;
  after?: Date | undefined;
  before?: Date | undefined;
}

/** The SQL of the activity feed: notifications with their jobs and execution details. */
export function createActivityRepository(db: Database) {
  return {
    /**
     * Internal ids of the environment's subscribers named by `subscriberIds`, by `emails`, or
     * matching `search` (email or name containing it, or that exact subscriberId): any of them.
     */
    async subscriberIdsMatching(
      environmentId: string,
      by: { subscriberIds?: string[]; emails?: string[]; search?: string },
    ): Promise<string[]> {
      const any: SQL[] = [];
      if (by.subscriberIds?.length) any.push(inArray(subscribers.subscriberId, by.subscriberIds));
      if (by.emails?.length) any.push(inArray(subscribers.email, by.emails));
      if (by.search) {
        const pattern = containsPattern(by.search);
        any.push(
          or(
            eq(subscribers.subscriberId, by.search),
            ilike(subscribers.email, pattern),
            sql`concat_ws(' ', ${subscribers.firstName}, ${subscribers.lastName}) ilike ${pattern}`,
          )!,
        );
      }
      if (any.length === 0) return [];
      const rows = await db
        .select({ id: subscribers.id })
        .from(subscribers)
        .where(and(eq(subscribers.environmentId, environmentId), or(...any)));
      return rows.map((r) => r.id);
    },

    /** Up to `limit` notifications of the environment from `offset`, newest first. */
    async page(
      environmentId: string,
      filter: NotificationFilter,
      offset: number,
      limit: number,
    ): Promise<Notification[]> {
      const where: SQL[] = [eq(notifications.environmentId, environmentId)];
      if (filter.transactionIds)
        where.push(inArray(notifications.transactionId, filter.transactionIds));
      if (filter.workflowIds) where.push(inArray(notifications.workflowId, filter.workflowIds));
      if (filter.subscriberIds)
        where.push(inArray(notifications.subscriberId, filter.subscriberIds));
      if (filter.channels) {
        where.push(
          exists(
            db
              .select({ one: sql`1` })
              .from(jobs)
              .where(
                and(eq(jobs.notificationId, notifications.id), inArray(jobs.type, filter.channels)),
              ),
          ),
        );
      }
      if (filter.statuses) {
        where.push(
          exists(
            db
              .select({ one: sql`1` })
              .from(jobs)
              .where(
                and(
                  eq(jobs.notificationId, notifications.id),
                  inArray(jobs.status, filter.statuses),
                ),
              ),
          ),
        );
      }
      if (filter.after) where.push(gte(notifications.createdAt, filter.after));
      if (filter.before) where.push(lt(notifications.createdAt, filter.before));
      return db
        .select()
        .from(notifications)
        .where(and(...where))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(limit)
        .offset(offset);
    },

    /** One notification of the environment; a malformed id matches nothing. */
    async notification(environmentId: string, id: string): Promise<Notification | undefined> {
      if (!isId(id)) return undefined;
      const [n] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.environmentId, environmentId), eq(notifications.id, id)));
      return n;
    },

    async subscribers(ids: string[]): Promise<ActivitySubscriber[]> {
      if (ids.length === 0) return [];
      return db.select().from(subscribers).where(inArray(subscribers.id, ids));
    },

    /** The workflows (deleted ones too: past notifications keep their name) and their steps. */
    async workflows(
      ids: string[],
    ): Promise<{ workflows: ActivityWorkflow[]; steps: ActivityStep[] }> {
      if (ids.length === 0) return { workflows: [], steps: [] };
      const [found, steps] = await Promise.all([
        db.select().from(workflows).where(inArray(workflows.id, ids)),
        db
          .select()
          .from(workflowSteps)
          .where(inArray(workflowSteps.workflowId, ids))
          .orderBy(asc(workflowSteps.workflowId), asc(workflowSteps.position)),
      ]);
      return { workflows: found, steps };
    },

    /** The jobs of the notifications, each notification's in step order. */
    async jobs(notificationIds: string[]): Promise<ActivityJob[]> {
      if (notificationIds.length === 0) return [];
      const rows = await db
        .select({ job: jobs })
        .from(jobs)
        // A step removed by a later workflow update leaves its jobs behind: they come last.
        .leftJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
        .where(inArray(jobs.notificationId, notificationIds))
        .orderBy(
          asc(jobs.notificationId),
          sql`${workflowSteps.position} asc nulls last`,
          asc(jobs.createdAt),
          asc(jobs.id),
        );
      return rows.map((r) => r.job);
    },

    /**
     * Execution details of the environment's notifications, oldest first; only those of one
     * subscriber (internal id) when `subscriberId` is given.
     */
    async details(
      environmentId: string,
      notificationIds: string[],
      subscriberId?: string,
    ): Promise<ActivityDetail[]> {
      const ids = notificationIds.filter(isId);
      if (ids.length === 0) return [];
      const rows = await db
        .select({ detail: executionDetails, workflowId: notifications.workflowId })
        .from(executionDetails)
        .innerJoin(notifications, eq(notifications.id, executionDetails.notificationId))
        .where(
          and(
            eq(executionDetails.environmentId, environmentId),
            inArray(executionDetails.notificationId, ids),
            subscriberId === undefined
              ? undefined
              : eq(executionDetails.subscriberId, subscriberId),
          ),
        )
        .orderBy(asc(executionDetails.createdAt), asc(executionDetails.id));
      return rows.map((r) => ({ ...r.detail, workflowId: r.workflowId }));
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
