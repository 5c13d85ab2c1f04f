import { z } from 'zod';
import { TRIGGER_ERROR_CODES } from '@sino/shared';

/** Novu's error body, documented on each route for the statuses it can answer. */
export const errorAnswer = z.object({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string(),
  /** Sino's addition: why a trigger was refused, for programs (`TRIGGER_ERROR_CODES`). */
  code: z.enum(TRIGGER_ERROR_CODES).optional(),
});

/** Exactly these error statuses (widget routes, which have no API key or rate limit). */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorAnswer])) as Record<number, typeof errorAnswer>;

/** The error statuses every server API route can answer, plus the route's own. */
export const serverErrors = (...statuses: number[]) =>
  // 401: no or a wrong API key; 409/422: Idempotency-Key reuse; 429: rate limit.
  errors(...new Set([400, 401, 409, 422, 429, ...statuses]));
