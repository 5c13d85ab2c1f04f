import type { AuditRepository } from './repository.js';

import type { RequestActor } from '../../actor.js';

/** Who did something: a person signed in to the console, an API key, or Sino itself. */
export type Actor =
  { type: 'user'; userId: string } | { type: 'api_key'; keyId: string } | { type: 'system' };

/** What the audit log records. Each names what was done, never a secret. */
export type AuditAction =
  | 'user.signed_in'
  | 'user.sign_in_failed'
  | 'user.signed_out'
  | 'api_key.created'
  | 'api_key.regenerated'
  | 'api_key.revoked'
  | 'integration.created'
  | 'integration.credentials_changed'
  | 'integration.deleted'
  | 'integration.test_sent'
  | 'integration.order_changed'
  | 'member.role_changed'
  | 'member.removed'
  | 'member.invited'
  | 'invitation.accepted'
  | 'invitation.revoked'
  | 'user.signed_up'
  | 'user.email_verified'
  | 'auth.password_reset'
  | 'user.erased'
  | 'environment.subscriber_hash_changed'
  | 'change.promoted'
  | 'change.rolled_back';

export interface AuditRecord {
  organizationId: string;
  environmentId?: string | null | undefined;
  actor: Actor;
  action: AuditAction;
  subject?: { type: string; id: string } | undefined;
  /** Names and ids only: a caller never puts a secret, a password or a token here. */
  details?: Record<string, string | number | boolean | null> | undefined;
}

/** The audit log's name for who made a server-API request. */
export const actorOf = (actor: RequestActor): Actor =>
  actor.type === 'user'
    ? { type: 'user', userId: actor.userId }
    : { type: 'api_key', keyId: actor.keyId };

/** The audit log (beyond Novu 0.24, which has none): who did what, and when. */
export function createAuditService(deps: { audit: AuditRepository }) {
  return {
    async record(entry: AuditRecord): Promise<void> {
      const { actor } = entry;
      await deps.audit.add({
        organizationId: entry.organizationId,
        environmentId: entry.environmentId ?? null,
        actorType: actor.type,
        actorId:
          actor.type === 'user' ? actor.userId : actor.type === 'api_key' ? actor.keyId : null,
        action: entry.action,
        subjectType: entry.subject?.type ?? null,
        subjectId: entry.subject?.id ?? null,
        details: entry.details ?? null,
      });
    },
    page: deps.audit.page,
    byId: deps.audit.byId,
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
