import type { DatabaseHandle } from '@locadora/db';
import { openDatabaseQueue } from './database.js';
import type { QueueSettings } from './options.js';
import type { JobQueue } from './port.js';

export interface JobQueueOptions extends QueueSettings {
  /** When set, the queue lives in this Redis (BullMQ); otherwise in `database`. */
  redisUrl?: string | undefined;
  /** The product's database, migrated; holds the queue when there is no Redis. */
  database: Pick<DatabaseHandle, 'executeSql'>;
  /** Database queue only: see `DatabaseQueueOptions.pollingIntervalMs`. */
  pollingIntervalMs?: number;
  /** BullMQ only: prefix of the Redis keys, `sino` when absent. */
  redisPrefix?: string;
  /** BullMQ only: see `BullMqQueueOptions.commandTimeoutMs`. */
  redisCommandTimeoutMs?: number;
}

/**
 * Opens the named queue on the deployment's store: BullMQ when a Redis URL is configured
 * (every process of a scaled-out deployment shares that Redis), else the database queue
 * (`sino.queue_jobs`). Every process must choose the same store, or jobs enqueued in one are
 * never seen by another.
 */
export async function createJobQueue<T>(options: JobQueueOptions): Promise<JobQueue<T>> {
  const { redisUrl, database, pollingIntervalMs, redisPrefix, redisCommandTimeoutMs, ...settings } =
    options;
  if (redisUrl) {
    // Loaded only where a Redis is configured: an installation on its database (the embedded
    // default) starts without BullMQ's modules.
    const { openBullMqQueue } = await import('./bullmq.js');
    return openBullMqQueue<T>({
      ...settings,
      redisUrl,
      ...(redisPrefix && { prefix: redisPrefix }),
      ...(redisCommandTimeoutMs !== undefined && { commandTimeoutMs: redisCommandTimeoutMs }),
    });
  }
  return openDatabaseQueue<T>({
    ...settings,
    database,
    ...(pollingIntervalMs !== undefined && { pollingIntervalMs }),
  });
}
