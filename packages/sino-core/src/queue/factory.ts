import type { DatabaseHandle } from '@locadora/db';
import { openBullMqQueue } from './bullmq.js';
import type { QueueSettings } from './options.js';
import { openPgBossQueue } from './pg-boss.js';
import type { JobQueue } from './port.js';

export interface JobQueueOptions extends QueueSettings {
  /** When set, the queue lives in this Redis (BullMQ); otherwise in `database` (pg-boss). */
  redisUrl?: string | undefined;
  /** The product's database; holds the queue when there is no Redis. */
  database: Pick<DatabaseHandle, 'executeSql'>;
  /** pg-boss only: see `PgBossQueueOptions.pollingIntervalMs`. */
  pollingIntervalMs?: number;
  /** BullMQ only: prefix of the Redis keys, `sino` when absent. */
  redisPrefix?: string;
}

/**
 * Opens the named queue on the deployment's store: BullMQ when a Redis URL is configured
 * (every process of a scaled-out deployment shares that Redis), else pg-boss on the database.
 * Every process must choose the same store, or jobs enqueued in one are never seen by another.
 */
export function createJobQueue<T>(options: JobQueueOptions): Promise<JobQueue<T>> {
  const { redisUrl, database, pollingIntervalMs, redisPrefix, ...settings } = options;
  return redisUrl
    ? openBullMqQueue<T>({ ...settings, redisUrl, ...(redisPrefix && { prefix: redisPrefix }) })
    : openPgBossQueue<T>({
        ...settings,
        database,
        ...(pollingIntervalMs !== undefined && { pollingIntervalMs }),
      });
}
