import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import type { Role } from '../../../lib/role';

// The settings section's reads, each keyed by the session's token (a switch of organisation or
// environment reads again) and by what the server answers.

export { useRole, type Role } from '../../../lib/role';

export interface Member {
  _id: string;
  roles: Role[];
  memberStatus: 'active';
  user: {
    _id: string;
    firstName: string | null;
    lastName: string | null;
    email: string;
    status: string;
  };
}

export interface Invitation {
  _id: string;
  email: string;
  role: Role;
  inviter: { _id: string | null; firstName: string | null };
  createdAt: string;
  expiresAt: string;
}

export interface ApiKey {
  _id: string;
  key: string;
  _userId: string | null;
  createdAt: string;
  expiresAt: string | null;
}

export interface Branding {
  logo?: string;
  color?: string;
  fontColor?: string;
  contentBackground?: string;
  fontFamily?: string;
  direction?: 'ltr' | 'rtl';
}

export interface Organization {
  _id: string;
  name: string;
  branding?: Branding;
}

export interface Environment {
  _id: string;
  name: string;
  identifier: string;
  _parentId?: string;
  createdAt: string;
}

export interface AuditEntry {
  _id: string;
  _environmentId: string | null;
  actor: { type: 'user' | 'api_key' | 'system'; _id: string | null };
  action: string;
  subject: { type: string; _id: string } | null;
  details: Record<string, unknown> | null;
  createdAt: string;
}

export function useMembers() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['members', token],
    queryFn: () => api<{ data: Member[] }>('/v1/organizations/members').then((r) => r.data),
  });
}

/** Admins only: a member's query is never sent. */
export function useInvitations(enabled: boolean) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['invitations', token],
    queryFn: () => api<{ data: Invitation[] }>('/v1/invites').then((r) => r.data),
    enabled,
  });
}

export function useApiKeys() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['api-keys', token],
    queryFn: () => api<{ data: ApiKey[] }>('/v1/environments/api-keys').then((r) => r.data),
  });
}

export function useOrganization() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['organization', token],
    queryFn: () => api<{ data: Organization }>('/v1/organizations/me').then((r) => r.data),
  });
}

export function useEnvironments() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['environments', token],
    queryFn: () => api<{ data: Environment[] }>('/v1/environments').then((r) => r.data),
  });
}

export const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/** A person's name as shown: first and last, else the address. */
export const nameOf = (user: Member['user']) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso: string) => dateTime.format(new Date(iso));
