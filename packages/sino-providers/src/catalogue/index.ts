import type { Channel } from '@sino/shared';
import { chatProviders } from './chat.js';
import { emailProviders } from './email.js';
import { inAppProviders } from './in-app.js';
import { pushProviders } from './push.js';
import { smsProviders } from './sms.js';
import type { ProviderEntry } from './types.js';

export type { CredentialField, CredentialType, ProviderEntry } from './types.js';
export { missingCredentials } from './validate.js';
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
