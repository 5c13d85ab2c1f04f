import { queueNextHour, type HourlyScheduler } from '../../hourly.js';
import type { AnalyticsRepository } from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days delivery analytics are kept when no setting says (SINO_ANALYTICS_RETENTION_DAYS). */
export const DEFAULT_ANALYTICS_RETENTION_DAYS = 90;

/** The hourly queue task that drops analytics hours past the retention. */
export interface PurgeAnalyticsTask {
  kind: 'purge-analytics';
  slot: number;
}

/**
 * Keeps delivery analytics to their last `days`: an hourly queue task (as the sandbox trim and
 * the message retention) deletes older hours and queues the next run.
 */
export function createAnalyticsRetention(deps: {
  repo: AnalyticsRepository;
  scheduler: HourlyScheduler<PurgeAnalyticsTask>;
  days?: number | undefined;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const days = deps.days ?? DEFAULT_ANALYTICS_RETENTION_DAYS;
  if (!(Number.isInteger(days) && days >= 1))
    throw new RangeError(`analytics retention must be a whole number of days >= 1, got ${days}`);
  return {
    days,
    /** At start: makes sure the next run is queued. */
    start: () => queueNextHour(deps.scheduler, 'purge-analytics', now()),
    /** The task: deletes the hours past retention, then queues the next run. */
    async run(task: PurgeAnalyticsTask): Promise<number> {
      const removed = await deps.repo.purge(new Date(now() - days * DAY_MS));
      await queueNextHour(deps.scheduler, 'purge-analytics', now(), task.slot);
      return removed;
    },
  };
}

export type AnalyticsRetention = ReturnType<typeof createAnalyticsRetention>;
