import type * as Undici from 'undici';
import type { Agent, Dispatcher, RequestInit, Response } from 'undici';
import { EgressRefused, isAddress, type EgressPolicy } from './policy.js';

/**
 * HTTP under the egress rule: undici's fetch with an agent whose connector checks the address
 * it connects to (an IP literal as given, a name through the policy's lookup). Redirects are
 * never followed (`redirect: 'error'`), so every request goes only where it was checked.
 */

interface Agents {
  /** For every URL but the operator's: each connection checked. */
  guarded: Agent;
  /** For the operator's own URLs (`SINO_PROVIDER_BASE_URLS`): connected unchecked. */
  trusted: Agent;
}

/**
 * Kept-alive connections per provider origin: enough for a worker's concurrent deliveries to
 * one provider (decision 036), few enough not to look like a flood to it.
 */
const CONNECTIONS_PER_ORIGIN = 64;

const agentsOf = new WeakMap<EgressPolicy, Agents>();

/** undici (about 110 modules) is loaded at the first provider request, not at every start. */
let undici: typeof Undici | undefined;

async function agents(policy: EgressPolicy): Promise<Agents & { fetch: typeof Undici.fetch }> {
  undici ??= await import('undici');
  const { Agent, buildConnector, fetch } = undici;
  // Nothing is awaited from here on: of two first calls, the second finds the first's agents.
  let found = agentsOf.get(policy);
  if (!found) {
    const resolving = buildConnector({ lookup: policy.lookup });
    found = {
      guarded: new Agent({
        connections: CONNECTIONS_PER_ORIGIN,
        connect(options, callback) {
          if (isAddress(options.hostname) && !policy.permits(options.hostname))
            return callback(new EgressRefused(), null);
          resolving(options, callback);
        },
      }),
      trusted: new Agent({ connections: CONNECTIONS_PER_ORIGIN }),
    };
    agentsOf.set(policy, found);
  }
  return { ...found, fetch };
}

/** `fetch` under the rule; `redirect` is always `error`. */
export async function egressFetch(
  policy: EgressPolicy,
  url: string,
  init: Omit<RequestInit, 'dispatcher' | 'redirect'>,
): Promise<Response> {
  const { guarded, trusted, fetch } = await agents(policy);
  return fetch(url, {
    ...init,
    redirect: 'error',
    dispatcher: policy.trusts(url) ? trusted : guarded,
  });
}

/** A provider's answer to `egressRequest`, its body read whole. */
export interface EgressAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One request under the rule through undici's `request` on the same agents as `egressFetch`
 * (kept-alive connections, each checked where it connects), without fetch's streams and
 * objects: a worker sends thousands a second. A 3xx answer is refused as `egressFetch`
 * refuses it (its body unread): a redirect never takes a request elsewhere.
 */
export async function egressRequest(
  policy: EgressPolicy,
  url: string,
  init: {
    method: Dispatcher.HttpMethod;
    headers: Record<string, string>;
    body: string | Uint8Array | null;
    signal: AbortSignal;
  },
): Promise<EgressAnswer> {
  const { guarded, trusted } = await agents(policy);
  const target = new URL(url);
  const answer = await (policy.trusts(url) ? trusted : guarded).request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: init.method,
    headers: init.headers,
    body: init.body,
    signal: init.signal,
  });
  if (answer.statusCode >= 300 && answer.statusCode < 400) {
    // Its body is not read, only discarded (the connection goes back to the pool).
    await answer.body.dump().catch(() => {});
    // undici's own words for a redirect that fetch's `redirect: 'error'` refuses.
    throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
  }
  const text = await answer.body.text();
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return { status: answer.statusCode, headers, text };
}
