import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { z } from '../../../lib/forms';
import { useSignedIn } from '../../../lib/session';

// The topics section's reads and rules (Novu 0.24's `/v1/topics`), keyed by the session's token.

export interface Topic {
  _id: string;
  key: string;
  name: string;
  subscribers: string[];
  createdAt: string;
}

export const PAGE_SIZE = 20;
export const topicPath = (key: string) => `/v1/topics/${encodeURIComponent(key)}`;

export function useTopics(page: number) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['topics', token, page],
    queryFn: () =>
      api<{ data: Topic[]; totalCount: number }>(`/v1/topics?page=${page}&pageSize=${PAGE_SIZE}`),
    placeholderData: (previous) => previous,
  });
}

export function useTopic(key: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['topic', token, key],
    queryFn: () => api<{ data: Topic }>(topicPath(key)).then((r) => r.data),
    retry: false,
  });
}

/** The server's rule for keys: they travel in URL paths. */
export const topicKey = z.string().check(
  z.trim(),
  z.minLength(1, { error: 'Enter a key, like product-updates' }),
  z.maxLength(200, { error: 'Use at most 200 characters' }),
  z.regex(/^[A-Za-z0-9_.:-]+$/, {
    error: 'Use only letters, digits, "-", "_", "." and ":"',
  }),
);

export const topicName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'Enter a name' }),
    z.maxLength(200, { error: 'Use at most 200 characters' }),
  );

/** Subscriber IDs typed one a line or separated by commas. */
export const idsOf = (text: string) => [
  ...new Set(
    text
      .split(/[\n,]/)
      .map((id) => id.trim())
      .filter(Boolean),
  ),
];
