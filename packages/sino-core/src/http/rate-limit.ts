import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { SinoError } from '../errors.js';

/** Requests per second allowed to one environment's API keys. */
export interface RateLimitOptions {
  /** `/v1/events/trigger*` (Novu's `trigger` category). */
  triggerPerSecond?: number | undefined;
  /** Every other server API route. */
  generalPerSecond?: number | undefined;
  /** What one bulk request (`.../bulk`) counts for, as Novu counts bulk calls apart. */
  bulkCost?: number | undefined;
}

/**
 * Novu's business-tier limits (600 triggers and 300 other calls per second). Novu counts a
 * bulk call as 100; a bulk holds at most 100 events or 500 subscribers, and Sino counts it as
 * 10 so that a self-hosted import is not throttled below what one instance sustains.
 */
export const RATE_LIMIT_DEFAULTS = { triggerPerSecond: 600, generalPerSecond: 300, bulkCost: 10 };

/** Novu lets a window take 10% more than the limit (its burst allowance). */
const BURST = 0.1;

export type RateLimitCategory = 'trigger' | 'general';
export type RateLimitCost = 'single' | 'bulk';

export interface RateLimitOutcome {
  allowed: boolean;
  /** The per-second limit of the category. */
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  policy: string;
}

/** The category and cost of a route, from its URL pattern (`/v1/events/trigger/bulk`, ...). */
export function rateLimitClass(routeUrl: string): {
  category: RateLimitCategory;
  cost: RateLimitCost;
} {
  return {
    category: /\/events\/trigger(\/|$)/.test(routeUrl) ? 'trigger' : 'general',
    cost: /\/bulk$/.test(routeUrl) ? 'bulk' : 'single',
  };
}

/** Fixed one-second windows per environment and category, in this process's memory. */
export function createRateLimits(options: RateLimitOptions = {}) {
  const limits = {
    trigger: options.triggerPerSecond ?? RATE_LIMIT_DEFAULTS.triggerPerSecond,
    general: options.generalPerSecond ?? RATE_LIMIT_DEFAULTS.generalPerSecond,
  };
  const bulkCost = options.bulkCost ?? RATE_LIMIT_DEFAULTS.bulkCost;
  for (const [name, value] of Object.entries({ ...limits, bulkCost })) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`rateLimit ${name} must be a positive integer, got ${value}`);
    }
  }
  const capacity = (limit: number) => limit + Math.floor(limit * BURST);
  const limiters = {
    trigger: new RateLimiterMemory({ points: capacity(limits.trigger), duration: 1 }),
    general: new RateLimiterMemory({ points: capacity(limits.general), duration: 1 }),
  };

  return {
    /** Counts one request of the environment; `allowed` false once the window is spent. */
    async consume(
      environmentId: string,
      category: RateLimitCategory,
      cost: RateLimitCost,
    ): Promise<RateLimitOutcome> {
      const limit = limits[category];
      const burst = capacity(limit);
      // A bulk call never costs more than a whole window, or it could never pass.
      const points = cost === 'bulk' ? Math.min(bulkCost, burst) : 1;
      const policy = `${limit};w=1;burst=${burst};comment="fixed window";category="${category}";cost="${cost}"`;
      const outcome = (res: RateLimiterRes, allowed: boolean): RateLimitOutcome => ({
        allowed,
        limit,
        remaining: Math.max(res.remainingPoints, 0),
        resetSeconds: Math.max(Math.ceil(res.msBeforeNext / 1000), 1),
        policy,
      });
      try {
        return outcome(await limiters[category].consume(environmentId, points), true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return outcome(error, false);
        throw error;
      }
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/**
 * Throttles the server API per environment (its API keys share one budget, so adding keys
 * does not multiply it), after the ApiKey guard. Every answer carries Novu's RateLimit-*
 * headers; a refusal is 429 with Retry-After.
 */
export function installRateLimit(app: FastifyInstance, limits: RateLimits): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const environment = request.environment;
    if (!environment) return;
    const { category, cost } = rateLimitClass(request.routeOptions.url ?? request.url);
    const result = await limits.consume(environment.id, category, cost);
    reply.header('RateLimit-Limit', result.limit);
    reply.header('RateLimit-Remaining', result.remaining);
    reply.header('RateLimit-Reset', result.resetSeconds);
    reply.header('RateLimit-Policy', result.policy);
    if (!result.allowed) {
      reply.header('Retry-After', result.resetSeconds);
      throw new SinoError(429, 'API rate limit exceeded');
    }
  });
}
