import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose/jwt/sign';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { criarEmissorDeTokens, idDaChave } from '../src/modules/contas/tokens.js';

const SEGREDO = 'um-segredo-de-teste-com-mais-de-32-caracteres';
const conteudo = {
  usuarioId: 7,
  sessaoId: '0d9f5c56-7c1e-4a0e-9a53-3f3f0c0a9b11',
  papel: 'cliente',
} as const;

// Verified tokens are remembered until they expire; these check that remembering them never
// accepts what jose would refuse.
describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('accepts its own token, again and again', async () => {
    const tokens = criarEmissorDeTokens(SEGREDO, 15);
    const token = await tokens.emitir(conteudo);
    expect(await tokens.verificar(token)).toEqual(conteudo);
    expect(await tokens.verificar(token)).toEqual(conteudo);
  });

  it('refuses a token once it expires, even one verified before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-07-10T13:00:00Z'));
    const tokens = criarEmissorDeTokens(SEGREDO, 15);
    const token = await tokens.emitir(conteudo);
    expect(await tokens.verificar(token)).toEqual(conteudo);
    vi.setSystemTime(new Date('2030-07-10T13:14:59Z'));
    expect(await tokens.verificar(token)).toEqual(conteudo);
    vi.setSystemTime(new Date('2030-07-10T13:15:00Z'));
    expect(await tokens.verificar(token)).toBeNull();
  });

  it('refuses a token altered after a verified one, and one signed with another key', async () => {
    const tokens = criarEmissorDeTokens(SEGREDO, 15);
    const token = await tokens.emitir(conteudo);
    expect(await tokens.verificar(token)).toEqual(conteudo);
    const [cabecalho, , assinatura] = token.split('.');
    const outroConteudo = Buffer.from(
      JSON.stringify({ sid: conteudo.sessaoId, papel: 'admin', sub: '7', exp: 4_102_444_800 }),
    ).toString('base64url');
    expect(await tokens.verificar(`${cabecalho}.${outroConteudo}.${assinatura}`)).toBeNull();
    const alheio = await criarEmissorDeTokens(`${SEGREDO}-outro`, 15).emitir(conteudo);
    expect(await tokens.verificar(alheio)).toBeNull();
  });

  describe('across a rotation of JWT_SECRET (decision 038)', () => {
    const PROXIMO = 'o-proximo-segredo-de-teste-com-mais-de-32-caracteres';

    it('signs with the current key, named in kid; the previous one still verifies', async () => {
      const antes = await criarEmissorDeTokens(SEGREDO, 15).emitir(conteudo);
      const girando = criarEmissorDeTokens({ atual: PROXIMO, anteriores: [SEGREDO] }, 15);
      const novo = await girando.emitir(conteudo);
      expect(decodeProtectedHeader(novo).kid).toBe(idDaChave(PROXIMO));
      expect(decodeProtectedHeader(antes).kid).toBe(idDaChave(SEGREDO));
      expect(await girando.verificar(antes)).toEqual(conteudo);
      expect(await girando.verificar(novo)).toEqual(conteudo);
      expect(await criarEmissorDeTokens(SEGREDO, 15).verificar(novo)).toBeNull();
    });

    it('accepts a token signed before kid under the previous key, and refuses it once it goes', async () => {
      const semKid = await new SignJWT({ sid: conteudo.sessaoId, papel: conteudo.papel })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(conteudo.usuarioId))
        .setIssuer('locadora')
        .setAudience('locadora-api')
        .setExpirationTime('15m')
        .sign(new TextEncoder().encode(SEGREDO));
      const girando = criarEmissorDeTokens({ atual: PROXIMO, anteriores: [SEGREDO] }, 15);
      expect(await girando.verificar(semKid)).toEqual(conteudo);
      expect(await criarEmissorDeTokens(PROXIMO, 15).verificar(semKid)).toBeNull();
    });

    it('refuses a token whose kid names a key it does not have', async () => {
      const alheio = await criarEmissorDeTokens(`${SEGREDO}-outro`, 15).emitir(conteudo);
      const girando = criarEmissorDeTokens({ atual: PROXIMO, anteriores: [SEGREDO] }, 15);
      expect(await girando.verificar(alheio)).toBeNull();
    });
  });
});
