import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';

// The section's reads and writes, keyed by the session's token (a switch of organisation or
// environment reads again).

/** An integration as the server answers it (Novu's fields, credentials masked, and Sino's). */
export interface Integration {
  _id: string;
  name: string;
  identifier: string;
  providerId: string;
  channel: string;
  credentials: Record<string, unknown>;
  credentialsError?: string;
  active: boolean;
  primary: boolean;
  priority: number;
  createdAt: string;
  updatedAt: string;
  webhookUrl: string | null;
  webhookSigning: 'verified' | 'unsupported';
}

export interface TestOutcome {
  channel: string;
  providerId: string;
  ok: boolean;
  providerMessageId?: string | null;
  status: number | null;
  kind?: string;
  message?: string;
}

export interface SandboxMail {
  _id: string;
  _messageId: string;
  channel: 'email' | 'sms';
  to: string[];
  from: string | null;
  subject: string | null;
  content: string;
  text: string | null;
  createdAt: string;
}

export interface OutboxPage {
  data: SandboxMail[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

const KEY = 'integrations';

/** The environment's integrations, in the order deliveries try them (primary, priority, age). */
export function useIntegrations() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: [KEY, token],
    queryFn: () => api<{ data: Integration[] }>('/v1/integrations').then((r) => r.data),
  });
}

/** Writes to one integration; the list is read again after each (order and primary move). */
export function useIntegrationChange<V, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [KEY] }),
  });
}

export const saveIntegration = (id: string, body: Record<string, unknown>) =>
  api<{ data: Integration }>(`/v1/integrations/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body,
  }).then((r) => r.data);

export const createIntegration = (body: Record<string, unknown>) =>
  api<{ data: Integration }>('/v1/integrations', { method: 'POST', body }).then((r) => r.data);

export function useOutbox(page: number, channel: 'email' | 'sms' | undefined) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['sandbox-outbox', token, page, channel ?? 'all'],
    queryFn: () =>
      api<OutboxPage>(
        `/v1/sandbox/outbox?page=${page}&limit=20${channel ? `&channel=${channel}` : ''}`,
      ),
  });
}

export function useOutboxMail(mailId: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['sandbox-mail', token, mailId],
    queryFn: () =>
      api<{ data: SandboxMail }>(`/v1/sandbox/outbox/${encodeURIComponent(mailId)}`).then(
        (r) => r.data,
      ),
  });
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso: string) => dateTime.format(new Date(iso));
