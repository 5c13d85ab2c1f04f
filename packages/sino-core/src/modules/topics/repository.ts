import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { subscribers, topicSubscribers, topics } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type Topic = typeof topics.$inferSelect;

/** One membership, with both ids of the subscriber. */
export interface TopicMembership {
  topic: Topic;
  subscriberId: string;
  externalSubscriberId: string;
}

export function createTopicRepository(db: Database) {
  const byKeyWhere = (environmentId: string, key: string) =>
    and(eq(topics.environmentId, environmentId), eq(topics.key, key));

  return {
    async byKey(environmentId: string, key: string): Promise<Topic | undefined> {
      const [t] = await db.select().from(topics).where(byKeyWhere(environmentId, key));
      return t;
    },

    /** The new topic, or undefined when the key is taken in the environment. */
    async create(environmentId: string, key: string, name: string): Promise<Topic | undefined> {
      const [t] = await db
        .insert(topics)
        .values({ id: newId(), environmentId, key, name })
        .onConflictDoNothing()
        .returning();
      return t;
    },

    async rename(environmentId: string, key: string, name: string): Promise<Topic | undefined> {
      const [t] = await db
        .update(topics)
        .set({ name, updatedAt: sql`now()` })
        .where(byKeyWhere(environmentId, key))
        .returning();
      return t;
    },

    /** Deletes the topic only while nobody is subscribed to it, in one statement. */
    async removeIfEmpty(environmentId: string, key: string): Promise<boolean> {
      const removed = await db
        .delete(topics)
        .where(
          and(
            byKeyWhere(environmentId, key),
            sql`not exists (select 1 from ${topicSubscribers} where ${topicSubscribers.topicId} = ${topics.id})`,
          ),
        )
        .returning({ id: topics.id });
      return removed.length > 0;
    },

    /** A page of the environment's topics (oldest first), optionally of one key, and the total. */
    async page(environmentId: string, page: number, pageSize: number, key?: string) {
      const where =
        key === undefined
          ? eq(topics.environmentId, environmentId)
          : byKeyWhere(environmentId, key);
      const [items, [total]] = await Promise.all([
        db
          .select()
          .from(topics)
          .where(where)
          .orderBy(asc(topics.createdAt), asc(topics.id))
          .limit(pageSize)
          .offset(page * pageSize),
        db.select({ n: count() }).from(topics).where(where),
      ]);
      return { items, totalCount: total?.n ?? 0 };
    },

    /** The external subscriberIds of each topic, in the order they joined. */
    async externalIdsOf(topicIds: string[]): Promise<Map<string, string[]>> {
      const byTopic = new Map<string, string[]>(topicIds.map((id) => [id, []]));
      if (topicIds.length === 0) return byTopic;
      const rows = await db
        .select({ topicId: topicSubscribers.topicId, subscriberId: subscribers.subscriberId })
        .from(topicSubscribers)
        .innerJoin(subscribers, eq(subscribers.id, topicSubscribers.subscriberId))
        .where(inArray(topicSubscribers.topicId, topicIds))
        .orderBy(asc(topicSubscribers.createdAt), asc(topicSubscribers.subscriberId));
      for (const row of rows) byTopic.get(row.topicId)!.push(row.subscriberId);
      return byTopic;
    },

    /** Internal and external ids of the environment's subscribers among `externalIds`. */
    async findSubscribers(environmentId: string, externalIds: string[]) {
      if (externalIds.length === 0) return [];
      return db
        .select({ id: subscribers.id, subscriberId: subscribers.subscriberId })
        .from(subscribers)
        .where(
          and(
            eq(subscribers.environmentId, environmentId),
            inArray(subscribers.subscriberId, externalIds),
          ),
        );
    },

    /** Subscribes them; a subscriber already in the topic stays as it was. */
    async addSubscribers(topicId: string, subscriberIds: string[]): Promise<void> {
      if (subscriberIds.length === 0) return;
      await db
        .insert(topicSubscribers)
        .values(subscriberIds.map((subscriberId) => ({ topicId, subscriberId })))
        .onConflictDoNothing();
    },

    async removeSubscribers(topicId: string, subscriberIds: string[]): Promise<void> {
      if (subscriberIds.length === 0) return;
      await db
        .delete(topicSubscribers)
        .where(
          and(
            eq(topicSubscribers.topicId, topicId),
            inArray(topicSubscribers.subscriberId, subscriberIds),
          ),
        );
    },

    async membership(
      environmentId: string,
      key: string,
      externalSubscriberId: string,
    ): Promise<TopicMembership | undefined> {
      const [row] = await db
        .select({
          topic: topics,
          subscriberId: subscribers.id,
          externalSubscriberId: subscribers.subscriberId,
        })
        .from(topicSubscribers)
        .innerJoin(topics, eq(topics.id, topicSubscribers.topicId))
        .innerJoin(subscribers, eq(subscribers.id, topicSubscribers.subscriberId))
        .where(
          and(
            byKeyWhere(environmentId, key),
            eq(subscribers.environmentId, environmentId),
            eq(subscribers.subscriberId, externalSubscriberId),
          ),
        );
      return row;
    },

    /**
     * Internal ids of the topic's subscribers, in batches of `batch` ordered by id, so that a
     * topic of any size is read with bounded memory (the engine's fan-out).
     */
    async *subscriberIdsOfTopic(
      environmentId: string,
      topicKey: string,
      batch = 500,
    ): AsyncGenerator<string[]> {
      const [topic] = await db
        .select({ id: topics.id })
        .from(topics)
        .where(byKeyWhere(environmentId, topicKey));
      if (!topic) return;
      let after = '';
      for (;;) {
        const rows = await db
          .select({ id: topicSubscribers.subscriberId })
          .from(topicSubscribers)
          .where(
            and(
              eq(topicSubscribers.topicId, topic.id),
              sql`${topicSubscribers.subscriberId} > ${after}`,
            ),
          )
          .orderBy(asc(topicSubscribers.subscriberId))
          .limit(batch);
        if (rows.length === 0) return;
        yield rows.map((r) => r.id);
        if (rows.length < batch) return;
        after = rows[rows.length - 1]!.id;
      }
    },
  };
}

export type TopicRepository = ReturnType<typeof createTopicRepository>;
