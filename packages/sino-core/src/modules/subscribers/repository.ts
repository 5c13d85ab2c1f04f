import { isDeepStrictEqual } from 'node:util';
import {
  and,
  asc,
  desc,
  eq,
  exists,
  getTableColumns,
  ilike,
  inArray,
  isNull,
  or,
  sql,
} from 'drizzle-orm';
import { plannedSql, rowMapper, type Database } from '@locadora/db';
import {
  erasedSubscribers,
  integrations,
  subscribers,
  type SubscriberChannel,
} from '../../db/schema.js';
import { newId } from '../../ids.js';
import { containsPattern } from '../../db/like.js';
import type { TombstoneKeys } from './tombstones.js';

export type Subscriber = typeof subscribers.$inferSelect;

/** An integration subscriber credentials can be registered for. */
export interface CredentialsIntegration {
  id: string;
  providerId: string;
  identifier: string;
  active: boolean;
}

/** One subscriber of a bulk create-or-update: the given fields only. */
export interface SubscriberUpsert {
  subscriberId: string;
  profile: SubscriberProfile;
  /** When given, replaces the subscriber's credentials (Novu's bulk sets them as sent). */
  channels?: SubscriberChannel[] | undefined;
}

const PROFILE_COLUMNS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'avatar',
  'locale',
  'data',
] as const satisfies readonly (keyof SubscriberProfile)[];

/** The profile fields a trigger, the widget or the server API may set. */
export interface SubscriberProfile {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  avatar?: string | null | undefined;
  locale?: string | null | undefined;
  data?: Record<string, unknown> | null | undefined;
}

/** Only the fields given: an absent field keeps its value, null clears it. */
function given(profile: SubscriberProfile) {
  return Object.fromEntries(
    Object.entries(profile).filter(([, v]) => v !== undefined),
  ) as SubscriberProfile;
}

/**
 * Whether writing `profile` over `existing` would change any of its fields. A trigger naming a
 * known subscriber with the same profile writes nothing, as Novu's `subscriberNeedUpdate`
 * decides (a service such as Locadora names its customer with every event).
 */
export function profileChanges(existing: Subscriber, profile: SubscriberProfile): boolean {
  return Object.entries(given(profile)).some(
    ([key, value]) => !isDeepStrictEqual(existing[key as keyof SubscriberProfile] ?? null, value),
  );
}

/**
 * Subscribers' rows. Every way a row is created (identify, bulk, a trigger naming a new
 * subscriber, a widget session) goes through `upsert`, `ensure` or `upsertMany`, which know the
 * tombstones of erased subscribers: an erased id gets no row again.
 */
export function createSubscriberRepository(db: Database, tombstones: TombstoneKeys) {
  const columns = getTableColumns(subscribers);
  const tombstoneOf = async (environmentId: string, subscriberId: string) =>
    and(
      eq(erasedSubscribers.environmentId, environmentId),
      inArray(
        erasedSubscribers.subscriberKey,
        await tombstones.keysOf(environmentId, subscriberId),
      ),
    );

  // Every widget call and every trigger looks a subscriber up: prepared once, on first use.
  const statements = {
    byId: () =>
      db
        .select()
        .from(subscribers)
        .where(
          and(
            eq(subscribers.environmentId, sql.placeholder('environmentId')),
            eq(subscribers.id, sql.placeholder('id')),
          ),
        )
        .prepare('sino_subscriber_by_id'),
    bySubscriberId: () =>
      db
        .select()
        .from(subscribers)
        .where(
          and(
            eq(subscribers.environmentId, sql.placeholder('environmentId')),
            eq(subscribers.subscriberId, sql.placeholder('subscriberId')),
          ),
        )
        .prepare('sino_subscriber_by_subscriber_id'),
  };
  let byId: ReturnType<typeof statements.byId> | undefined;
  let bySubscriberId: ReturnType<typeof statements.bySubscriberId> | undefined;

  /**
   * A row just created for an id whose tombstone exists is deleted again: its creation raced
   * with the erasure (checked before, erased meanwhile). True when it was.
   */
  async function removeIfErased(environmentId: string, subscriberId: string): Promise<boolean> {
    const removed = await db
      .delete(subscribers)
      .where(
        and(
          eq(subscribers.environmentId, environmentId),
          eq(subscribers.subscriberId, subscriberId),
          exists(
            db
              .select({ one: sql`1` })
              .from(erasedSubscribers)
              .where(await tombstoneOf(environmentId, subscriberId)),
          ),
        ),
      )
      .returning({ id: subscribers.id });
    return removed.length > 0;
  }

  return {
    /** Whether the subscriberId was erased in the environment (it has a tombstone). */
    async isErased(environmentId: string, subscriberId: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql`1` })
        .from(erasedSubscribers)
        .where(await tombstoneOf(environmentId, subscriberId));
      return row !== undefined;
    },
    /** The subscriberIds among `subscriberIds` that were erased in the environment. */
    async erasedAmong(environmentId: string, subscriberIds: string[]): Promise<Set<string>> {
      if (subscriberIds.length === 0) return new Set();
      const byKey = new Map<string, string>();
      for (const id of subscriberIds)
        for (const key of await tombstones.keysOf(environmentId, id)) byKey.set(key, id);
      const rows = await db
        .select({ key: erasedSubscribers.subscriberKey })
        .from(erasedSubscribers)
        .where(
          and(
            eq(erasedSubscribers.environmentId, environmentId),
            inArray(erasedSubscribers.subscriberKey, [...byKey.keys()]),
          ),
        );
      return new Set(rows.map((r) => byKey.get(r.key)!));
    },
    /**
     * For each (environment, subscriberId) pair, in order: its subscriber, if any, and whether
     * the id was erased (has a tombstone); one statement for the whole set (a worker's
     * concurrent triggers look up their recipients together).
     */
    async namedAmong(
      pairs: readonly { environmentId: string; subscriberId: string }[],
    ): Promise<{ subscriber: Subscriber | undefined; erased: boolean }[]> {
      if (pairs.length === 0) return [];
      const rows = await namedAmongStatement.execute(db, {
        environmentIds: pairs.map((p) => p.environmentId),
        subscriberIds: pairs.map((p) => p.subscriberId),
        // Every key a tombstone may be under (decision 038), joined: hex keys hold no comma.
        keys: await Promise.all(
          pairs.map(async (p) =>
            (await tombstones.keysOf(p.environmentId, p.subscriberId)).join(','),
          ),
        ),
      });
      return rows.map((r) => ({
        subscriber: r.id === null ? undefined : subscriberOfRow(r),
        erased: r.erased_subscriber,
      }));
    },
    removeIfErased,
    /** The tombstone key of a subscriberId (what an erased one is remembered by). */
    tombstoneKey: (environmentId: string, subscriberId: string): Promise<string> =>
      tombstones.keyOf(environmentId, subscriberId),
    async byId(environmentId: string, id: string): Promise<Subscriber | undefined> {
      const [s] = await (byId ??= statements.byId()).execute({ environmentId, id });
      return s;
    },
    async bySubscriberId(
      environmentId: string,
      subscriberId: string,
    ): Promise<Subscriber | undefined> {
      const [s] = await (bySubscriberId ??= statements.bySubscriberId()).execute({
        environmentId,
        subscriberId,
      });
      return s;
    },
    /**
     * Creates the subscriber, or updates the given fields of an existing one, atomically.
     * Undefined when the subscriberId was erased: nothing is written.
     */
    async upsert(
      ids: { environmentId: string; organizationId: string; subscriberId: string },
      profile: SubscriberProfile,
      /** The caller looked for the tombstone already (a trigger does, once for all its recipients). */
      options: { checked?: boolean } = {},
    ): Promise<Subscriber | undefined> {
      if (!options.checked && (await this.isErased(ids.environmentId, ids.subscriberId)))
        return undefined;
      const fields = given(profile);
      const [row] = await db
        .insert(subscribers)
        .values({ id: newId(), ...ids, ...fields })
        .onConflictDoUpdate({
          target: [subscribers.environmentId, subscribers.subscriberId],
          set: { ...fields, updatedAt: sql`now()` },
        })
        // A row the statement inserted has no deleting transaction yet (xmax = 0).
        .returning({ ...columns, created: sql<boolean>`(xmax = 0)` });
      const { created, ...subscriber } = row!;
      if (created && (await removeIfErased(ids.environmentId, ids.subscriberId))) return undefined;
      return subscriber;
    },
    /**
     * Creates the subscriber only if absent; never changes an existing one. Undefined when the
     * subscriberId was erased.
     */
    async ensure(ids: {
      environmentId: string;
      organizationId: string;
      subscriberId: string;
    }): Promise<Subscriber | undefined> {
      // Triggers name existing subscribers far more often than new ones: look first. An
      // existing row is never erased (the erasure deletes it with the tombstone's write).
      const existing = await this.bySubscriberId(ids.environmentId, ids.subscriberId);
      if (existing) return existing;
      if (await this.isErased(ids.environmentId, ids.subscriberId)) return undefined;
      const created = await db
        .insert(subscribers)
        .values({ id: newId(), ...ids })
        .onConflictDoNothing()
        .returning({ id: subscribers.id });
      if (created.length > 0 && (await removeIfErased(ids.environmentId, ids.subscriberId)))
        return undefined;
      return this.bySubscriberId(ids.environmentId, ids.subscriberId);
    },
    async update(
      environmentId: string,
      subscriberId: string,
      profile: SubscriberProfile,
    ): Promise<Subscriber | undefined> {
      const [s] = await db
        .update(subscribers)
        .set({ ...given(profile), updatedAt: sql`now()` })
        .where(
          and(
            eq(subscribers.environmentId, environmentId),
            eq(subscribers.subscriberId, subscriberId),
          ),
        )
        .returning();
      return s;
    },
    async setChannels(
      environmentId: string,
      subscriberId: string,
      channels: SubscriberChannel[],
    ): Promise<Subscriber | undefined> {
      const [s] = await db
        .update(subscribers)
        .set({ channels, updatedAt: sql`now()` })
        .where(
          and(
            eq(subscribers.environmentId, environmentId),
            eq(subscribers.subscriberId, subscriberId),
          ),
        )
        .returning();
      return s;
    },
    /** Online now, or offline since now (the last socket of the subscriber closed). */
    async setOnline(id: string, isOnline: boolean): Promise<Subscriber | undefined> {
      const [s] = await db
        .update(subscribers)
        .set(isOnline ? { isOnline } : { isOnline, lastOnlineAt: sql`now()` })
        .where(eq(subscribers.id, id))
        .returning();
      return s;
    },
    async remove(environmentId: string, subscriberId: string): Promise<boolean> {
      const removed = await db
        .delete(subscribers)
        .where(
          and(
            eq(subscribers.environmentId, environmentId),
            eq(subscribers.subscriberId, subscriberId),
          ),
        )
        .returning({ id: subscribers.id });
      return removed.length > 0;
    },
    /**
     * A page of the environment's subscribers, oldest first; one extra row tells `hasMore`.
     * With `search`, those whose subscriberId, name, e-mail or phone holds it (any case).
     */
    async page(environmentId: string, page: number, limit: number, search?: string) {
      const pattern = search ? containsPattern(search) : undefined;
      const rows = await db
        .select()
        .from(subscribers)
        .where(
          and(
            eq(subscribers.environmentId, environmentId),
            pattern
              ? or(
                  ilike(subscribers.subscriberId, pattern),
                  ilike(
                    sql`concat_ws(' ', ${subscribers.firstName}, ${subscribers.lastName})`,
                    pattern,
                  ),
                  ilike(subscribers.email, pattern),
                  ilike(subscribers.phone, pattern),
                )
              : undefined,
          ),
        )
        .orderBy(asc(subscribers.createdAt), asc(subscribers.id))
        .limit(limit + 1)
        .offset(page * limit);
      return { items: rows.slice(0, limit), hasMore: rows.length > limit };
    },
    /**
     * Creates or updates many subscribers, each with only its given fields. Rows that give the
     * same fields share one statement, so a bulk of one shape is one round trip; the whole is
     * one transaction. Every subscriberId must appear once. Answers which rows were created.
     */
    async upsertMany(
      ids: { environmentId: string; organizationId: string },
      items: SubscriberUpsert[],
    ): Promise<{ subscriberId: string; created: boolean }[]> {
      const groups = new Map<string, { columns: string[]; rows: SubscriberUpsert[] }>();
      for (const item of items) {
        const columns: string[] = PROFILE_COLUMNS.filter((c) => item.profile[c] !== undefined);
        if (item.channels !== undefined) columns.push('channels');
        const shape = columns.join(',');
        const group = groups.get(shape) ?? { columns, rows: [] };
        group.rows.push(item);
        groups.set(shape, group);
      }
      // All or nothing: a failed group must not leave the earlier ones written.
      return db.transaction(async (tx) => {
        const results: { subscriberId: string; created: boolean }[] = [];
        for (const { columns, rows } of groups.values()) {
          const values = rows.map((item) => ({
            id: newId(),
            ...ids,
            subscriberId: item.subscriberId,
            ...given(item.profile),
            ...(item.channels !== undefined && { channels: item.channels }),
          }));
          const set = Object.fromEntries(
            columns.map((c) => [c, sql.raw(`excluded."${subscribers[c as 'email'].name}"`)]),
          );
          const returned = await tx
            .insert(subscribers)
            .values(values)
            .onConflictDoUpdate({
              target: [subscribers.environmentId, subscribers.subscriberId],
              set: { ...set, updatedAt: sql`now()` },
            })
            // A row the statement inserted has no deleting transaction yet (xmax = 0).
            .returning({
              subscriberId: subscribers.subscriberId,
              created: sql<boolean>`(xmax = 0)`,
            });
          results.push(...returned);
        }
        return results;
      });
    },
    /**
     * Changes the subscriber's credentials under a row lock, so concurrent updates of two
     * providers never lose one another. Answers undefined when the subscriber does not exist.
     */
    async updateChannels(
      environmentId: string,
      subscriberId: string,
      change: (channels: SubscriberChannel[]) => SubscriberChannel[],
    ): Promise<Subscriber | undefined> {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: subscribers.id, channels: subscribers.channels })
          .from(subscribers)
          .where(
            and(
              eq(subscribers.environmentId, environmentId),
              eq(subscribers.subscriberId, subscriberId),
            ),
          )
          .for('update');
        if (!current) return undefined;
        const [s] = await tx
          .update(subscribers)
          .set({ channels: change(current.channels), updatedAt: sql`now()` })
          .where(eq(subscribers.id, current.id))
          .returning();
        return s;
      });
    },
    /**
     * The environment's integrations of a provider, newest first (credentials are registered
     * for one of them). Deleted integrations are left out.
     */
    async integrationsOfProvider(
      environmentId: string,
      providerIds: string[],
    ): Promise<CredentialsIntegration[]> {
      if (providerIds.length === 0) return [];
      return db
        .select({
          id: integrations.id,
          providerId: integrations.providerId,
          identifier: integrations.identifier,
          active: integrations.active,
        })
        .from(integrations)
        .where(
          and(
            eq(integrations.environmentId, environmentId),
            inArray(integrations.providerId, providerIds),
            isNull(integrations.deletedAt),
          ),
        )
        .orderBy(desc(integrations.createdAt), desc(integrations.id));
    },
    /** Every subscriber id of the environment, in pages (broadcast). */
    async *allIds(environmentId: string, batch = 500): AsyncGenerator<string[]> {
      let after = '';
      for (;;) {
        const rows = await db
          .select({ id: subscribers.id })
          .from(subscribers)
          .where(
            and(eq(subscribers.environmentId, environmentId), sql`${subscribers.id} > ${after}`),
          )
          .orderBy(asc(subscribers.id))
          .limit(batch);
        if (rows.length === 0) return;
        yield rows.map((r) => r.id);
        after = rows[rows.length - 1]!.id;
      }
    },
  };
}

export type SubscriberRepository = ReturnType<typeof createSubscriberRepository>;

/** A `subscribers` row of raw SQL in Drizzle's shape. */
const subscriberOfRow: (row: Record<string, unknown>) => Subscriber = rowMapper(subscribers);

/**
 * Subscribers and tombstones of (environment, subscriberId) pairs given as parallel arrays, a
 * row per pair in their order; the subscriber's columns are null when it does not exist.
 */
const namedAmongStatement = plannedSql<
  { erased_subscriber: boolean; id: string | null } & Record<string, unknown>
>(
  sql`
    select exists (select 1 from ${erasedSubscribers} e
        where e.environment_id = p.environment_id
          and e.subscriber_key = any(string_to_array(p.subscriber_keys, ',')::char(64)[]))
        as erased_subscriber, s.*
    from unnest(${sql.placeholder('environmentIds')}::char(24)[],
      ${sql.placeholder('subscriberIds')}::text[], ${sql.placeholder('keys')}::text[])
      with ordinality as p (environment_id, subscriber_id, subscriber_keys, ord)
    left join ${subscribers} s
      on s.environment_id = p.environment_id and s.subscriber_id = p.subscriber_id
    order by p.ord`,
);
