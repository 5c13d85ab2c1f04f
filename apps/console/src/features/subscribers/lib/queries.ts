import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';

// The subscribers section's reads (Novu 0.24's `/v1/subscribers` and what hangs from it), each
// keyed by the session's token: a switch of organisation or environment reads again.

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_LABEL: Record<Channel, string> = {
  in_app: 'In-app',
  email: 'E-mail',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
};

export interface ChannelCredentials {
  providerId: string;
  integrationIdentifier?: string;
  credentials: { webhookUrl?: string; channel?: string; deviceTokens?: string[] };
}

export interface Subscriber {
  _id: string;
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  locale: string | null;
  data: Record<string, unknown> | null;
  channels: ChannelCredentials[];
  isOnline: boolean;
  lastOnlineAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

export interface WorkflowPreference {
  template: { _id: string; name: string; critical: boolean; tags: string[] };
  preference: { enabled: boolean; channels: Partial<Record<Channel, boolean>> };
}

export interface FeedMessage {
  _id: string;
  content: string;
  templateIdentifier: string;
  seen: boolean;
  read: boolean;
  createdAt: string;
}

export interface Feed {
  data: FeedMessage[];
  page: number;
  hasMore: boolean;
  totalCount: number;
}

export const PAGE_SIZE = 20;
export const subscriberPath = (id: string) => `/v1/subscribers/${encodeURIComponent(id)}`;

export function useSubscribers(page: number, search = '') {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['subscribers', token, page, search],
    queryFn: () =>
      api<Page<Subscriber>>(
        `/v1/subscribers?page=${page}&limit=${PAGE_SIZE}${search ? `&search=${encodeURIComponent(search)}` : ''}`,
      ),
    placeholderData: (previous) => previous,
  });
}

export function useSubscriber(id: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['subscriber', token, id],
    queryFn: () => api<{ data: Subscriber }>(subscriberPath(id)).then((r) => r.data),
    retry: false,
  });
}

export function usePreferences(id: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['subscriber-preferences', token, id],
    queryFn: () =>
      api<{ data: WorkflowPreference[] }>(`${subscriberPath(id)}/preferences`).then((r) => r.data),
  });
}

export function useFeed(id: string, page: number) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['subscriber-feed', token, id, page],
    queryFn: () =>
      api<Feed>(`${subscriberPath(id)}/notifications/feed?page=${page}&limit=${PAGE_SIZE}`),
    placeholderData: (previous) => previous,
  });
}

export interface ActiveIntegration {
  _id: string;
  name: string;
  providerId: string;
  channel: string;
}

/** The environment's active chat and push integrations: whose credentials a subscriber can have. */
export function useMessagingProviders() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['integrations-active', token],
    queryFn: () =>
      api<{ data: ActiveIntegration[] }>('/v1/integrations/active').then((r) => r.data),
    select: (all) => all.filter((i) => i.channel === 'chat' || i.channel === 'push'),
  });
}

/** A subscriber's name as shown: first and last, else their id. */
export const nameOf = (s: Pick<Subscriber, 'firstName' | 'lastName' | 'subscriberId'>) =>
  [s.firstName, s.lastName].filter(Boolean).join(' ') || s.subscriberId;

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso: string) => dateTime.format(new Date(iso));

/**
 * A secret shown masked: a webhook URL keeps its origin (which service it posts to), a device
 * token its last four characters (which device it is).
 */
export function maskedSecret(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.origin}/••••••••`;
  } catch {
    // Not a URL: a token.
  }
  return value.length <= 8 ? '•'.repeat(value.length) : `••••••••${value.slice(-4)}`;
}
