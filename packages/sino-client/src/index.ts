import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * Sino's server API, typed from its OpenAPI document (`openapi.json`, generated from Sino's
 * routes by `npm run sino:client`). Paths, bodies, parameters and answers are the document's;
 * there is no hand-written endpoint here.
 */
export type { paths, components } from './schema.js';

export type SinoClient = Client<paths>;

/**
 * The JSON body of a route, e.g. `SinoBody<'/v1/events/trigger', 'post'>`. A body built as a
 * variable of this type gets TypeScript's excess-property check, which an inline body does not
 * (openapi-fetch infers it generically: openapi-ts/openapi-typescript#1769), so a misspelled
 * optional field is caught.
 */
export type SinoBody<P extends keyof paths, M extends 'post' | 'put' | 'patch' | 'delete'> =
  NonNullable<paths[P][M]> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

export interface SinoClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers' | 'fetch'> {
  /** Sino's origin, e.g. `http://localhost:3000` (the paths carry `/v1`). */
  baseUrl: string;
  /** An API key of the environment to act in; sent as `Authorization: ApiKey <key>`. */
  apiKey: string;
  /** The fetch to call (a loopback or a test double); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent on every request (the API key's `Authorization` always wins). */
  headers?: Record<string, string>;
  /**
   * How often a request refused with 429 is sent again, after the server's `Retry-After`
   * (at most 10 s each time); 3 by default, 0 to answer the 429 at once.
   */
  rateLimitRetries?: number;
  /** Waits between such retries; tests pass a recording one. */
  sleep?: (ms: number) => Promise<void>;
}

/** Longest wait for one `Retry-After`, so a wrong header cannot hang the caller. */
const MAX_RETRY_AFTER_MS = 10_000;

/** Retry-After as seconds or an HTTP date, in milliseconds; 1 s when absent or unreadable. */
function retryAfterMs(value: string | null, now = Date.now()): number {
  if (value !== null) {
    const seconds = Number(value);
    if (value.trim() !== '' && Number.isFinite(seconds))
      return Math.min(Math.max(seconds * 1000, 0), MAX_RETRY_AFTER_MS);
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
  }
  return 1000;
}

/**
 * A fetch that sends a request refused for the rate limit (429) again after `Retry-After`:
 * Sino throttles each environment, and a burst (a start that brings many workflows up to
 * date, a batch of triggers) should slow down rather than fail.
 */
function retryingOn429(
  inner: (request: Request) => Promise<Response>,
  retries: number,
  sleep: (ms: number) => Promise<void>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // The body can be read once: each attempt sends a copy.
      const response = await inner(attempt < retries ? request.clone() : request);
      if (response.status !== 429 || attempt >= retries) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response.headers.get('retry-after')));
    }
  };
}

/**
 * A client of Sino's server API: `client.POST('/v1/events/trigger', { body })` answers
 * `{ data }` on success and `{ error }` otherwise, both typed per route and status.
 */
export function createSinoClient({
  apiKey,
  headers,
  rateLimitRetries = 3,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  fetch: innerFetch,
  ...options
}: SinoClientOptions): SinoClient {
  return createClient<paths>({
    ...options,
    fetch: retryingOn429(
      innerFetch ?? ((request) => globalThis.fetch(request)),
      rateLimitRetries,
      sleep,
    ),
    headers: { ...headers, Authorization: `ApiKey ${apiKey}` },
  });
}
