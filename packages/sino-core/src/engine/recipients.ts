import type { Recipient } from '../modules/events/schemas.js';
import type { Subscriber, SubscriberRepository } from '../modules/subscribers/repository.js';
import type { EngineRepository } from './repository.js';
import type { TopicRepository } from '../modules/topics/repository.js';
import type { EngineTask } from './ports.js';

type TriggerTask = Extract<EngineTask, { kind: 'trigger' }>;

const BATCH = 500;

/**
 * Who a trigger reaches, in batches: subscribers named by id (created when new), named inline
 * (created or updated), every member of the named topics, or every subscriber of the
 * environment for a broadcast. Each subscriber once; the actor is not notified of its own
 * action through a topic.
 */
export function createRecipientResolver(deps: {
  repo: EngineRepository;
  subscribers: SubscriberRepository;
  topics: Pick<TopicRepository, 'subscriberIdsOfTopic'>;
}) {
  async function named(task: TriggerTask, recipient: Recipient): Promise<Subscriber> {
    const ids = {
      environmentId: task.environmentId,
      organizationId: task.organizationId,
    };
    if (typeof recipient === 'string')
      return deps.subscribers.ensure({ ...ids, subscriberId: recipient });
    const { subscriberId, ...profile } = recipient as Exclude<
      Recipient,
      string | { type: 'Topic' }
    >;
    return deps.subscribers.upsert({ ...ids, subscriberId: subscriberId! }, profile);
  }

  return {
    async resolveActor(task: TriggerTask): Promise<Subscriber | null> {
      if (task.actor === undefined) return null;
      return named(task, task.actor as Recipient);
    },

    async *resolveRecipients(task: TriggerTask): AsyncGenerator<Subscriber[]> {
      if (task.to === 'broadcast') {
        for await (const ids of deps.subscribers.allIds(task.environmentId, BATCH))
          yield deps.repo.subscribersByIds(ids);
        return;
      }
      const seen = new Set<string>();
      const actorId =
        typeof task.actor === 'string'
          ? task.actor
          : (task.actor as { subscriberId?: string } | undefined)?.subscriberId;
      const direct: Subscriber[] = [];
      for (const recipient of task.to as Recipient[]) {
        if (typeof recipient === 'object' && 'type' in recipient && recipient.type === 'Topic')
          continue;
        const s = await named(task, recipient);
        if (!seen.has(s.id)) direct.push(s);
        seen.add(s.id);
      }
      if (direct.length > 0) yield direct;
      for (const recipient of task.to as Recipient[]) {
        if (typeof recipient !== 'object' || !('type' in recipient) || recipient.type !== 'Topic')
          continue;
        for await (const ids of deps.topics.subscriberIdsOfTopic(
          task.environmentId,
          recipient.topicKey,
          BATCH,
        )) {
          const fresh = ids.filter((id) => !seen.has(id));
          fresh.forEach((id) => seen.add(id));
          const rows = (await deps.repo.subscribersByIds(fresh)).filter(
            (s) => s.subscriberId !== actorId,
          );
          if (rows.length > 0) yield rows;
        }
      }
    },
  };
}
