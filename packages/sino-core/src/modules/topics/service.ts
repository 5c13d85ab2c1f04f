import { conflict, notFound } from '../../errors.js';
import type { Scope } from '../subscribers/service.js';
import type { Topic, TopicMembership, TopicRepository } from './repository.js';

/** A topic with the external subscriberIds of its members (Novu's `TopicDto`). */
export interface TopicWithSubscribers extends Topic {
  subscribers: string[];
}

const uniqueInOrder = (values: string[]) => [...new Set(values)];

/** Topics of the server API (`/v1/topics`): named groups of subscribers to trigger at once. */
export function createTopicService(deps: { topics: TopicRepository }) {
  const repo = deps.topics;

  async function existing(scope: Scope, key: string): Promise<Topic> {
    const topic = await repo.byKey(scope.id, key);
    if (!topic) throw notFound(`Topic with key ${key} not found in current environment`);
    return topic;
  }

  async function withSubscribers(topic: Topic): Promise<TopicWithSubscribers> {
    const members = await repo.externalIdsOf([topic.id]);
    return { ...topic, subscribers: members.get(topic.id) ?? [] };
  }

  return {
    async create(scope: Scope, key: string, name: string): Promise<Topic> {
      const topic = await repo.create(scope.id, key, name);
      if (!topic) {
        throw conflict(
          `Topic exists with key ${key} in the environment ${scope.id} of the organization ${scope.organizationId}`,
        );
      }
      return topic;
    },

    async page(scope: Scope, page: number, pageSize: number, key?: string) {
      const { items, totalCount } = await repo.page(scope.id, page, pageSize, key);
      const members = await repo.externalIdsOf(items.map((t) => t.id));
      return {
        items: items.map((t) => ({ ...t, subscribers: members.get(t.id) ?? [] })),
        totalCount,
      };
    },

    async get(scope: Scope, key: string): Promise<TopicWithSubscribers> {
      const topic = await repo.byKey(scope.id, key);
      if (!topic) throw notFound(`Topic not found for id ${key} in the environment ${scope.id}`);
      return withSubscribers(topic);
    },

    async rename(scope: Scope, key: string, name: string): Promise<TopicWithSubscribers> {
      const topic = await repo.rename(scope.id, key, name);
      if (!topic) throw notFound(`Topic not found for id ${key} in the environment ${scope.id}`);
      return withSubscribers(topic);
    },

    /** Refused while the topic still has subscribers, as Novu does. */
    async remove(scope: Scope, key: string): Promise<void> {
      if (await repo.removeIfEmpty(scope.id, key)) return;
      if (!(await repo.byKey(scope.id, key))) {
        throw notFound(`Topic not found for id ${key} in the environment ${scope.id}`);
      }
      throw conflict(
        `Topic with key ${key} in the environment ${scope.id} can't be deleted as it still has subscribers assigned`,
      );
    },

    /**
     * Subscribes the environment's subscribers among `externalIds`; the others are reported
     * as not found (they are not created).
     */
    async addSubscribers(scope: Scope, key: string, externalIds: string[]) {
      const topic = await existing(scope, key);
      const wanted = uniqueInOrder(externalIds);
      const found = await repo.findSubscribers(scope.id, wanted);
      await repo.addSubscribers(
        topic.id,
        found.map((s) => s.id),
      );
      const known = new Set(found.map((s) => s.subscriberId));
      return {
        succeeded: wanted.filter((id) => known.has(id)),
        notFound: wanted.filter((id) => !known.has(id)),
      };
    },

    async removeSubscribers(scope: Scope, key: string, externalIds: string[]): Promise<void> {
      const topic = await existing(scope, key);
      const found = await repo.findSubscribers(scope.id, uniqueInOrder(externalIds));
      await repo.removeSubscribers(
        topic.id,
        found.map((s) => s.id),
      );
    },

    async membership(
      scope: Scope,
      key: string,
      externalSubscriberId: string,
    ): Promise<TopicMembership> {
      const membership = await repo.membership(scope.id, key, externalSubscriberId);
      if (!membership) {
        throw notFound(
          `Subscriber ${externalSubscriberId} not found for topic ${key} in the environment ${scope.id}`,
        );
      }
      return membership;
    },

    /** Internal ids of a topic's subscribers, in batches (the engine's fan-out to a topic). */
    subscriberIdsOfTopic: (environmentId: string, topicKey: string, batch?: number) =>
      repo.subscriberIdsOfTopic(environmentId, topicKey, batch),
  };
}

export type TopicService = ReturnType<typeof createTopicService>;
