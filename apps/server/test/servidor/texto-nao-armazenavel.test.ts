import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadastroValido, criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * Text the database cannot store (a NUL character, an unpaired surrogate) is bad input on every
 * route: 400 naming the field, in Portuguese on Locadora's routes and in English on Sino's,
 * and nothing written. These are the requests that answered 500 before the rule at the edge
 * (`findUnstorableInput`, run by each API's validator compiler).
 */
let t: AppDeTeste;
let equipe: string;
let apiKey: string;
let widget: string;

const sino = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `ApiKey ${apiKey}` },
    ...(payload && { payload }),
  });
const noWidget = (url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/widgets${url}`,
    headers: { authorization: `Bearer ${widget}` },
    payload,
  });

beforeAll(async () => {
  t = await criarAppDeTeste();
  equipe = await t.tokenDe('funcionario');
  apiKey = t.sino.apiKey;
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: t.sino.applicationIdentifier,
      subscriberId: 'leitor',
      hmacHash: createHmac('sha256', apiKey).update('leitor').digest('hex'),
    },
  });
  widget = r.json<{ data: { token: string } }>().data.token;
});

afterAll(() => t?.fechar());

describe("Sino's routes", () => {
  it.each([
    ['/v1/subscribers/%00', 'subscriberId'],
    ['/v1/workflows/%00', 'workflowId'],
    ['/v1/topics/%00', 'topicKey'],
    ['/v1/tenants/%00', 'identifier'],
  ])('GET %s answers 400 naming the path parameter', async (url, field) => {
    const r = await sino('GET', url);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual([expect.stringMatching(new RegExp(`^${field} must`))]);
  });

  it('a path that decodes to an unpaired surrogate is refused before any route', async () => {
    expect((await sino('GET', '/v1/subscribers/%ED%A0%80')).statusCode).toBe(400);
  });

  it('DELETE /v1/events/trigger/%00 answers 400', async () => {
    const r = await sino('DELETE', '/v1/events/trigger/%00');
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual(['transactionId must not contain null characters']);
  });

  it('a trigger, a broadcast and a feed with a NUL answer 400 naming the field, and store nothing', async () => {
    const before = await sino('GET', '/v1/subscribers?limit=100');
    const trigger = await sino('POST', '/v1/events/trigger', {
      name: 'reserva-confirmada',
      to: 'novo-assinante',
      payload: { contrato: 'a\u0000b' },
    });
    expect(trigger.statusCode).toBe(400);
    expect(trigger.json().message).toEqual(['payload.contrato must not contain null characters']);
    const broadcast = await sino('POST', '/v1/events/trigger/broadcast', {
      name: 'reserva-confirmada',
      payload: { '\uD800': 1 },
    });
    expect(broadcast.statusCode).toBe(400);
    expect(broadcast.json().message).toEqual([
      'payload.\uD800 must contain only valid Unicode text',
    ]);
    const feed = await sino('POST', '/v1/feeds', { name: 'a\u0000b' });
    expect(feed.statusCode).toBe(400);
    expect(feed.json().message).toEqual(['name must not contain null characters']);
    // The trigger's subscriber was not created, and no feed either.
    expect((await sino('GET', '/v1/subscribers?limit=100')).json().data).toEqual(
      before.json().data,
    );
    expect((await sino('GET', '/v1/feeds')).json().data).toEqual([]);
  });

  it('the widget: session initialize, messages read and seen', async () => {
    const session = await t.app.inject({
      method: 'POST',
      url: '/v1/widgets/session/initialize',
      payload: { applicationIdentifier: t.sino.applicationIdentifier, subscriberId: 'a\u0000b' },
    });
    expect(session.statusCode).toBe(400);
    expect(session.json().message).toEqual(['subscriberId must not contain null characters']);
    for (const url of ['/messages/read', '/messages/seen']) {
      const r = await noWidget(url, { feedIdentifier: ['a\u0000b'] });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toEqual(['feedIdentifier.0 must not contain null characters']);
    }
  });
});

describe('Locadora’s routes', () => {
  const naoAceito = 'O texto contém um caractere nulo (NUL), que não é aceito.';

  it('authenticate and sign-up answer 400 naming the field, and create no account', async () => {
    const login = await t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email: 'a\u0000b@teste.dev', senha: 'x' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({ campos: [{ campo: 'email', mensagem: naoAceito }] });
    const cadastro = await t.chamar('POST', '/api/Cadastro', {
      corpo: cadastroValido({ nome: 'Maria\u0000', email: 'nul@teste.dev' }),
    });
    expect(cadastro.statusCode).toBe(400);
    expect(cadastro.json()).toMatchObject({ message: `nome: ${naoAceito}` });
    const busca = await t.chamar('GET', '/api/Usuarios?busca=nul%40teste.dev', { token: equipe });
    expect(busca.json()).toEqual([]);
  });

  it('GET /api/Usuarios?busca=%00%00 answers 400', async () => {
    const r = await t.chamar('GET', '/api/Usuarios?busca=%00%00', { token: equipe });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ campos: [{ campo: 'busca', mensagem: naoAceito }] });
  });

  it.each([
    ['/api/Categorias', { desc_categoria: 'a\u0000b', vl_categoria: 100 }, 'desc_categoria'],
    [
      '/api/Estoques',
      { modelo_veiculo: 'a\u0000b', marca_veiculo: 'M', cor_veiculo: 'Azul', quantidade: 1 },
      'modelo_veiculo',
    ],
    ['/api/Modelos', { nome: 'a\u0000b', marca: 'M', id_categoria: 1 }, 'nome'],
    ['/api/Categorias', { desc_categoria: 'x\uDC00', vl_categoria: 100 }, 'desc_categoria'],
  ])('POST %s answers 400 naming the field, and writes nothing', async (url, corpo, campo) => {
    const antes = (await t.chamar('GET', url, { token: equipe })).body;
    const r = await t.chamar('POST', url, { token: equipe, corpo });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([
      { campo, mensagem: expect.stringMatching(/^O texto contém/) },
    ]);
    expect((await t.chamar('GET', url, { token: equipe })).body).toBe(antes);
  });
});
