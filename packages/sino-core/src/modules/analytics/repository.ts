import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { plannedSql, type Database } from '@locadora/db';
import type { Channel } from '@sino/shared';
import { deliveryStats } from '../../db/schema.js';
import { COUNTER_NAMES, type Tally } from './counters.js';

/** What outcomes add to one row: an environment's hour of a channel and provider. */
export interface StatsIncrement extends Tally {
  environmentId: string;
  /** The start of the hour. */
  hour: Date;
  channel: Channel;
  providerId: string;
}

export type StatsRow = typeof deliveryStats.$inferSelect;

/** SQL of delivery analytics (decision 055). */
export function createAnalyticsRepository(db: Database) {
  return {
    /**
     * Adds the increments to their rows in one statement, creating those not there yet. Each
     * row must be named once in the set (the recorder sums them first): a statement cannot
     * change a row twice.
     */
    async add(increments: readonly StatsIncrement[]): Promise<void> {
      if (increments.length === 0) return;
      await addStatement.execute(db, {
        rows: JSON.stringify(
          increments.map((i) => ({
            environment_id: i.environmentId,
            hour: i.hour.toISOString(),
            channel: i.channel,
            provider_id: i.providerId,
            ...Object.fromEntries(COUNTER_NAMES.map((name) => [name, i[name]])),
            latency: i.latency,
          })),
        ),
      });
    },

    /** The environment's rows of hours in [from, to), optionally of one channel and provider. */
    async rows(
      environmentId: string,
      query: {
        from: Date;
        to: Date;
        channel?: Channel | undefined;
        providerId?: string | undefined;
      },
    ): Promise<StatsRow[]> {
      return db
        .select()
        .from(deliveryStats)
        .where(
          and(
            eq(deliveryStats.environmentId, environmentId),
            gte(deliveryStats.hour, query.from),
            lt(deliveryStats.hour, query.to),
            query.channel ? eq(deliveryStats.channel, query.channel) : undefined,
            query.providerId ? eq(deliveryStats.providerId, query.providerId) : undefined,
          ),
        )
        .orderBy(asc(deliveryStats.hour));
    },

    /** Deletes the hours before `before`; answers how many rows went. */
    async purge(before: Date): Promise<number> {
      const gone = await db
        .delete(deliveryStats)
        .where(lt(deliveryStats.hour, before))
        .returning({ hour: deliveryStats.hour });
      return gone.length;
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;

/**
 * The increments (a JSON array) added to their rows: counters by addition, the histogram
 * element by element, in the row's lock, so concurrent nodes never lose one another's counts.
 */
const addStatement = plannedSql(
  sql`
    insert into ${deliveryStats} (environment_id, hour, channel, provider_id, sent, delivered,
      failed, bounced, failovers, retries, latency)
    select r.environment_id, r.hour, r.channel, r.provider_id, r.sent, r.delivered, r.failed,
      r.bounced, r.failovers, r.retries, r.latency
    from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as r(environment_id char(24),
      hour timestamptz, channel text, provider_id text, sent integer, delivered integer,
      failed integer, bounced integer, failovers integer, retries integer, latency integer[])
    on conflict (environment_id, hour, channel, provider_id) do update set
      sent = ${deliveryStats}.sent + excluded.sent,
      delivered = ${deliveryStats}.delivered + excluded.delivered,
      failed = ${deliveryStats}.failed + excluded.failed,
      bounced = ${deliveryStats}.bounced + excluded.bounced,
      failovers = ${deliveryStats}.failovers + excluded.failovers,
      retries = ${deliveryStats}.retries + excluded.retries,
      latency = coalesce(
        (select array_agg(coalesce(a, 0) + coalesce(b, 0) order by n)
         from unnest(${deliveryStats}.latency, excluded.latency) with ordinality as u(a, b, n)),
        '{}'::integer[])`,
);
