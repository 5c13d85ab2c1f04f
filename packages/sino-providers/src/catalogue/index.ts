import type { Channel } from '@sino/shared';
import { chatProviders } from './chat.js';
import { emailProviders } from './email.js';
import { inAppProviders } from './in-app.js';
import { pushProviders } from './push.js';
import { smsProviders } from './sms.js';
import type { ProviderEntry } from './types.js';

export type { CredentialField, CredentialType, DestinationMark, ProviderEntry } from './types.js';
export { missingCredentials } from './validate.js';
export { carriesUserInfo, isProviderUrl, urlOfCredential, AWS_REGION } from './destinations.js';

/** The credential fields of a provider that decide where Sino connects (decision 024). */
export const destinationFields = (entry: ProviderEntry) =>
  entry.credentials.filter((f) => f.destination !== undefined);
export { chatProviders, emailProviders, inAppProviders, pushProviders, smsProviders };

/** Every provider of the catalogue: email, SMS, chat, push, then in-app. */
export const providers: readonly ProviderEntry[] = [
  ...emailProviders,
  ...smsProviders,
  ...chatProviders,
  ...pushProviders,
  ...inAppProviders,
];

const byChannelAndId = new Map(providers.map((p) => [`${p.channel}:${p.id}`, p]));

/** The provider of that channel with that id, or undefined. */
export const providerById = (channel: Channel, id: string): ProviderEntry | undefined =>
  byChannelAndId.get(`${channel}:${id}`);
