import { createHash, randomBytes } from 'node:crypto';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { JWSSignatureVerificationFailed } from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import type { Papel } from '@locadora/contract/dominio';

const EMISSOR = 'locadora';
const AUDIENCIA = 'locadora-api';

export interface ConteudoDoToken {
  usuarioId: number;
  sessaoId: string;
  papel: Papel;
}

// Tokens already verified, until they expire: a client sends the same token on every request
// for its 15 minutes, and verifying it again (key import, HMAC on the thread pool, JSON) cost
// more than the session query. Only tokens that passed jose's checks get here; the session is
// still checked in the database on every request.
const MAXIMO_VERIFICADOS = 10_000;

/**
 * The keys of the access tokens (JWT_SECRET and JWT_SECRETS_PREVIOUS): the current one signs,
 * every one verifies, so a rotation signs nobody out (docs/decisions/038).
 */
export interface SegredosJwt {
  atual: string;
  anteriores?: readonly string[] | undefined;
}

/**
 * A short public name of a key, in the token's `kid` header: 8 base64url characters of a
 * SHA-256 over it. A token already lets anyone check a guess of its key; this adds nothing.
 */
export const idDaChave = (segredo: string): string =>
  createHash('sha256')
    .update('locadora key id\u0000')
    .update(segredo)
    .digest('base64url')
    .slice(0, 8);

/**
 * Short-lived HS256 access tokens naming their session, so logout takes effect at once. The
 * header's `kid` names the key that signed it: a token is checked against that one; those
 * issued before `kid` against each, the current first.
 */
export function criarEmissorDeTokens(segredos: string | SegredosJwt, validadeMinutos: number) {
  const { atual, anteriores = [] } = typeof segredos === 'string' ? { atual: segredos } : segredos;
  // Imported once: given raw bytes, jose imports the key again on every call.
  const chaves = [atual, ...anteriores].map((segredo) => ({
    id: idDaChave(segredo),
    chave: crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(segredo),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ),
  }));
  const assinante = chaves[0]!;
  /** The keys that may have signed the token: the one its `kid` names, or each without one. */
  const candidatas = (token: string) => {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return [];
    }
    return kid === undefined ? chaves : chaves.filter((c) => c.id === kid);
  };
  /** The claims, when one of the keys signed the token and it is valid now; null otherwise. */
  async function conteudoVerificado(token: string) {
    for (const { chave } of candidatas(token)) {
      try {
        const { payload } = await jwtVerify(token, await chave, {
          issuer: EMISSOR,
          audience: AUDIENCIA,
          algorithms: ['HS256'],
        });
        return payload;
      } catch (erro) {
        // Another key may have signed it; any other refusal (expired, audience) is final.
        if (!(erro instanceof JWSSignatureVerificationFailed)) return null;
      }
    }
    return null;
  }
  const verificados = new Map<string, { conteudo: ConteudoDoToken; expiraEm: number }>();
  return {
    validadeSegundos: validadeMinutos * 60,
    async emitir(c: ConteudoDoToken): Promise<string> {
      return new SignJWT({ sid: c.sessaoId, papel: c.papel })
        .setProtectedHeader({ alg: 'HS256', kid: assinante.id })
        .setSubject(String(c.usuarioId))
        .setIssuer(EMISSOR)
        .setAudience(AUDIENCIA)
        .setIssuedAt()
        .setExpirationTime(`${validadeMinutos}m`)
        .sign(await assinante.chave);
    },
    /** The token's content, or null when it is malformed, forged, expired or for another audience. */
    async verificar(token: string): Promise<ConteudoDoToken | null> {
      // jose's rule: expired once `exp` is not after the current second.
      const agora = Math.floor(Date.now() / 1000);
      const conhecido = verificados.get(token);
      if (conhecido) {
        if (conhecido.expiraEm > agora) return conhecido.conteudo;
        verificados.delete(token);
        return null;
      }
      try {
        const payload = await conteudoVerificado(token);
        if (!payload) return null;
        const usuarioId = Number(payload.sub);
        if (!Number.isInteger(usuarioId) || typeof payload.sid !== 'string') return null;
        const conteudo = { usuarioId, sessaoId: payload.sid, papel: payload.papel as Papel };
        if (typeof payload.exp === 'number') {
          if (verificados.size >= MAXIMO_VERIFICADOS) verificados.clear();
          verificados.set(token, { conteudo, expiraEm: payload.exp });
        }
        return conteudo;
      } catch {
        return null;
      }
    },
  };
}
export type EmissorDeTokens = ReturnType<typeof criarEmissorDeTokens>;

/** Opaque refresh token for the cookie; only its SHA-256 is stored. */
export function novoTokenDeRenovacao(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashDoToken(token) };
}
export const hashDoToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');
