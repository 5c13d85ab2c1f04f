import { providers, type ProviderEntry } from '@sino/providers/catalogue';

// The provider catalogue, bundled into this section's chunk (decision 059): its browser-safe
// entries, and each logo as a file of the console's own origin (its policy: img-src 'self').

export type { CredentialField, CredentialType, ProviderEntry } from '@sino/providers/catalogue';

export type Channel = ProviderEntry['channel'];

/** The store's channels, in Novu's order, with their words. */
export const CHANNELS: readonly { id: Channel; label: string }[] = [
  { id: 'email', label: 'Email' },
  { id: 'sms', label: 'SMS' },
  { id: 'chat', label: 'Chat' },
  { id: 'push', label: 'Push' },
  { id: 'in_app', label: 'In-app' },
];

export const channelLabel = (channel: string) =>
  CHANNELS.find((c) => c.id === channel)?.label ?? channel;

/** Channels whose active integrations are tried one after the other (a primary, then order). */
export const ORDERED_CHANNELS: readonly string[] = ['email', 'sms', 'chat', 'push'];

/** Sino's built-in sandbox: used only when no real provider of its channel is active. */
export const isSandbox = (providerId: string) =>
  providerId === 'novu-email' || providerId === 'novu-sms';

export const providersOf = (channel: Channel) => providers.filter((p) => p.channel === channel);

export const providerOf = (channel: string, id: string): ProviderEntry | undefined =>
  providers.find((p) => p.channel === channel && p.id === id);

// Vite emits each logo as a hashed file under /console/assets and answers its URL.
const logoUrls = import.meta.glob<string>('../../../../../../packages/sino-providers/logos/*.svg', {
  query: '?url',
  import: 'default',
  eager: true,
});
const byFileName = new Map(
  Object.entries(logoUrls).map(([path, url]) => [path.slice(path.lastIndexOf('/') + 1), url]),
);

/** The URLs of a provider's light and dark logos (undefined for a file the build lacks). */
export const logosOf = (entry: ProviderEntry) => ({
  light: byFileName.get(entry.logoFileName.light),
  dark: byFileName.get(entry.logoFileName.dark),
});
