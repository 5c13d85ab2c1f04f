import { providerById } from '../catalogue/index.js';
import { isProviderUrl } from '../catalogue/destinations.js';
import { classOnlyFailure, DeliveryError } from './errors.js';
import type {
  AdapterContext,
  AdapterDefinition,
  DeliveryChannel,
  ProviderAdapter,
} from './types.js';

/**
 * Whether the integration's credentials, rather than the provider's documented host or the
 * operator's base URL, decide where the adapter connects: a destination field of the catalogue
 * (base URL, host, port, webhook URL) that is set, is not one of the provider's own hosts, and
 * is not replaced by the operator's base URL. Chat always: each message goes to the
 * subscriber's own webhook URL. A region chooses among the provider's own hosts (it is checked
 * to be one), so it does not count.
 */
export function isCallerChosen(
  channel: DeliveryChannel,
  providerId: string,
  context: AdapterContext,
): boolean {
  if (channel === 'chat') return true;
  for (const field of providerById(channel, providerId)?.credentials ?? []) {
    const mark = field.destination;
    if (!mark || mark.part === 'region') continue;
    if (context.baseUrl && mark.replacedByBaseUrl !== false) continue;
    const value = context.credentials[field.key];
    if (value === undefined || value === null || value === '') continue;
    if (mark.part === 'url' && isProviderUrl(String(value), mark.providerHosts)) continue;
    return true;
  }
  return false;
}

/** A failure as reported for a destination the integration chose: its class only. */
function classOnly(error: unknown): unknown {
  if (!(error instanceof DeliveryError) || error.classOnly) return error;
  return classOnlyFailure(error.kind, error.status, error.retryAfterMs);
}

/**
 * The definition's `create` under the destination rule: the context says whether the
 * credentials chose the destination, and when they did, a failure whose words are not Sino's
 * own (`classOnly`) is reported by its class, whichever adapter code built it. A check that
 * could not reach the provider answers what happened (`ok: false` and the failure's words)
 * rather than throwing.
 */
export function withDestinationRule<C extends DeliveryChannel>(
  definition: AdapterDefinition<C>,
): (context: AdapterContext) => ProviderAdapter<C> {
  return (given) => {
    const callerChosen = isCallerChosen(definition.channel, definition.providerId, given);
    const adapter = definition.create({ ...given, callerChosen });
    const shown = (error: unknown) => (callerChosen ? classOnly(error) : error);
    const { send, check } = adapter;
    return Object.assign(adapter, {
      send: (message: Parameters<typeof send>[0]) =>
        send.call(adapter, message).catch((error: unknown) => {
          throw shown(error);
        }),
      ...(check && {
        check: () =>
          check.call(adapter).catch((error: unknown) => {
            const failure = shown(error);
            if (!(failure instanceof DeliveryError)) throw failure;
            return { ok: false, message: failure.message };
          }),
      }),
    });
  };
}
