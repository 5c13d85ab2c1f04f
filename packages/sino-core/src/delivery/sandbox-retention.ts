import type { DeliveryRepository } from './repository.js';
import { queueNextHour, type HourlyScheduler } from '../hourly.js';

/** How long the sandbox keeps what it "delivered": enough to look at, not a mail archive. */
export const SANDBOX_RETENTION_DAYS = 7;

/**
 * The queue task that trims the sandbox outbox and schedules the next trim. `slot` names the
 * hour it was queued for (absent in tasks queued before it existed): the next trim is queued
 * for the hour after it, whatever the clocks say.
 */
export interface PurgeSandboxTask {
  kind: 'purge-sandbox';
  slot?: number;
}

/**
 * Keeps the sandbox outbox to its last seven days: an hourly queue task deletes older rows and
 * queues the next one. The dedupe key names the hour, so however many nodes start, and however
 * often, one trim runs per hour; being a queue job, it survives restarts.
 */
export function createSandboxRetention(deps: {
  repo: DeliveryRepository;
  scheduler: HourlyScheduler<PurgeSandboxTask>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  // The hour after the task's own and after now (`nextHourSlot` says why both).
  const scheduleNext = (after = 0) => queueNextHour(deps.scheduler, 'purge-sandbox', now(), after);
  return {
    /** At start: makes sure the next trim is queued. */
    start: () => scheduleNext(),
    /** The task: deletes what is past retention, then queues the next trim. */
    async run(task: PurgeSandboxTask): Promise<number> {
      const before = new Date(now() - SANDBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000);
      const removed = await deps.repo.purgeSandbox(before);
      await scheduleNext(task.slot);
      return removed;
    },
  };
}

export type SandboxRetention = ReturnType<typeof createSandboxRetention>;
