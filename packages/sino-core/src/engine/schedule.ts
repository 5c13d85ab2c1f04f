import { addDays } from 'date-fns/addDays';

const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * The next moment after `now` matching a timed digest's schedule (UTC): `atTime` ("HH:mm",
 * default "00:00") on one of `weekDays` or `monthDays` when given, else every day.
 */
export function nextTimedRun(
  now: Date,
  timed: { atTime?: string; weekDays?: string[]; monthDays?: number[] },
): Date {
  const [hours, minutes] = (timed.atTime ?? '00:00').split(':').map(Number);
  const weekDays = timed.weekDays?.map((d) => WEEK_DAYS.indexOf(d.toLowerCase())) ?? [];
  const monthDays = timed.monthDays ?? [];
  // Within 366 days every schedule of week days or month days has a match.
  for (let i = 0; i <= 366; i++) {
    const day = addDays(now, i);
    const candidate = new Date(
      Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours ?? 0, minutes ?? 0),
    );
    if (candidate <= now) continue;
    if (weekDays.length > 0 && !weekDays.includes(candidate.getUTCDay())) continue;
    if (monthDays.length > 0 && !monthDays.includes(candidate.getUTCDate())) continue;
    return candidate;
  }
  throw new Error('The timed digest schedule never matches');
}
