import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarSessoesDoSino } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * GET /api/me/notificacoes: the bell's inbox session. The server computes the subscriber hash
 * (Locadora's Sino environment requires it), so the browser never holds the key and cannot
 * open another account's inbox.
 */
let t: AppDeTeste;

beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t?.fechar());

const abrirCaixa = (corpo: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/v1/widgets/session/initialize', payload: corpo });

describe('GET /api/me/notificacoes', () => {
  it('needs a login (401)', async () => {
    const r = await t.chamar('GET', '/api/me/notificacoes');
    expect(r.statusCode).toBe(401);
  });

  it('gives the account its own subscriber and a hash that opens its inbox, uncached', async () => {
    const cliente = await t.novoCliente();
    const r = await t.chamar('GET', '/api/me/notificacoes', { token: cliente.token });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const sessao = r.json<{
      applicationIdentifier: string;
      subscriberId: string;
      subscriberHash: string;
    }>();
    expect(sessao).toEqual({
      applicationIdentifier: t.sino.applicationIdentifier,
      subscriberId: `usuario-${cliente.id}`,
      subscriberHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Nothing of the key itself in the answer.
    expect(r.body).not.toContain(t.sino.apiKey);

    const aberta = await abrirCaixa({
      applicationIdentifier: sessao.applicationIdentifier,
      subscriberId: sessao.subscriberId,
      hmacHash: sessao.subscriberHash,
    });
    expect(aberta.statusCode).toBe(201);
    // The hash is this account's only: another subscriberId with it is refused.
    const alheia = await abrirCaixa({
      applicationIdentifier: sessao.applicationIdentifier,
      subscriberId: 'usuario-1',
      hmacHash: sessao.subscriberHash,
    });
    expect(alheia.statusCode).toBe(400);
  });

  it('is the same for staff: their own subscriber', async () => {
    const r = await t.chamar('GET', '/api/me/notificacoes', {
      token: await t.tokenDe('funcionario'),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().subscriberId).toMatch(/^usuario-\d+$/);
  });
});

describe('without a Sino environment', () => {
  it('refuses with 503 and a Portuguese message', () => {
    expect(() => criarSessoesDoSino(undefined).de(1)).toThrow(
      expect.objectContaining({
        statusCode: 503,
        message:
          'As notificações estão indisponíveis no momento: o serviço de notificações não está configurado.',
      }),
    );
  });
});
