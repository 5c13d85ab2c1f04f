import type { MemberRole } from '@sino/shared';

/**
 * Who a server-API request acts for: an API key (its environment's admin, as in Novu; its
 * owner is the person it belongs to, if any), or a person signed in to the console, with their
 * role in the organization now.
 */
export type RequestActor =
  | { type: 'api_key'; keyId: string; role: 'admin'; ownerId: string | null }
  | { type: 'user'; userId: string; role: MemberRole; sessionId: string };
