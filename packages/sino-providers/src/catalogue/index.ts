import type { Channel } from '@sino/shared';
import { providers } from './entries.js';
import type { ProviderEntry } from './types.js';

export type { CredentialField, CredentialType, DestinationMark, ProviderEntry } from './types.js';
export { missingCredentials } from './validate.js';
export { carriesUserInfo, isProviderUrl, urlOfCredential, AWS_REGION } from './destinations.js';

/** The credential fields of a provider that decide where Sino connects (decision 024). */
export const destinationFields = (entry: ProviderEntry) =>
  entry.credentials.filter((f) => f.destination !== undefined);
export {
  chatProviders,
  emailProviders,
  inAppProviders,
  pushProviders,
  providers,
  smsProviders,
} from './entries.js';

const byChannelAndId = new Map(providers.map((p) => [`${p.channel}:${p.id}`, p]));

/** The provider of that channel with that id, or undefined. */
export const providerById = (channel: Channel, id: string): ProviderEntry | undefined =>
  byChannelAndId.get(`${channel}:${id}`);
