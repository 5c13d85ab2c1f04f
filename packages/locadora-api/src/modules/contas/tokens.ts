import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Papel } from '@locadora/contract/dominio';

const EMISSOR = 'locadora';
const AUDIENCIA = 'locadora-api';

export interface ConteudoDoToken {
  usuarioId: number;
  sessaoId: string;
  papel: Papel;
}

/** Short-lived HS256 access tokens naming their session, so logout takes effect at once. */
export function criarEmissorDeTokens(segredo: string, validadeMinutos: number) {
  const chave = new TextEncoder().encode(segredo);
  return {
    validadeSegundos: validadeMinutos * 60,
    async emitir(c: ConteudoDoToken): Promise<string> {
      return new SignJWT({ sid: c.sessaoId, papel: c.papel })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(c.usuarioId))
        .setIssuer(EMISSOR)
        .setAudience(AUDIENCIA)
        .setIssuedAt()
        .setExpirationTime(`${validadeMinutos}m`)
        .sign(chave);
    },
    /** The token's content, or null when it is malformed, forged, expired or for another audience. */
    async verificar(token: string): Promise<ConteudoDoToken | null> {
      try {
        const { payload } = await jwtVerify(token, chave, {
          issuer: EMISSOR,
          audience: AUDIENCIA,
          algorithms: ['HS256'],
        });
        const usuarioId = Number(payload.sub);
        if (!Number.isInteger(usuarioId) || typeof payload.sid !== 'string') return null;
        return { usuarioId, sessaoId: payload.sid, papel: payload.papel as Papel };
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
