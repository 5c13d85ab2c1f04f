import { z } from 'zod';
import { CHANNELS } from '@sino/shared';

/** The longest range one question may cover: a quarter, in hours or days. */
export const MAX_RANGE_DAYS = 92;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An ISO 8601 instant with its offset, as a Date (also the activity feed's `after` and `before`). */
export const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date and time, as 2026-11-27T00:00:00Z' })
  .transform((v) => new Date(v));

/** Query of GET /v1/analytics/deliveries: an hour-aligned range is not required. */
export const deliveriesQuery = z
  .object({
    from: instant,
    to: instant,
    granularity: z.enum(['hour', 'day']).default('hour'),
    channel: z.enum(CHANNELS).optional(),
    providerId: z.string().trim().min(1).max(100).optional(),
  })
  .superRefine((q, ctx) => {
    // Run even when a field failed: only two dates can be compared.
    if (!(q.from instanceof Date && q.to instanceof Date)) return;
    if (q.to <= q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be later than from' });
    else if (q.to.getTime() - q.from.getTime() > MAX_RANGE_DAYS * DAY_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `must be at most ${MAX_RANGE_DAYS} days after from`,
      });
  });

const figures = {
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  bounced: z.number().int(),
  failovers: z.number().int(),
  retries: z.number().int(),
  /** Milliseconds from the notification's creation to its delivery; null when none was timed. */
  p50Ms: z.number().int().nullable(),
  p99Ms: z.number().int().nullable(),
};

export const deliveriesAnswer = z.object({
  data: z.object({
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['hour', 'day']),
    /** One entry per hour or UTC day that had outcomes, oldest first. */
    series: z.array(z.object({ at: z.string(), ...figures })),
    /** Per channel and provider over the whole range. */
    providers: z.array(z.object({ channel: z.enum(CHANNELS), providerId: z.string(), ...figures })),
    totals: z.object(figures),
  }),
});
