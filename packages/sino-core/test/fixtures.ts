import { and, eq } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  environments,
  feeds,
  integrations,
  messages,
  notifications,
  subscribers,
} from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import type { SinoTestApp } from './harness.js';

export type MessageRow = typeof messages.$inferSelect;
export type SubscriberRow = typeof subscribers.$inferSelect;

/** The subscriber row of a `subscriberId` in the test environment (or another one). */
export async function subscriberRow(
  t: SinoTestApp,
  subscriberId: string,
  environmentId = t.credentials.environmentId,
): Promise<SubscriberRow> {
  const [row] = await t.db
    .select()
    .from(subscribers)
    .where(
      and(eq(subscribers.environmentId, environmentId), eq(subscribers.subscriberId, subscriberId)),
    );
  if (!row) throw new Error(`no subscriber ${subscriberId}`);
  return row;
}

/** A feed of the environment. */
export async function addFeed(
  db: Database,
  environmentId: string,
  identifier: string,
): Promise<typeof feeds.$inferSelect> {
  const [feed] = await db
    .insert(feeds)
    .values({ id: newId(), environmentId, identifier, name: identifier })
    .returning();
  return feed!;
}

/** A second environment of the same organization, with an active in-app integration. */
export async function addEnvironment(t: SinoTestApp, identifier: string) {
  const [environment] = await t.db
    .insert(environments)
    .values({
      id: newId(),
      organizationId: t.credentials.organizationId,
      name: 'Production',
      identifier,
    })
    .returning();
  await t.db.insert(integrations).values({
    id: newId(),
    environmentId: environment!.id,
    organizationId: t.credentials.organizationId,
    providerId: 'novu',
    channel: 'in_app',
    name: 'In-app',
    identifier: `in-app-${identifier}`,
    active: true,
  });
  return environment!;
}

export interface MessageOptions {
  feedId?: string | null;
  seen?: boolean;
  read?: boolean;
  payload?: Record<string, unknown>;
  content?: string;
  channel?: MessageRow['channel'];
  actor?: MessageRow['actor'];
  cta?: MessageRow['cta'];
  /** Subscriber `_id` of the notification's actor (for `actor.type: 'user'`). */
  actorSubscriberId?: string;
  /** The workflow the messages belong to (a made-up id, matching no workflow, by default). */
  workflowId?: string;
  templateIdentifier?: string;
}

/**
 * `count` messages for the subscriber, inserted directly with creation times one second apart
 * (the last one newest); answers them newest first, as the feed orders them.
 */
export async function insertMessages(
  db: Database,
  subscriber: SubscriberRow,
  count: number,
  options: MessageOptions = {},
  start = Date.now() - 3_600_000,
): Promise<MessageRow[]> {
  const notificationId = newId();
  const workflowId = options.workflowId ?? newId();
  await db.insert(notifications).values({
    id: notificationId,
    environmentId: subscriber.environmentId,
    organizationId: subscriber.organizationId,
    workflowId,
    subscriberId: subscriber.id,
    transactionId: `tx-${notificationId}`,
    actorSubscriberId: options.actorSubscriberId ?? null,
  });
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    environmentId: subscriber.environmentId,
    organizationId: subscriber.organizationId,
    notificationId,
    subscriberId: subscriber.id,
    workflowId: options.workflowId ?? newId(),
    templateIdentifier: options.templateIdentifier ?? 'reservation-booked',
    jobId: newId(),
    stepId: newId(),
    feedId: options.feedId ?? null,
    channel: options.channel ?? 'in_app',
    content: options.content ?? `Message ${i + 1}`,
    payload: options.payload ?? { index: i + 1 },
    ...(options.cta && { cta: options.cta }),
    actor: options.actor ?? null,
    transactionId: `tx-${notificationId}`,
    seen: options.seen ?? false,
    read: options.read ?? false,
    createdAt: new Date(start + i * 1000),
    updatedAt: new Date(start + i * 1000),
  }));
  const inserted = count > 0 ? await db.insert(messages).values(rows).returning() : [];
  return inserted.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** The stored row of a message (to check what a call changed, or did not). */
export async function messageRow(db: Database, id: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.id, id));
  return row;
}

/** Removes every message of the subscriber, so a test starts from an empty inbox. */
export async function clearMessages(db: Database, subscriber: SubscriberRow): Promise<void> {
  await db.delete(messages).where(eq(messages.subscriberId, subscriber.id));
}

/**
 * Turns off the sandbox email and SMS integrations a new environment has, through the API:
 * for tests of a channel with no active integration.
 */
export async function turnOffSandboxDelivery(t: SinoTestApp): Promise<void> {
  const all = (await t.api('GET', '/v1/integrations')).json().data as {
    _id: string;
    providerId: string;
  }[];
  for (const i of all.filter((i) => i.providerId === 'novu-email' || i.providerId === 'novu-sms')) {
    const r = await t.api('PUT', `/v1/integrations/${i._id}`, { body: { active: false } });
    if (r.statusCode !== 200) throw new Error(`turning ${i.providerId} off: ${r.statusCode}`);
  }
}

/** Polls until `check` answers something truthy, and answers it; fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 8000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
