import { isDatabaseUnavailable } from '@locadora/db';
import type { TriggerErrorCode } from '@sino/shared';
import { isRedisUnavailable } from './redis.js';

/**
 * A refusal with its HTTP status and an English message, answered as Novu does:
 * `{statusCode, message, error}` (for validation errors `message` is an array).
 */
export class SinoError extends Error {
  /** Answered as `Retry-After` (a throttled sign-in). */
  retryAfterSeconds?: number;

  constructor(
    readonly statusCode: number,
    message: string,
    /** The reason in words a program reads, answered beside the message (a trigger's). */
    readonly code?: TriggerErrorCode,
  ) {
    super(message);
    this.name = 'SinoError';
  }
}

/**
 * Where a batch operation reports the unexpected failure of one of its items (the request's
 * logger): the item's answer says so in general words, the details are for the operator.
 */
export interface ErrorLog {
  error(details: object, message: string): void;
}

export const badRequest = (message: string) => new SinoError(400, message);
export const unauthorized = (message = 'Unauthorized') => new SinoError(401, message);
export const forbidden = (message = 'Forbidden') => new SinoError(403, message);
export const notFound = (message: string) => new SinoError(404, message);
/** 429 with `Retry-After`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  Object.assign(new SinoError(429, message), { retryAfterSeconds });
export const conflict = (message: string, code?: TriggerErrorCode) =>
  new SinoError(409, message, code);
export const unprocessable = (message: string, code?: TriggerErrorCode) =>
  new SinoError(422, message, code);

/**
 * True when `error` says a store could not be reached or did not answer in time: the database,
 * or the queue's Redis. The request may succeed later: the API answers 503 with Retry-After.
 */
export const isStoreUnavailable = (error: unknown): boolean =>
  isDatabaseUnavailable(error) || isRedisUnavailable(error);

/** What a 503 for an unreachable store asks the caller to wait, in seconds. */
export const STORE_RETRY_AFTER_SECONDS = 5;
