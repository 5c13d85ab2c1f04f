import { chatProviders } from './chat.js';
import { emailProviders } from './email.js';
import { inAppProviders } from './in-app.js';
import { pushProviders } from './push.js';
import { smsProviders } from './sms.js';
import type { ProviderEntry } from './types.js';

// The catalogue's entries alone, without the destination checks (node:net) or the adapters:
// what a browser may bundle (`@sino/providers/catalogue`, Sino's console, decision 059).

export type { CredentialField, CredentialType, DestinationMark, ProviderEntry } from './types.js';
export { chatProviders, emailProviders, inAppProviders, pushProviders, smsProviders };

/** Every provider of the catalogue: email, SMS, chat, push, then in-app. */
export const providers: readonly ProviderEntry[] = [
  ...emailProviders,
  ...smsProviders,
  ...chatProviders,
  ...pushProviders,
  ...inAppProviders,
];
