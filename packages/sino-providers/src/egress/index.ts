/**
 * Where Sino may connect on a caller's behalf (provider destinations, webhooks): the rule, the
 * sockets and HTTP requests made under it, and connection failures named by their class only.
 */
export { EgressPolicy, EgressRefused, invalidNetworks, isAddress, publicOnly } from './policy.js';
export type { EgressSettings } from './policy.js';
export { egressFetch } from './fetch.js';
export { isEgressRefusal, networkFailure, type NetworkFailure } from './failure.js';
