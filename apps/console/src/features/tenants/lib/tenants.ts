import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { z } from '../../../lib/forms';
import { jsonObjectText } from '../../../lib/json';
import { useSignedIn } from '../../../lib/session';

// The tenants section's reads and rules (Novu 0.24's `/v1/tenants` and `/v1/workflow-overrides`),
// keyed by the session's token.

export interface Tenant {
  _id: string;
  identifier: string;
  name: string | null;
  data: Record<string, unknown> | null;
  createdAt: string;
}

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_LABEL: Record<Channel, string> = {
  in_app: 'In-app',
  email: 'E-mail',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
};
export type ChannelSettings = Record<Channel, boolean>;

export interface Override {
  _id: string;
  _workflowId: string;
  _tenantId: string;
  active: boolean;
  preferenceSettings: ChannelSettings;
}

export interface Workflow {
  _id: string;
  name: string;
  active: boolean;
  preferenceSettings?: Partial<ChannelSettings>;
}

export const PAGE_SIZE = 20;
export const tenantPath = (identifier: string) => `/v1/tenants/${encodeURIComponent(identifier)}`;

export function useTenants(page: number) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['tenants', token, page],
    queryFn: () =>
      api<{ data: Tenant[]; hasMore: boolean }>(`/v1/tenants?page=${page}&limit=${PAGE_SIZE}`),
    placeholderData: (previous) => previous,
  });
}

export function useTenant(identifier: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['tenant', token, identifier],
    queryFn: () => api<{ data: Tenant }>(tenantPath(identifier)).then((r) => r.data),
    retry: false,
  });
}

/** The environment's workflows, every page of them, and this tenant's overrides of them. */
export function useOverrides(tenantId: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['tenant-overrides', token, tenantId],
    queryFn: async () => {
      const workflows: Workflow[] = [];
      for (let page = 0; ; page++) {
        const answer = await api<{ data: Workflow[]; totalCount: number }>(
          `/v1/workflows?page=${page}&limit=100`,
        );
        workflows.push(...answer.data);
        if (answer.data.length < 100 || workflows.length >= answer.totalCount) break;
      }
      const overrides: Override[] = [];
      // The server pages the environment's overrides; this tenant's are among them.
      for (let page = 0; ; page++) {
        const answer = await api<{ data: Override[]; hasMore: boolean }>(
          `/v1/workflow-overrides?page=${page}&limit=100`,
        );
        overrides.push(...answer.data.filter((o) => o._tenantId === tenantId));
        if (!answer.hasMore) break;
      }
      return { workflows, overrides };
    },
  });
}

export const identifierField = z.string().check(
  z.trim(),
  z.minLength(1, { error: 'Enter an identifier, like acme' }),
  z.maxLength(200, { error: 'Use at most 200 characters' }),
  z.regex(/^[A-Za-z0-9_.:-]+$/, {
    error: 'Use only letters, digits, "-", "_", "." and ":"',
  }),
);

export const tenantSchema = z.object({
  identifier: identifierField,
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter a name' }),
      z.maxLength(200, { error: 'Use at most 200 characters' }),
    ),
  data: jsonObjectText,
});
export type TenantValues = z.infer<typeof tenantSchema>;

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso: string) => dateTime.format(new Date(iso));
