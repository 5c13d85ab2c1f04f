import { createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

export const WIDGET_AUDIENCE = 'widget_user';
const ISSUER = 'sino';
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

/** HS256 subscriber tokens with audience `widget_user`, valid 15 days, as Novu issues them. */
export function createWidgetTokens(secret: string) {
  // A KeyObject, made once: given bytes, jose imports the key again at every call.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  // A token verified once is remembered until it expires: checking its signature and claims
  // was a tenth of the server's CPU per widget call (bench/README.md). Only valid tokens are
  // kept, at most 10,000; the subscriber is still looked up at every call.
  const verified = new LRUCache<string, { session: WidgetSession; expiresAt: number }>({
    max: 10_000,
  });
  return {
    issue(session: WidgetSession): Promise<string> {
      return new SignJWT({ ...session })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(WIDGET_AUDIENCE)
        .setSubject(session._id)
        .setIssuedAt()
        .setExpirationTime(VALIDITY)
        .sign(key);
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
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: WIDGET_AUDIENCE,
          algorithms: ['HS256'],
        });
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
