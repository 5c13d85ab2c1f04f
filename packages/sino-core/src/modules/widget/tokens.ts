import { createSecretKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { JWSSignatureVerificationFailed } from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import { LRUCache } from 'lru-cache';
import { keyIdOf } from '../../secret-box.js';

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

/**
 * The secrets of widget tokens (SINO_WIDGET_JWT_SECRET, SINO_WIDGET_JWT_SECRETS_PREVIOUS): the
 * current one signs, every one verifies, so a rotation signs nobody out (decision 038).
 */
export interface TokenSecrets {
  current: string;
  previous?: readonly string[] | undefined;
}

interface SigningKey {
  id: string;
  key: KeyObject;
}

/**
 * HS256 subscriber tokens with audience `widget_user`, valid 15 days, as Novu issues them. The
 * header's `kid` names the secret that signed it (`keyIdOf`), so a token is checked against
 * that one; tokens issued before `kid` are checked against each secret, the current first.
 */
export function createWidgetTokens(secrets: string | TokenSecrets) {
  const { current, previous = [] } = typeof secrets === 'string' ? { current: secrets } : secrets;
  // KeyObjects, made once: given bytes, jose imports the key again at every call.
  const keys: SigningKey[] = [current, ...previous].map((secret) => ({
    id: keyIdOf(secret),
    key: createSecretKey(Buffer.from(secret, 'utf8')),
  }));
  const signing = keys[0]!;
  /** The keys a token may be signed with: the one its `kid` names, or each without one. */
  const candidates = (token: string): SigningKey[] => {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return [];
    }
    return kid === undefined ? keys : keys.filter((k) => k.id === kid);
  };
  // A token verified once is remembered until it expires: checking its signature and claims
  // was a tenth of the server's CPU per widget call (bench/README.md). Only valid tokens are
  // kept, at most 10,000; the subscriber is still looked up at every call.
  const verified = new LRUCache<string, { session: WidgetSession; expiresAt: number }>({
    max: 10_000,
  });
  /** The claims of a token one of the keys signed, valid now; null otherwise. */
  async function verifiedPayload(token: string) {
    for (const { key } of candidates(token)) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: WIDGET_AUDIENCE,
          algorithms: ['HS256'],
        });
        return payload;
      } catch (error) {
        // Another key may have signed it; any other refusal (expired, wrong audience) is final.
        if (!(error instanceof JWSSignatureVerificationFailed)) return null;
      }
    }
    return null;
  }

  return {
    issue(session: WidgetSession): Promise<string> {
      return new SignJWT({ ...session })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing.id })
        .setIssuer(ISSUER)
        .setAudience(WIDGET_AUDIENCE)
        .setSubject(session._id)
        .setIssuedAt()
        .setExpirationTime(VALIDITY)
        .sign(signing.key);
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
        const payload = await verifiedPayload(token);
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
