import { Agent, buildConnector, fetch, type RequestInit, type Response } from 'undici';
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

const agentsOf = new WeakMap<EgressPolicy, Agents>();

function agents(policy: EgressPolicy): Agents {
  let found = agentsOf.get(policy);
  if (!found) {
    const resolving = buildConnector({ lookup: policy.lookup });
    found = {
      guarded: new Agent({
        connect(options, callback) {
          if (isAddress(options.hostname) && !policy.permits(options.hostname))
            return callback(new EgressRefused(), null);
          resolving(options, callback);
        },
      }),
      trusted: new Agent(),
    };
    agentsOf.set(policy, found);
  }
  return found;
}

/** `fetch` under the rule; `redirect` is always `error`. */
export function egressFetch(
  policy: EgressPolicy,
  url: string,
  init: Omit<RequestInit, 'dispatcher' | 'redirect'>,
): Promise<Response> {
  const { guarded, trusted } = agents(policy);
  return fetch(url, {
    ...init,
    redirect: 'error',
    dispatcher: policy.trusts(url) ? trusted : guarded,
  });
}
