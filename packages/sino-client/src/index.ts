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
}

/**
 * A client of Sino's server API: `client.POST('/v1/events/trigger', { body })` answers
 * `{ data }` on success and `{ error }` otherwise, both typed per route and status.
 */
export function createSinoClient({ apiKey, headers, ...options }: SinoClientOptions): SinoClient {
  return createClient<paths>({
    ...options,
    headers: { ...headers, Authorization: `ApiKey ${apiKey}` },
  });
}
