// @module-tag one-process: restarts under other secrets on kept storage (TEST_TOPOLOGY, decision 041)
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { keyIdOf } from '@sino/core';
import { idDaChave } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * Decision 038, through the whole server: JWT_SECRET, SINO_WIDGET_JWT_SECRET and
 * SINO_ENCRYPTION_KEY rotate on one database restarted as an operator would (docs/operations/
 * deploy.md): with the old keys; with new keys and the old ones as previous (sessions signed
 * before still open, new ones signed with the new keys, the start re-seals); with the new
 * keys alone (old tokens refused with 401, sealed values still open, refresh cookies still
 * give a session: nobody is signed out for good).
 */
const SEGREDOS_A = {
  JWT_SECRET: 'jwt-da-rotacao-A-com-mais-de-32-caracteres',
  SINO_WIDGET_JWT_SECRET: 'widget-da-rotacao-A-com-mais-de-32-caracteres',
  SINO_ENCRYPTION_KEY: 'cifra-da-rotacao-A-com-mais-de-32-caracteres',
};
const SEGREDOS_B = {
  JWT_SECRET: 'jwt-da-rotacao-B-com-mais-de-32-caracteres',
  SINO_WIDGET_JWT_SECRET: 'widget-da-rotacao-B-com-mais-de-32-caracteres',
  SINO_ENCRYPTION_KEY: 'cifra-da-rotacao-B-com-mais-de-32-caracteres',
};
const ANTERIORES_A = {
  JWT_SECRETS_PREVIOUS: SEGREDOS_A.JWT_SECRET,
  SINO_WIDGET_JWT_SECRETS_PREVIOUS: SEGREDOS_A.SINO_WIDGET_JWT_SECRET,
  SINO_ENCRYPTION_KEYS_PREVIOUS: SEGREDOS_A.SINO_ENCRYPTION_KEY,
};
// Given, so that every start knows Locadora's key of Sino (the first one creates it).
const SINO_API_KEY = 'chave-de-api-do-sino-da-rotacao-0123456789abcdef';
const SENDGRID = 'SG.chave-da-rotacao-0123456789-F1m4';

let primeiro: AppDeTeste;
const reinicios: AppDeTeste[] = [];
// A first start migrates and seeds: a minute on a busy machine.
beforeAll(async () => {
  primeiro = await criarAppDeTeste({ ambiente: { ...SEGREDOS_A, SINO_API_KEY } });
}, 180_000);
afterAll(async () => {
  for (const app of reinicios.reverse()) await app.fechar();
  await primeiro?.fechar();
});

/** The server started again on the first one's database, the others stopped. */
async function reiniciar(ambiente: Record<string, string>): Promise<AppDeTeste> {
  for (const app of [primeiro, ...reinicios]) await app.parar();
  const app = await criarAppDeTeste({
    noBancoDe: primeiro,
    ambiente: { SINO_API_KEY, ...ambiente },
  });
  reinicios.push(app);
  return app;
}

const kid = (token: string) => decodeProtectedHeader(token).kid;
const mensagens = (app: AppDeTeste) =>
  app.logs.map((l) => JSON.parse(l) as { msg: string; level: number } & Record<string, unknown>);

/** Every value Sino keeps sealed, as stored. */
async function selados(app: AppDeTeste): Promise<string[]> {
  const { rows } = await app.banco.executeSql(
    `select credentials_ciphertext as selado from sino.integrations where credentials_ciphertext is not null
     union all select key_ciphertext from sino.api_keys
     union all select sealed from sino.server_secrets`,
  );
  return (rows as { selado: string }[]).map((l) => l.selado);
}

async function entrar(app: AppDeTeste, email: string, senha: string) {
  const r = await app.chamar('POST', '/api/Cadastro/authenticate', { corpo: { email, senha } });
  expect(r.statusCode, r.body).toBe(200);
  return {
    token: r.json<{ jwtToken: string }>().jwtToken,
    cookie: r.cookies.find((c) => c.name === 'locadora_renovacao')!.value,
  };
}

/** The bell's widget session, as the web app opens it: Locadora's hash, then Sino's token. */
async function sessaoDoSino(app: AppDeTeste, token: string): Promise<string> {
  const sessao = (await app.chamar('GET', '/api/me/notificacoes', { token })).json<{
    applicationIdentifier: string;
    subscriberId: string;
    subscriberHash: string;
  }>();
  const r = await app.app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: sessao.applicationIdentifier,
      subscriberId: sessao.subscriberId,
      hmacHash: sessao.subscriberHash,
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ data: { token: string } }>().data.token;
}

const noSino = (app: AppDeTeste, metodo: 'GET' | 'POST', url: string, corpo?: object) =>
  app.app.inject({
    method: metodo,
    url,
    headers: { authorization: `ApiKey ${SINO_API_KEY}` },
    ...(corpo && { payload: corpo }),
  });

const daCaixa = (app: AppDeTeste, token: string) =>
  app.app.inject({
    method: 'GET',
    url: '/v1/widgets/notifications/unseen',
    headers: { authorization: `Bearer ${token}` },
  });

/** A session of Sino for an erased subscriberId (its hash is made with the API key). */
async function sessaoDoApagado(app: AppDeTeste) {
  return app.app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: primeiro.sino.applicationIdentifier,
      subscriberId: 'apagado-antes',
      hmacHash: createHmac('sha256', SINO_API_KEY).update('apagado-antes').digest('hex'),
    },
  });
}

// Made under A, read after each restart.
let cliente: { email: string; senha: string; token: string; cookie: string };
let widgetA: string;
let idDaIntegracao: string;

// Each step starts a whole server on a busy machine.
describe('a rotation of the secrets, restart by restart', { timeout: 120_000 }, () => {
  it('under A: tokens name key A, sealed values too', async () => {
    const novo = await primeiro.novoCliente();
    cliente = { ...novo, ...(await entrar(primeiro, novo.email, novo.senha)) };
    expect(kid(cliente.token)).toBe(idDaChave(SEGREDOS_A.JWT_SECRET));
    widgetA = await sessaoDoSino(primeiro, cliente.token);
    expect(kid(widgetA)).toBe(keyIdOf(SEGREDOS_A.SINO_WIDGET_JWT_SECRET));
    const integracao = await noSino(primeiro, 'POST', '/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: SENDGRID, from: 'reservas@locadora.example', senderName: 'Locadora' },
    });
    expect(integracao.statusCode, integracao.body).toBe(201);
    idDaIntegracao = integracao.json<{ data: { _id: string } }>().data._id;
    expect((await noSino(primeiro, 'POST', '/v1/subscribers/apagado-antes/erase')).statusCode).toBe(
      200,
    );
    const cifraA = keyIdOf(SEGREDOS_A.SINO_ENCRYPTION_KEY);
    expect((await selados(primeiro)).every((s) => s.startsWith(`v2.${cifraA}.`))).toBe(true);
  });

  it('under B with A previous: sessions signed before still open, new ones are signed with B, the start re-seals', async () => {
    const app = await reiniciar({ ...SEGREDOS_B, ...ANTERIORES_A });
    expect((await app.chamar('GET', '/api/me', { token: cliente.token })).statusCode).toBe(200);
    expect((await daCaixa(app, widgetA)).statusCode).toBe(200);

    const { token } = await entrar(app, cliente.email, cliente.senha);
    expect(kid(token)).toBe(idDaChave(SEGREDOS_B.JWT_SECRET));
    expect(kid(await sessaoDoSino(app, token))).toBe(keyIdOf(SEGREDOS_B.SINO_WIDGET_JWT_SECRET));

    const cifraB = keyIdOf(SEGREDOS_B.SINO_ENCRYPTION_KEY);
    const todos = await selados(app);
    expect(todos.every((s) => s.startsWith(`v2.${cifraB}.`))).toBe(true);
    const linhas = mensagens(app);
    expect(
      linhas.find(
        (l) => l.msg === 'Sino: sealed values re-sealed under the current encryption key',
      ),
    ).toMatchObject({ resealed: todos.length, keyId: cifraB });
    expect(
      linhas.find(
        (l) =>
          l.msg ===
          'Sino: every sealed value is under the current encryption key; SINO_ENCRYPTION_KEYS_PREVIOUS can be removed',
      ),
    ).toBeDefined();
  });

  it('under B alone: tokens signed with A answer 401, the refresh cookie still opens a session, sealed values open', async () => {
    const app = await reiniciar(SEGREDOS_B);
    expect((await app.chamar('GET', '/api/me', { token: cliente.token })).statusCode).toBe(401);
    expect((await daCaixa(app, widgetA)).statusCode).toBe(401);

    // The refresh cookie is no JWT: a session opened under A gets a token signed with B.
    const renovada = await app.app.inject({
      method: 'POST',
      url: '/api/Cadastro/refresh',
      cookies: { locadora_renovacao: cliente.cookie },
    });
    expect(renovada.statusCode, renovada.body).toBe(200);
    const token = renovada.json<{ jwtToken: string }>().jwtToken;
    expect(kid(token)).toBe(idDaChave(SEGREDOS_B.JWT_SECRET));
    expect((await app.chamar('GET', '/api/me', { token })).statusCode).toBe(200);
    expect((await daCaixa(app, await sessaoDoSino(app, token))).statusCode).toBe(200);

    // API key (the subscriber hash), credentials and tombstones, all re-sealed under B.
    expect((await sessaoDoApagado(app)).statusCode).toBe(403);
    const integracoes = await noSino(app, 'GET', '/v1/integrations');
    expect(integracoes.statusCode, integracoes.body).toBe(200);
    const sendgrid = integracoes
      .json<{ data: { _id: string; credentials: { apiKey: string } }[] }>()
      .data.find((i) => i._id === idDaIntegracao);
    expect(sendgrid?.credentials.apiKey).toMatch(/F1m4$/);
    expect(mensagens(app).some((l) => l.msg.includes('re-sealed'))).toBe(false);
  });

  it('says at start, in one line without a secret, which values no configured key opens', async () => {
    // As if sealed under a key since removed, without the re-seal having run.
    await primeiro.banco.executeSql(
      `update sino.integrations set credentials_ciphertext = $1 where id = $2`,
      ['v2.Zz9_-Zz9.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA', idDaIntegracao],
    );
    const app = await reiniciar(SEGREDOS_B);
    const avisos = mensagens(app).filter((l) => l.msg.includes('under none of the configured'));
    expect(avisos).toHaveLength(1);
    expect(avisos[0]).toMatchObject({ level: 40 });
    const { rows } = await app.banco.executeSql(
      `select identifier, environment_id from sino.integrations where id = $1`,
      [idDaIntegracao],
    );
    const [integracao] = rows as { identifier: string; environment_id: string }[];
    expect(avisos[0]!.msg).toBe(
      `Sino: 1 sealed value opens under none of the configured encryption keys (1 key id Zz9_-Zz9): integration ${integracao!.identifier} (sendgrid) of environment ${integracao!.environment_id}. Add the key they were sealed with to SINO_ENCRYPTION_KEYS_PREVIOUS, or enter them again`,
    );
    const tudo = app.logs.join('\n');
    for (const segredo of [...Object.values(SEGREDOS_A), ...Object.values(SEGREDOS_B), SENDGRID])
      expect(tudo).not.toContain(segredo);
  });

  it('refuses to start without the key that sealed the tombstones, saying which', async () => {
    await expect(
      reiniciar({
        ...SEGREDOS_B,
        SINO_ENCRYPTION_KEY: 'cifra-da-rotacao-C-com-mais-de-32-caracteres',
      }),
    ).rejects.toThrow(
      `Cannot open the key of erased subscribers' tombstones: it was sealed under an encryption key this server does not have (key id ${keyIdOf(SEGREDOS_B.SINO_ENCRYPTION_KEY)})`,
    );
  });
});
