import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarRepositorios, criarServicoDeTeste, criarSessoesDoSino } from '@locadora/api';
import { createSinoClient } from '@sino/client';
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

describe('POST /api/me/notificacoes/teste', () => {
  const sino = (method: 'GET' | 'DELETE', url: string) =>
    t.app.inject({ method, url, headers: { authorization: `ApiKey ${t.sino.apiKey}` } });

  it('needs a login (401)', async () => {
    expect((await t.chamar('POST', '/api/me/notificacoes/teste')).statusCode).toBe(401);
  });

  it('sends one to oneself through Sino; a second within seconds is refused (429)', async () => {
    const cliente = await t.novoCliente({ nome: 'Joana Teste' });
    const r = await t.chamar('POST', '/api/me/notificacoes/teste', { token: cliente.token });
    expect(r.statusCode).toBe(204);
    // The subscriber exists once Sino's worker has run the trigger (404 until then).
    const feed = async () => {
      const resposta = await sino(
        'GET',
        `/v1/subscribers/usuario-${cliente.id}/notifications/feed`,
      );
      if (resposta.statusCode !== 200) return [];
      return resposta.json<{ data: { content: string; cta: { data: { url?: string } } }[] }>().data;
    };
    for (let i = 0; i < 100 && (await feed()).length === 0; i++)
      await new Promise((ok) => setTimeout(ok, 50));
    expect(await feed()).toEqual([
      expect.objectContaining({
        content: 'Olá, Joana! Esta é uma notificação de teste: o seu sino está funcionando.',
        cta: expect.objectContaining({ data: { url: '/notificacoes' } }),
      }),
    ]);
    const deNovo = await t.chamar('POST', '/api/me/notificacoes/teste', { token: cliente.token });
    expect(deNovo.statusCode).toBe(429);
    expect(deNovo.json().message).toBe(
      'Aguarde 5 segundos entre uma notificação de teste e outra.',
    );

    // Another API node: a service of its own on the same database, sharing no memory with this
    // one, refuses it too. Had it sent, its Sino (nothing listens there) would answer 503.
    const outroNo = criarServicoDeTeste({
      repositorios: criarRepositorios(t.banco.db),
      sino: createSinoClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'nunca-usada' }),
      agora: () => new Date(),
      log: { warn: () => {} },
    });
    await expect(
      outroNo.enviar({ id: cliente.id, nome: 'Joana Teste', email: cliente.email }),
    ).rejects.toMatchObject({ statusCode: 429 });
  });

  // Last: it removes the workflow from this app's Sino.
  it('says so in Portuguese when Sino refuses (503), and lets the person try again', async () => {
    const fluxos = (await sino('GET', '/v1/workflows?limit=100')).json<{
      data: { _id: string; triggers: { identifier: string }[] }[];
    }>().data;
    const teste = fluxos.find((f) => f.triggers[0]?.identifier === 'notificacao-de-teste')!;
    expect((await sino('DELETE', `/v1/workflows/${teste._id}`)).statusCode).toBe(200);
    const cliente = await t.novoCliente();
    for (let i = 0; i < 2; i++) {
      const r = await t.chamar('POST', '/api/me/notificacoes/teste', { token: cliente.token });
      expect(r.statusCode).toBe(503);
      expect(r.json().message).toBe(
        'Não foi possível enviar a notificação agora: o serviço de notificações não respondeu. Tente novamente em instantes.',
      );
    }
  });
});

describe('without a Sino environment', () => {
  it('the test notification is refused with 503 and a Portuguese message', async () => {
    const servico = criarServicoDeTeste({
      // Not reached: without Sino nothing is recorded.
      repositorios: {
        enviosDeTeste: {
          registrar: () => Promise.reject(new Error('no database')),
          esquecer: () => Promise.resolve(),
        },
      },
      sino: undefined,
      agora: () => new Date(),
      log: { warn: () => {} },
    });
    await expect(servico.enviar({ id: 1, nome: 'A', email: 'a@teste.dev' })).rejects.toMatchObject({
      statusCode: 503,
      message:
        'As notificações estão indisponíveis no momento: o serviço de notificações não está configurado.',
    });
  });

  it('the session is refused with 503 and a Portuguese message', async () => {
    await expect(criarSessoesDoSino(undefined).de(1)).rejects.toThrow(
      expect.objectContaining({
        statusCode: 503,
        message:
          'As notificações estão indisponíveis no momento: o serviço de notificações não está configurado.',
      }),
    );
  });
});
