import type { DeliveryRepository } from './repository.js';

/** How long the sandbox keeps what it "delivered": enough to look at, not a mail archive. */
export const SANDBOX_RETENTION_DAYS = 7;
/** How often the outbox is trimmed. */
const EVERY_MS = 60 * 60 * 1000;

/** The queue task that trims the sandbox outbox and schedules the next trim. */
export interface PurgeSandboxTask {
  kind: 'purge-sandbox';
}

/** The slice of the queue the retention uses. */
interface Scheduler {
  enqueue(
    task: PurgeSandboxTask,
    options: { delayMs?: number; dedupeKey?: string },
  ): Promise<string>;
}

/**
 * Keeps the sandbox outbox to its last seven days: an hourly queue task deletes older rows and
 * queues the next one. The dedupe key names the hour, so however many nodes start, and however
 * often, one trim runs per hour; being a queue job, it survives restarts.
 */
export function createSandboxRetention(deps: {
  repo: DeliveryRepository;
  scheduler: Scheduler;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const scheduleNext = () => {
    const next = (Math.floor(now() / EVERY_MS) + 1) * EVERY_MS;
    return deps.scheduler.enqueue(
      { kind: 'purge-sandbox' },
      { delayMs: next - now(), dedupeKey: `purge-sandbox:${next}` },
    );
  };
  return {
    /** At start: makes sure the next trim is queued. */
    start: scheduleNext,
    /** The task: deletes what is past retention, then queues the next trim. */
    async run(_task: PurgeSandboxTask): Promise<number> {
      const before = new Date(now() - SANDBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000);
      const removed = await deps.repo.purgeSandbox(before);
      await scheduleNext();
      return removed;
    },
  };
}

export type SandboxRetention = ReturnType<typeof createSandboxRetention>;
