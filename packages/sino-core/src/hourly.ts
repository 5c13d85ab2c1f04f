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
