/** An hour, the period of the hourly queue tasks (sandbox trim, message retention). */
export const HOUR_MS = 60 * 60 * 1000;

/**
 * The start of the next hour after both `now` and `after` (the slot a task was queued for). A
 * task falls due by the database's clock; run by a node whose clock is a little behind, "the
 * next hour" by that clock alone would be the task's own hour, whose dedupe key the task holds:
 * its chain would stop.
 */
export function nextHourSlot(now: number, after = 0): number {
  return Math.max(Math.floor(now / HOUR_MS) + 1, Math.floor(after / HOUR_MS) + 1) * HOUR_MS;
}

/** The slice of the queue an hourly task uses. */
export interface HourlyScheduler<T extends { kind: string; slot?: number | undefined }> {
  enqueue(task: T, options: { delayMs?: number; dedupeKey?: string }): Promise<string>;
}

/**
 * Queues the run of an hourly task for the hour after `after` (and after `now`). The dedupe
 * key names the hour, so however many nodes start, and however often, one run is queued per
 * hour; being a queue job, it survives restarts and runs on one worker.
 */
export function queueNextHour<K extends string>(
  scheduler: HourlyScheduler<{ kind: K; slot: number }>,
  kind: K,
  now: number,
  after = 0,
): Promise<string> {
  const next = nextHourSlot(now, after);
  return scheduler.enqueue(
    { kind, slot: next },
    { delayMs: Math.max(0, next - now), dedupeKey: `${kind}:${next}` },
  );
}
