import { createSecretKey, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { JWSSignatureVerificationFailed } from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import { keyIdOf } from './secret-box.js';

const ISSUER = 'sino';

/** The claims of a verified token. */
type JWTPayload = Awaited<ReturnType<typeof jwtVerify>>['payload'];

/**
 * The secrets Sino signs its tokens with (SINO_WIDGET_JWT_SECRET and its previous ones): the
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
 * HS256 tokens issued by `sino` for one audience each (the widget's subscribers, the
 * console's people): a token of one audience never opens the other. The header's `kid` names
 * the secret that signed it (`keyIdOf`), so a token is checked against that one; tokens
 * issued before `kid` are checked against each secret, the current first.
 */
export function createJwtKeys(secrets: string | TokenSecrets) {
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

  return {
    sign(
      claims: Record<string, unknown>,
      options: { audience: string; subject: string; validity: string },
    ): Promise<string> {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing.id })
        .setIssuer(ISSUER)
        .setAudience(options.audience)
        .setSubject(options.subject)
        .setIssuedAt()
        .setExpirationTime(options.validity)
        .sign(signing.key);
    },

    /** The claims of a token one of the keys signed for `audience`, valid now; null otherwise. */
    async verify(token: string, audience: string): Promise<JWTPayload | null> {
      for (const { key } of candidates(token)) {
        try {
          const { payload } = await jwtVerify(token, key, {
            issuer: ISSUER,
            audience,
            algorithms: ['HS256'],
          });
          return payload;
        } catch (error) {
          // Another key may have signed it; any other refusal (expired, wrong audience) is final.
          if (!(error instanceof JWSSignatureVerificationFailed)) return null;
        }
      }
      return null;
    },
  };
}

export type JwtKeys = ReturnType<typeof createJwtKeys>;
