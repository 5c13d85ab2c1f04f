import { afterEach, describe, expect, it, vi } from 'vitest';
import { criarEmissorDeTokens } from '../src/modules/contas/tokens.js';

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
});
