import { LRUCache } from 'lru-cache';
import { createJwtKeys, type TokenSecrets } from '../../jwt.js';

export type { TokenSecrets } from '../../jwt.js';

export const WIDGET_AUDIENCE = 'widget_user';
const VALIDITY = '15d';

/** The subscriber session a widget token carries (Novu's payload). */
export interface WidgetSession {
  _id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  organizationId: string;
  environmentId: string;
  subscriberId: string;
}

/**
 * HS256 subscriber tokens with audience `widget_user`, valid 15 days, as Novu issues them,
 * signed with Sino's token keys (`createJwtKeys`: rotation, `kid`).
 */
export function createWidgetTokens(secrets: string | TokenSecrets) {
  const keys = createJwtKeys(secrets);
  // A token verified once is remembered until it expires: checking its signature and claims
  // was a tenth of the server's CPU per widget call (bench/README.md). Only valid tokens are
  // kept, at most 10,000; the subscriber is still looked up at every call.
  const verified = new LRUCache<string, { session: WidgetSession; expiresAt: number }>({
    max: 10_000,
  });
  return {
    issue(session: WidgetSession): Promise<string> {
      return keys.sign(
        { ...session },
        { audience: WIDGET_AUDIENCE, subject: session._id, validity: VALIDITY },
      );
    },
    /** The session, or null for a missing, forged, expired or wrong-audience token. */
    async verify(token: string | undefined | null): Promise<WidgetSession | null> {
      if (!token || token === 'null' || token === 'undefined') return null;
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAt) return known.session;
        verified.delete(token);
      }
      try {
        const payload = await keys.verify(token, WIDGET_AUDIENCE);
        if (!payload) return null;
        const { _id, environmentId, organizationId, subscriberId } = payload;
        if (
          typeof _id !== 'string' ||
          typeof environmentId !== 'string' ||
          typeof organizationId !== 'string' ||
          typeof subscriberId !== 'string'
        )
          return null;
        // Frozen: one object serves every call of the token.
        const session: WidgetSession = Object.freeze({
          _id,
          environmentId,
          organizationId,
          subscriberId,
          firstName: (payload.firstName as string | null) ?? null,
          lastName: (payload.lastName as string | null) ?? null,
          email: (payload.email as string | null) ?? null,
        });
        // jose refused it unless `exp` is in the future; tokens without one are not kept.
        if (typeof payload.exp === 'number')
          verified.set(token, { session, expiresAt: payload.exp * 1000 });
        return session;
      } catch {
        return null;
      }
    },
  };
}

export type WidgetTokens = ReturnType<typeof createWidgetTokens>;
