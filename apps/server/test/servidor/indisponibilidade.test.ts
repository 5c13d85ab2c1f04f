import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAS_DEMO } from '@locadora/api';
import { startTcpProxy, type TcpProxy } from '@locadora/db/testing';
import { criarAppDeTeste, topology, urlDe, type AppDeTeste } from '../app-de-teste.js';
import { removeRedisKeys } from '@sino/core/testing';

/**
 * Outages of the stores, played by TCP proxies the test controls between the real server and
 * PostgreSQL (TEST_DATABASE_URL's server) and, when TEST_SINO_REDIS_URL is set, Redis: stalled
 * (connections open, nothing answered) and refused (connections cut, nothing listening). Every
 * request that needs the missing store answers 503 with Retry-After within the configured
 * timeouts, never a 500 and never a hang; /health stays 200 and /ready says what is down;
 * requests that do not need it (everything but a trigger, for Redis) keep working; once the
 * store is back the same process answers again at once, and every trigger accepted before the
 * outage is delivered.
 */
const urlDoBanco = process.env.TEST_DATABASE_URL;
const urlDoRedis = process.env.TEST_SINO_REDIS_URL;
if (!urlDoBanco)
  console.info('indisponibilidade.test.ts: skipped, it needs TEST_DATABASE_URL (PostgreSQL)');
else if (!urlDoRedis)
  console.info('indisponibilidade.test.ts: Redis outages skipped, they need TEST_SINO_REDIS_URL');

/** Every store timeout of the server under test, in seconds (the smallest the settings take). */
const PRAZO_S = 1;
/** A database request may wait for a connection, then for its statement; plus a busy machine. */
const LIMITE_BANCO_MS = 2 * PRAZO_S * 1000 + 1500;
const LIMITE_REDIS_MS = PRAZO_S * 1000 + 1500;

const prefixoDaFila = `sino-queda-${randomBytes(6).toString('hex')}`;
let t: AppDeTeste;
let proxyDoBanco: TcpProxy;
let proxyDoRedis: TcpProxy | undefined;
let chaveSino: string;
let tokenDoCliente: string;
let assinante: { applicationIdentifier: string; subscriberId: string; subscriberHash: string };
let tokenDoWidget: string;
let endereco: string;
let sequencia = 0;

const enderecoDe = (url: string, portaPadrao: number) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || portaPadrao) };
};

beforeAll(async () => {
  if (!urlDoBanco) return;
  proxyDoBanco = await startTcpProxy(enderecoDe(urlDoBanco, 5432));
  if (urlDoRedis) proxyDoRedis = await startTcpProxy(enderecoDe(urlDoRedis, 6379));
  t = await criarAppDeTeste({
    viaDoBanco: (url) => proxyDoBanco.urlFor(url),
    ambiente: {
      DATABASE_CONNECT_TIMEOUT_SECONDS: String(PRAZO_S),
      DATABASE_QUERY_TIMEOUT_SECONDS: String(PRAZO_S),
      REDIS_COMMAND_TIMEOUT_SECONDS: String(PRAZO_S),
      ...(proxyDoRedis && { REDIS_URL: proxyDoRedis.urlFor(urlDoRedis!) }),
    },
    prefixoDaFilaSino: prefixoDaFila,
  });
  chaveSino = t.sino.apiKey;
  tokenDoCliente = await t.tokenDe('cliente');
  assinante = (await t.chamar('GET', '/api/me/notificacoes', { token: tokenDoCliente })).json();
  const sessao = await t.app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: assinante.applicationIdentifier,
      subscriberId: assinante.subscriberId,
      hmacHash: assinante.subscriberHash,
    },
  });
  expect(sessao.statusCode).toBe(201);
  tokenDoWidget = sessao.json<{ data: { token: string } }>().data.token;
  // The inbox's socket needs a listening server.
  endereco = await urlDe(t);
});

afterAll(async () => {
  await proxyDoBanco?.resume();
  await proxyDoRedis?.resume();
  await t?.fechar();
  await proxyDoBanco?.close();
  await proxyDoRedis?.close();
  if (urlDoRedis) await removeRedisKeys(urlDoRedis, prefixoDaFila);
});

/** The requests of the brief, each as a person or a program would send it. */
const pedidos = {
  saude: () => t.app.inject({ method: 'GET', url: '/health' }),
  prontidao: () => t.app.inject({ method: 'GET', url: '/ready' }),
  disparo: (transactionId = `queda-${++sequencia}`) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      headers: { authorization: `ApiKey ${chaveSino}` },
      payload: {
        name: 'notificacao-de-teste',
        to: assinante.subscriberId,
        transactionId,
        payload: { nome: transactionId },
      },
    }),
  feed: () =>
    t.app.inject({
      method: 'GET',
      url: '/v1/widgets/notifications/feed?page=0',
      headers: { authorization: `Bearer ${tokenDoWidget}` },
    }),
  // Tells the subscriber's sockets the new counts: through Redis, best effort.
  marcarLidas: () =>
    t.app.inject({
      method: 'POST',
      url: '/v1/widgets/messages/read',
      headers: { authorization: `Bearer ${tokenDoWidget}` },
      payload: {},
    }),
  login: () => {
    const conta = CONTAS_DEMO.find((c) => c.papel === 'cliente')!;
    return t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email: conta.email, senha: conta.senha },
    });
  },
  locacoes: () => t.chamar('GET', '/api/Locacao', { token: tokenDoCliente }),
};
type Pedido = Exclude<keyof typeof pedidos, 'saude' | 'prontidao'>;

/** Opens the inbox's socket: 'connected', or the refusal's message. */
function abrirSocket(): Promise<string> {
  const socket = io(endereco, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: { token: tokenDoWidget },
  });
  return new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (erro) => resolve(erro.message));
  }).finally(() => socket.disconnect());
}

async function cronometrar(
  pedido: () => Promise<LightMyRequestResponse>,
): Promise<{ r: LightMyRequestResponse; ms: number }> {
  const inicio = performance.now();
  const r = await pedido();
  return { r, ms: performance.now() - inicio };
}

/** A 503 as the store rule says: Retry-After, the half's own error body, nothing internal. */
function esperar503(
  nome: string,
  { r, ms }: { r: LightMyRequestResponse; ms: number },
  limiteMs: number,
) {
  expect(r.statusCode, `${nome}: ${r.body}`).toBe(503);
  expect(ms, `${nome} answered after ${Math.round(ms)} ms`).toBeLessThan(limiteMs);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  const corpo = r.json<{ statusCode: number; error: string; message: string }>();
  expect(corpo.statusCode).toBe(503);
  expect(corpo.error).toBe('Service Unavailable');
  // Locadora speaks Portuguese, Sino English (Novu's shape).
  expect(corpo.message).toMatch(
    nome === 'login' || nome === 'locacoes' ? /indisponível/ : /temporarily unavailable/,
  );
  for (const interno of ['127.0.0.1', 'select', 'insert', 'ECONN', 'timeout', 'Redis', 'sino.'])
    expect(r.body).not.toContain(interno);
}

/** Messages of the subscriber's feed, counted by the name each trigger gave. */
async function noFeed(): Promise<Map<string, number>> {
  const nomes = new Map<string, number>();
  for (let pagina = 0; pagina < 20; pagina++) {
    const r = await t.app.inject({
      method: 'GET',
      url: `/v1/widgets/notifications/feed?page=${pagina}&limit=100`,
      headers: { authorization: `Bearer ${tokenDoWidget}` },
    });
    expect(r.statusCode).toBe(200);
    const corpo = r.json<{ data: { payload: { nome?: string } }[]; hasMore: boolean }>();
    for (const m of corpo.data)
      if (m.payload.nome) nomes.set(m.payload.nome, (nomes.get(m.payload.nome) ?? 0) + 1);
    if (!corpo.hasMore) break;
  }
  return nomes;
}

/**
 * One outage: triggers accepted just before it, then every request during it, then the
 * recovery. `precisam` are the requests that need the store that is down.
 */
async function umaQueda(opcoes: {
  proxy: () => TcpProxy;
  modo: 'stall' | 'refuse';
  loja: 'database' | 'redis';
  precisam: Pedido[];
  limiteMs: number;
  /**
   * The trigger refused during the outage is sent again with its transactionId once the store
   * is back, and must be delivered once: an enqueue that timed out may still have been stored.
   */
  repetirDisparo?: boolean;
}) {
  const { proxy, modo, loja, precisam, limiteMs } = opcoes;
  const durante = `durante-${loja}-${modo}`;
  // Accepted (201) right before the outage: their steps run across it.
  const aceitos: string[] = [];
  for (let i = 0; i < 5; i++) {
    const id = `antes-${loja}-${modo}-${i}`;
    const r = await pedidos.disparo(id);
    expect(r.statusCode, r.body).toBe(201);
    aceitos.push(id);
  }

  if (modo === 'stall') proxy().stall();
  else await proxy().refuse();
  try {
    const saude = await cronometrar(pedidos.saude);
    expect(saude.r.statusCode).toBe(200);
    expect(saude.ms).toBeLessThan(500);
    const pronto = await cronometrar(pedidos.prontidao);
    expect(pronto.r.statusCode).toBe(503);
    expect(pronto.ms).toBeLessThan(3000);
    expect(pronto.r.json()).toMatchObject({ status: 'unavailable', [loja]: { status: 'down' } });
    expect(pronto.r.body).not.toContain('127.0.0.1');

    const nomes = Object.keys(pedidos).filter(
      (n) => n !== 'saude' && n !== 'prontidao',
    ) as Pedido[];
    // All at once, as they would come: none waits for another's timeout.
    const respostas = await Promise.all(
      nomes.map((n) =>
        cronometrar(() => (n === 'disparo' ? pedidos.disparo(durante) : pedidos[n]())),
      ),
    );
    for (const [i, nome] of nomes.entries()) {
      const resposta = respostas[i]!;
      if (precisam.includes(nome)) esperar503(nome, resposta, limiteMs);
      else
        expect(resposta.r.statusCode, `${nome} without ${loja}: ${resposta.r.body}`).toBeLessThan(
          300,
        );
    }
    // The inbox's socket: refused as unavailable (the widget tries again) when its session
    // cannot be read, never an unhandled failure; it does not need Redis.
    expect(await abrirSocket()).toBe(loja === 'database' ? 'Service Unavailable' : 'connected');
  } finally {
    await proxy().resume();
  }

  // The same process answers again once the store is back: no restart.
  const volta = performance.now();
  let pronto = await pedidos.prontidao();
  while (pronto.statusCode !== 200 && performance.now() - volta < 5000) {
    await new Promise((r) => setTimeout(r, 10));
    pronto = await pedidos.prontidao();
  }
  const recuperacaoMs = performance.now() - volta;
  console.info(`${loja} ${modo}: ready again ${Math.round(recuperacaoMs)} ms after it came back`);
  expect(pronto.statusCode).toBe(200);
  expect(recuperacaoMs).toBeLessThan(1000);
  expect(await abrirSocket()).toBe('connected');
  for (const nome of precisam) {
    const r =
      nome === 'disparo' && opcoes.repetirDisparo
        ? await pedidos.disparo(durante)
        : await pedidos[nome]();
    expect(r.statusCode, `${nome} after the outage: ${r.body}`).toBeLessThan(300);
  }
  if (opcoes.repetirDisparo) aceitos.push(durante);
  // Nothing accepted before the outage was lost.
  const limite = Date.now() + 20_000;
  let faltam = aceitos;
  while (faltam.length > 0 && Date.now() < limite) {
    const entregues = await noFeed();
    faltam = aceitos.filter((id) => !entregues.has(id));
    if (faltam.length > 0) await new Promise((r) => setTimeout(r, 200));
  }
  expect(faltam, 'accepted before the outage, never delivered').toEqual([]);
  // Work taken again meanwhile has settled: nothing was delivered twice.
  await new Promise((r) => setTimeout(r, 1000));
  const entregues = await noFeed();
  expect(aceitos.filter((id) => entregues.get(id) !== 1)).toEqual([]);
}

const todos: Pedido[] = ['disparo', 'feed', 'marcarLidas', 'login', 'locacoes'];

describe.runIf(urlDoBanco)('PostgreSQL outages', () => {
  it('stalled: 503 with Retry-After within the timeouts, then back without a restart', async () => {
    await umaQueda({
      proxy: () => proxyDoBanco,
      modo: 'stall',
      loja: 'database',
      precisam: todos,
      limiteMs: LIMITE_BANCO_MS,
      repetirDisparo: true,
    });
  }, 60_000);

  it('refused: 503 with Retry-After at once, then back without a restart', async () => {
    await umaQueda({
      proxy: () => proxyDoBanco,
      modo: 'refuse',
      loja: 'database',
      precisam: todos,
      limiteMs: LIMITE_BANCO_MS,
      repetirDisparo: true,
    });
  }, 60_000);
});

/** Why the Redis outages are not played with the halves apart. */
const HALVES_SEM_REDIS =
  "with the halves apart, /ready through the balancer is Locadora's, which uses no Redis (Sino's process does)";

describe.runIf(urlDoBanco && urlDoRedis)('Redis outages', () => {
  // Rentals, logins and the inbox never need Redis: only a trigger (its queue) does.
  it('stalled: a trigger answers 503 within the timeout, the rest works', async ({ skip }) => {
    skip(topology === 'halves', HALVES_SEM_REDIS);
    await umaQueda({
      proxy: () => proxyDoRedis!,
      modo: 'stall',
      loja: 'redis',
      precisam: ['disparo'],
      repetirDisparo: true,
      limiteMs: LIMITE_REDIS_MS,
    });
  }, 60_000);

  it('refused: a trigger answers 503 at once, the rest works', async ({ skip }) => {
    skip(topology === 'halves', HALVES_SEM_REDIS);
    await umaQueda({
      proxy: () => proxyDoRedis!,
      modo: 'refuse',
      loja: 'redis',
      precisam: ['disparo'],
      repetirDisparo: true,
      limiteMs: LIMITE_REDIS_MS,
    });
  }, 60_000);
});
