import type { MemberRole } from '@sino/shared';

/**
 * Who a server-API request acts for: an API key (its environment's admin, as in Novu), or a
 * person signed in to the console, with their role in the organization now.
 */
export type RequestActor =
  | { type: 'api_key'; keyId: string; role: 'admin' }
  | { type: 'user'; userId: string; role: MemberRole; sessionId: string };
