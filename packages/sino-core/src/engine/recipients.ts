import type { Recipient } from '../modules/events/schemas.js';
import { groupCommit } from '../batching.js';
import {
  profileChanges,
  type Subscriber,
  type SubscriberProfile,
  type SubscriberRepository,
} from '../modules/subscribers/repository.js';
import type { EngineRepository } from './repository.js';
import type { TopicRepository } from '../modules/topics/repository.js';
import type { EngineTask, ErasedRecipient, ResolvedRecipient } from './ports.js';

type TriggerTask = Extract<EngineTask, { kind: 'trigger' }>;

const BATCH = 500;

/**
 * Who a trigger reaches, in batches: subscribers named by id (created when new), named inline
 * (created or updated), every member of the named topics, or every subscriber of the
 * environment for a broadcast. Each subscriber once; the actor is not notified of its own
 * action through a topic. A subscriber named by an erased id comes back as `erased`: no row is
 * created or changed for it.
 */
/** The profile fields a recipient object gives (its subscriberId aside). */
function profileOf(recipient: Recipient): SubscriberProfile {
  const { subscriberId: _id, ...profile } = recipient as Exclude<
    Recipient,
    string | { type: 'Topic' }
  >;
  return profile;
}

export function createRecipientResolver(deps: {
  repo: EngineRepository;
  subscribers: SubscriberRepository;
  topics: Pick<TopicRepository, 'subscriberIdsOfTopic'>;
}) {
  const idOf = (recipient: Recipient): string =>
    typeof recipient === 'string'
      ? recipient
      : (recipient as { subscriberId: string }).subscriberId;

  // The recipients of a worker's concurrent triggers are looked up together: their rows and
  // tombstones in one statement per set (decision 036).
  const lookUp = groupCommit(
    (pairs: readonly { environmentId: string; subscriberId: string }[]) =>
      deps.subscribers.namedAmong(pairs),
    { retryEach: true },
  );

  const erasedOne = async (task: TriggerTask, subscriberId: string): Promise<ErasedRecipient> => ({
    erased: true,
    key: await deps.subscribers.tombstoneKey(task.environmentId, subscriberId),
  });

  /** The subscriber a recipient names, created or updated; undefined when its id was erased. */
  async function named(
    task: TriggerTask,
    recipient: Recipient,
    checked = false,
  ): Promise<Subscriber | undefined> {
    const ids = {
      environmentId: task.environmentId,
      organizationId: task.organizationId,
    };
    if (typeof recipient === 'string')
      return deps.subscribers.ensure({ ...ids, subscriberId: recipient });
    const { subscriberId } = recipient as { subscriberId: string };
    return deps.subscribers.upsert({ ...ids, subscriberId }, profileOf(recipient), { checked });
  }

  return {
    async resolveActor(task: TriggerTask): Promise<Subscriber | null> {
      if (task.actor === undefined) return null;
      // An erased actor is no actor: nothing of it is written again.
      return (await named(task, task.actor as Recipient)) ?? null;
    },

    async *resolveRecipients(task: TriggerTask): AsyncGenerator<ResolvedRecipient[]> {
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
      const direct: ResolvedRecipient[] = [];
      const byId = (task.to as Recipient[]).filter(
        (r) => !(typeof r === 'object' && 'type' in r && r.type === 'Topic'),
      );
      // Rows and tombstones of every recipient named, looked up with other triggers'.
      const found = await Promise.all(
        byId.map((r) => lookUp({ environmentId: task.environmentId, subscriberId: idOf(r) })),
      );
      for (const [index, recipient] of byId.entries()) {
        const subscriberId = idOf(recipient);
        const { subscriber: existing, erased } = found[index]!;
        // An existing subscriber named by id alone, or with the profile it has, is used as
        // found; the others are created or updated (an existing row is never erased: the
        // erasure deletes it).
        const s = erased
          ? undefined
          : existing &&
              (typeof recipient === 'string' || !profileChanges(existing, profileOf(recipient)))
            ? existing
            : await named(task, recipient, true);
        // Erased before the trigger, or while it was being resolved.
        const key = s ? s.id : `erased:${subscriberId}`;
        if (!seen.has(key)) direct.push(s ?? (await erasedOne(task, subscriberId)));
        seen.add(key);
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
