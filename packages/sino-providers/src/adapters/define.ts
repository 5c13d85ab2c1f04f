import { withDestinationRule } from './destination.js';
import type { AdapterDefinition, DeliveryChannel } from './types.js';

/**
 * Types the definition of one channel's adapter, and puts every adapter under the destination
 * rule: `create` learns from the catalogue whether the credentials chose the destination, and
 * then no failure the adapter reports quotes what answered (decision 024).
 */
export const defineAdapter = <C extends DeliveryChannel>(
  d: AdapterDefinition<C>,
): AdapterDefinition<C> => ({ ...d, create: withDestinationRule(d) });
