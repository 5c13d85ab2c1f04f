// @module-tag one-process: starts a server of each ROLE in this process and reads its internals (TEST_TOPOLOGY, decision 041)
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTAS_DEMO } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * Issue 18: roles that mean what they say. Each role answers /health and /ready and serves or
 * runs only its part: `api` the HTTP APIs and the web app (no socket, no consumers), `worker`
 * Sino's queue consumers and Locadora's outbox (no API, no web app, no socket), `ws` the
 * socket (no API, no consumers). A process of a role other than `all` is given the shared
 * secrets, as its configuration requires.
 */
const CHAVE = 'chave-compartilhada-dos-papeis-0123456789abcdef';
const redis = process.env.TEST_SINO_REDIS_URL;

const comPapel = (ROLE: string, extra: Record<string, string> = {}) =>
  criarAppDeTeste({
    ambiente: { ROLE, SINO_API_KEY: CHAVE, ...extra },
    // A queue of its own on Redis, removed with it.
    ...(extra.REDIS_URL && { prefixoDaFilaSino: `papeis-${ROLE}-${process.pid}` }),
  });

const pedir = (t: AppDeTeste, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

const comChave = { authorization: `ApiKey ${CHAVE}` };

/**
 * The socket's handshake (Engine.IO over HTTP long-polling) on a real port: socket.io answers
 * on the HTTP server itself, which `inject` does not go through. 200 where a socket is served.
 */
async function handshake(t: AppDeTeste): Promise<{ statusCode: number; body: string }> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const r = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`);
  return { statusCode: r.status, body: await r.text() };
}

async function saudavel(t: AppDeTeste) {
  expect((await pedir(t, '/health')).statusCode).toBe(200);
  const pronto = await pedir(t, '/ready');
  expect(pronto.statusCode, pronto.body).toBe(200);
}

/** Triggers a workflow through Sino's services (no API needed) and counts its messages. */
async function disparar(t: AppDeTeste, transactionId: string, name = 'notificacao-de-teste') {
  const ambiente = await t.app.sino.identity.environmentForApiKey(CHAVE);
  await t.app.sino.events.trigger(ambiente!, {
    name,
    to: [{ subscriberId: `papeis-${transactionId}` }],
    payload: { nome: 'Papel' },
    overrides: {},
    transactionId,
  });
}
const mensagens = async (t: AppDeTeste, transactionId: string): Promise<number> => {
  const r = (await t.banco.db.execute(
    sql`select count(*)::int as n from sino.messages where transaction_id = ${transactionId}`,
  )) as unknown as { rows: { n: number }[] };
  return r.rows[0]!.n;
};

describe('ROLE=worker', () => {
  let t: AppDeTeste;
  beforeAll(async () => {
    t = await comPapel('worker');
  });
  afterAll(() => t.fechar());

  it('answers health and readiness, and serves no API, web app, docs nor socket', async () => {
    await saudavel(t);
    expect((await pedir(t, '/v1/workflows', comChave)).statusCode).toBe(404);
    expect((await pedir(t, '/api/Categorias')).statusCode).toBe(404);
    expect((await pedir(t, '/api/configuracao')).statusCode).toBe(404);
    expect((await pedir(t, '/', { accept: 'text/html' })).statusCode).toBe(404);
    expect((await pedir(t, '/docs')).statusCode).toBe(404);
    expect((await handshake(t)).statusCode).toBe(404);
  });

  it("runs Sino's consumers, and Locadora's outbox with its workflows written", async () => {
    expect(t.app.outboxDaLocadora).not.toBeNull();
    // Written through Sino's API answered in this process (a private instance, not listening).
    const fluxos = (await t.banco.db.execute(
      sql`select count(*)::int as n from sino.workflows`,
    )) as unknown as { rows: { n: number }[] };
    expect(fluxos.rows[0]!.n).toBeGreaterThan(0);
    await disparar(t, 'papeis-worker-1');
    await vi.waitFor(async () => expect(await mensagens(t, 'papeis-worker-1')).toBe(1), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

describe('ROLE=api', () => {
  let t: AppDeTeste;
  beforeAll(async () => {
    t = await comPapel('api');
  });
  afterAll(() => t.fechar());

  it('answers health, the APIs, the docs and the web settings; no socket', async () => {
    await saudavel(t);
    expect((await pedir(t, '/v1/workflows', comChave)).statusCode).toBe(200);
    const equipe = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
    const token = await t.tokenDe(equipe.papel);
    expect(
      (await pedir(t, '/api/Categorias', { authorization: `Bearer ${token}` })).statusCode,
    ).toBe(200);
    expect((await pedir(t, '/api/configuracao')).statusCode).toBe(200);
    expect((await pedir(t, '/docs/json')).statusCode).toBe(200);
    expect((await handshake(t)).statusCode).toBe(404);
  });

  it('runs no consumer and no outbox: a trigger waits in the queue for a worker', async () => {
    expect(t.app.outboxDaLocadora).toBeNull();
    // Locadora's workflows are a worker's to write: this one is the test's.
    const criado = await t.app.inject({
      method: 'POST',
      url: '/v1/workflows',
      headers: comChave,
      payload: {
        name: 'papeis-api',
        identifier: 'papeis-api',
        active: true,
        steps: [{ template: { type: 'in_app', content: 'oi' } }],
      },
    });
    expect(criado.statusCode, criado.body).toBe(201);
    await disparar(t, 'papeis-api-1', 'papeis-api');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mensagens(t, 'papeis-api-1')).toBe(0);
    const fila = (await t.banco.db.execute(
      sql`select count(*)::int as n from sino.queue_jobs`,
    )) as unknown as { rows: { n: number }[] };
    expect(fila.rows[0]!.n).toBeGreaterThan(0);
  });
});

// A socket node needs Redis (its events come from the other processes through it).
describe.runIf(redis)('ROLE=ws', () => {
  let t: AppDeTeste;
  beforeAll(async () => {
    t = await comPapel('ws', { REDIS_URL: redis! });
  });
  afterAll(() => t.fechar());

  it('serves the socket and answers health; refuses the APIs and the web app', async () => {
    await saudavel(t);
    const aperto = await handshake(t);
    expect(aperto.statusCode).toBe(200);
    expect(aperto.body).toMatch(/^0\{"sid":/);
    expect((await pedir(t, '/v1/workflows', comChave)).statusCode).toBe(404);
    expect((await pedir(t, '/v1/widgets/notifications/feed')).statusCode).toBe(404);
    expect((await pedir(t, '/api/Categorias')).statusCode).toBe(404);
    expect((await pedir(t, '/', { accept: 'text/html' })).statusCode).toBe(404);
    expect(t.app.outboxDaLocadora).toBeUndefined();
  });
});
