import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { SinoError } from '../errors.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, failFastOptions } from '../redis.js';
import type { Log } from '../log.js';

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

/** Where the counts live when every node must share them: the deployment's Redis. */
export interface SharedRateLimitStore {
  redisUrl?: string | undefined;
  /** Names this installation's keys on a shared Redis (`SINO_REDIS_PREFIX`); `sino` when absent. */
  prefix?: string | undefined;
  /** Longest wait for Redis's answer a request accepts (`REDIS_COMMAND_TIMEOUT_SECONDS`). */
  commandTimeoutMs?: number | undefined;
  /** Told once when Redis stops answering the limits and once when it answers again. */
  log?: Pick<Log, 'warn'> | undefined;
}

/**
 * A limit check waits on Redis at most this long, and at most a quarter of the command timeout
 * (a trigger waits on Redis again to enqueue): a request that Redis would make wait longer is
 * counted in this process instead (see `createRateLimits`).
 */
const SHARED_CHECK_TIMEOUT_MS = 500;
/** After Redis failed a check, the next checks of this long are counted in this process. */
const SHARED_RETRY_AFTER_MS = 1000;

/**
 * Fixed one-second windows per environment and category. With a Redis (`REDIS_URL`) every node
 * counts in the same window, so N nodes share one limit; without one, in this process's memory.
 *
 * A Redis that is away or does not answer within half a second must not hold the API back (most of
 * it needs only the database): the check then counts in this process's memory instead, each
 * node allowing the whole limit, and goes back to Redis a second later. Failing open (no limit)
 * would leave the database unprotected while Redis is down; failing closed (503) would turn a
 * Redis outage into an outage of every server API route.
 */
export function createRateLimits(
  options: RateLimitOptions = {},
  shared: SharedRateLimitStore = {},
) {
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
  const local = {
    trigger: new RateLimiterMemory({ points: capacity(limits.trigger), duration: 1 }),
    general: new RateLimiterMemory({ points: capacity(limits.general), duration: 1 }),
  };
  const redis = shared.redisUrl
    ? new Redis(
        shared.redisUrl,
        failFastOptions(
          Math.min(
            (shared.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS) / 4,
            SHARED_CHECK_TIMEOUT_MS,
          ),
        ),
      )
    : undefined;
  // Reported by the checks below (once per outage); ioredis would print every reconnection.
  redis?.on('error', () => {});
  const connected =
    redis &&
    new Promise<void>((resolve) => {
      redis.once('ready', resolve);
      // A Redis away at the start is told by the first checks, which count here meanwhile.
      setTimeout(resolve, shared.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS).unref();
    });
  const sharedOf = (category: RateLimitCategory): RateLimiterAbstract | undefined =>
    redis &&
    new RateLimiterRedis({
      storeClient: redis,
      points: capacity(limits[category]),
      duration: 1,
      keyPrefix: `${shared.prefix ?? 'sino'}:rate-limit:${category}`,
      // While the connection is down, at once to this process's count rather than an error.
      rejectIfRedisNotReady: true,
    });
  const everywhere = { trigger: sharedOf('trigger'), general: sharedOf('general') };
  let redisAwayUntil = 0;

  /** Counts on Redis when it answers, else in this process (see above). */
  async function count(category: RateLimitCategory, key: string, points: number) {
    const onRedis = everywhere[category];
    if (onRedis && Date.now() >= redisAwayUntil) {
      try {
        const counted = await onRedis.consume(key, points);
        if (redisAwayUntil !== 0) {
          redisAwayUntil = 0;
          // A warning too: it closes the one that opened the outage.
          shared.log?.warn({}, 'rate limits: counted on Redis again');
        }
        return counted;
      } catch (error) {
        if (error instanceof RateLimiterRes) throw error;
        if (redisAwayUntil === 0)
          shared.log?.warn(
            { err: error },
            'rate limits: Redis did not answer; each node counts on its own until it does',
          );
        redisAwayUntil = Date.now() + SHARED_RETRY_AFTER_MS;
      }
    }
    return local[category].consume(key, points);
  }

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
        return outcome(await count(category, environmentId, points), true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return outcome(error, false);
        throw error;
      }
    },
    /** Resolves once the Redis connection is ready, or its command timeout passed (no throw). */
    ready: async (): Promise<void> => connected,
    /** Closes the Redis connection, if any. */
    async close(): Promise<void> {
      await redis?.quit().catch(() => redis.disconnect());
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
