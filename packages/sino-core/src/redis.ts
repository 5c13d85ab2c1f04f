import { Redis, type RedisOptions } from 'ioredis';

/** How long a Redis command a request waits on may take, when the configuration is silent. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 5_000;

/**
 * Options of a Redis connection whose commands a request waits on (a trigger's enqueue): while
 * Redis is away a command fails at once instead of waiting in ioredis's offline queue, and one
 * sent to a Redis that does not answer fails after `commandTimeoutMs`. The connection itself
 * keeps reconnecting in the background, so the next command after Redis is back succeeds.
 */
export function failFastOptions(commandTimeoutMs: number): RedisOptions {
  return {
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails then, rather than being sent again.
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: commandTimeoutMs,
    keepAlive: 10_000,
    // Reconnect attempts at most 200 ms apart (ioredis's default grows to 2 s): the first
    // request after Redis is back finds the connection ready.
    retryStrategy: (attempt) => Math.min(attempt * 50, 200),
  };
}

/**
 * The two connections of socket.io's Redis adapter. The adapter publishes without waiting for
 * (or handling) the outcome, so a publish that fails while Redis is away would be an unhandled
 * rejection, which ends the process: the publisher fails fast and its failures are dropped
 * (fan-out is best effort; the clients' error events are logged by the caller, and a widget
 * reads its feed again when it reconnects). The subscriber keeps ioredis's offline queue: the
 * adapter subscribes before the connection is ready, and subscriptions are renewed on reconnect.
 */
export function fanOutClients(
  redisUrl: string,
  commandTimeoutMs: number,
): { publisher: Redis; subscriber: Redis } {
  const publisher = new Redis(redisUrl, failFastOptions(commandTimeoutMs));
  const publish = publisher.publish.bind(publisher) as (...args: unknown[]) => Promise<number>;
  publisher.publish = ((...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(() => {});
    return sent;
  }) as typeof publisher.publish;
  const subscriber = new Redis(redisUrl, { keepAlive: 10_000 });
  return { publisher, subscriber };
}

/** Errors a reply of Redis starts with when it cannot serve now, whatever the command. */
const BUSY_REPLY = /^(LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN|OOM)\b/;
/** What ioredis says of a command it could not send or got no answer to. */
const UNANSWERED =
  /^(Stream isn't writeable|Command timed out|Connection is closed|Reached the max retries per request limit)/;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** True when `error` says Redis could not be reached, did not answer in time, or cannot serve now. */
export function isRedisUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (e.name === 'MaxRetriesPerRequestError' || UNANSWERED.test(e.message)) return true;
    if (e.name === 'ReplyError' && BUSY_REPLY.test(e.message)) return true;
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
    e = e.cause;
  }
  return false;
}
