// @module-tag one-process: reads one process's metrics (apart, /metrics answers for whichever node the balancer picks) (TEST_TOPOLOGY, decision 041)
import { createHmac, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { lerConfiguracao } from '../../src/configuracao.js';
import { iniciarObservabilidade } from '../../src/observabilidade.js';
import { removeRedisKeys } from '@sino/core/testing';

/**
 * Issue 18, acceptance 5: /metrics scraped over HTTP, as Prometheus does, shows each family
 * moving as triggers, deliveries and sockets happen. Providers are local peers: Mailgun fails
 * (a failure, then a failover to SendGrid), SendGrid sends, or fails once for a retry. On the
 * database queue, or BullMQ with TEST_SINO_REDIS_URL.
 */
const TOKEN = 'token-das-metricas-para-os-testes-0123456789';
const SEGREDOS = { mailgun: 'mg-metricas-segredo-0001', sendgrid: 'SG.metricas-segredo-0002' };
const ASSINANTE = 'assinante-metricas-7d1c';
const EMAIL = 'ana.metricas@example.com';
const urlDoRedis = process.env.TEST_SINO_REDIS_URL;
const prefixo = `sino-metricas-${randomUUID().slice(0, 8)}`;

let t: AppDeTeste;
let url: string;
const peers = {} as Record<'mailgun' | 'sendgrid', HttpPeer>;
const sockets: Socket[] = [];
/** Every id and secret the test used: none may appear in a scrape. */
const usados: string[] = [TOKEN, ...Object.values(SEGREDOS), ASSINANTE, EMAIL];

beforeAll(async () => {
  peers.mailgun = await startHttpPeer();
  peers.sendgrid = await startHttpPeer();
  t = await criarAppDeTeste({
    ambiente: {
      METRICS_ENABLED: 'true',
      METRICS_TOKEN: TOKEN,
      // The operator's base URLs: reached although they are on this machine.
      SINO_PROVIDER_BASE_URLS: JSON.stringify({
        mailgun: peers.mailgun.url,
        sendgrid: peers.sendgrid.url,
      }),
      SINO_DELIVERY_RETRY_SECONDS: '0.2',
      ...(urlDoRedis && { REDIS_URL: urlDoRedis, SINO_REDIS_PREFIX: prefixo }),
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  usados.push(t.sino.apiKey, t.sino.applicationIdentifier, peers.mailgun.url, peers.sendgrid.url);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t?.fechar();
  await Promise.all(Object.values(peers).map((p) => p.close()));
  if (urlDoRedis) await removeRedisKeys(urlDoRedis, prefixo);
});

/** A sample of the text format: name, labels, value. */
interface Amostra {
  nome: string;
  rotulos: Record<string, string>;
  valor: number;
}

/** Reads Prometheus's text exposition format (one sample per line, comments apart). */
function lerAmostras(texto: string): Amostra[] {
  const amostras: Amostra[] = [];
  for (const linha of texto.split('\n')) {
    if (linha === '' || linha.startsWith('#')) continue;
    const partes = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(linha);
    if (!partes) throw new Error(`not a sample line: ${linha}`);
    const rotulos: Record<string, string> = {};
    for (const [, nome, valor] of (partes[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      rotulos[nome!] = valor!;
    amostras.push({ nome: partes[1]!, rotulos, valor: Number(partes[3]) });
  }
  return amostras;
}

async function raspar(): Promise<{ texto: string; amostras: Amostra[] }> {
  const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.status).toBe(200);
  const texto = await r.text();
  return { texto, amostras: lerAmostras(texto) };
}

/** The value of the sample with these labels (at least), 0 when there is none yet. */
const valor = (amostras: Amostra[], nome: string, rotulos: Record<string, string> = {}) =>
  amostras
    .filter((a) => a.nome === nome && Object.entries(rotulos).every(([k, v]) => a.rotulos[k] === v))
    .reduce((soma, a) => soma + a.valor, 0);

const sino = (method: 'GET' | 'POST', caminho: string, payload?: object) =>
  t.app.inject({
    method,
    url: caminho,
    headers: { authorization: `ApiKey ${t.sino.apiKey}` },
    ...(payload && { payload }),
  });

async function criar(caminho: string, payload: object): Promise<string> {
  const r = await sino('POST', caminho, payload);
  expect(r.statusCode, r.body).toBe(201);
  return (r.json().data as { _id: string })._id;
}

describe('GET /metrics', () => {
  it('answers 404 while metrics are off, whatever the token', async () => {
    const app = Fastify();
    await iniciarObservabilidade(app, lerConfiguracao({}));
    const r = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('# TYPE');
    await app.close();
  });

  it('answers 401 without the bearer token, with another one, or with it elsewhere', async () => {
    const recusados: Record<string, string>[] = [
      {},
      { authorization: 'Bearer outro-token-com-mais-de-trinta-e-dois-caracteres' },
      { authorization: `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
      { authorization: `Bearer ${TOKEN}x` },
    ];
    for (const headers of recusados) {
      const r = await fetch(`${url}/metrics`, { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await r.text()).not.toContain('# TYPE');
    }
    const naUrl = await fetch(`${url}/metrics?token=${TOKEN}`);
    expect(naUrl.status).toBe(401);
  });

  it('serves the text format with the process metrics to the bearer of the token', async () => {
    const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const { amostras } = await raspar();
    const nomes = new Set(amostras.map((a) => a.nome));
    for (const nome of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'sino_socket_connections',
    ])
      expect(nomes).toContain(nome);
    // The queue is read at the scrape: its depth per state and its lag.
    for (const state of ['waiting', 'delayed', 'active'])
      expect(
        amostras.some(
          (a) =>
            a.nome === 'sino_queue_jobs' &&
            a.rotulos['queue'] === 'sino-jobs' &&
            a.rotulos['state'] === state,
        ),
      ).toBe(true);
    expect(nomes).toContain('sino_queue_oldest_waiting_job_age_seconds');
  });
});

describe('the metric families as triggers and deliveries happen', () => {
  let antes: Amostra[];
  let fluxo: string;

  beforeAll(async () => {
    antes = (await raspar()).amostras;
    const mailgun = await criar('/v1/integrations', {
      providerId: 'mailgun',
      channel: 'email',
      identifier: 'mailgun-metricas',
      active: true,
      credentials: {
        apiKey: SEGREDOS.mailgun,
        user: 'api',
        domain: 'mg.locadora.example',
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    });
    const sendgrid = await criar('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'sendgrid-metricas',
      active: true,
      credentials: {
        apiKey: SEGREDOS.sendgrid,
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    });
    usados.push(mailgun, sendgrid);
    // Mailgun first, and it fails: every e-mail fails over to SendGrid.
    expect((await sino('POST', `/v1/integrations/${mailgun}/set-primary`)).statusCode).toBe(200);
    peers.mailgun.otherwise({ status: 500, json: { message: 'internal error' } });
    peers.sendgrid.otherwise({ status: 202, headers: { 'x-message-id': 'sg-metricas' } });
    fluxo = 'metricas-reserva';
    await criar('/v1/workflows', {
      name: fluxo,
      identifier: fluxo,
      active: true,
      steps: [
        { template: { type: 'in_app', content: 'Reserva {{codigo}} confirmada' } },
        { template: { type: 'email', subject: 'Reserva {{codigo}}', content: '<p>Ok</p>' } },
      ],
    });
    await criar('/v1/subscribers', { subscriberId: ASSINANTE, email: EMAIL, firstName: 'Ana' });
  });

  /** Scrapes until `pronto` holds of the change since the first scrape. */
  async function ate(
    pronto: (mudou: (nome: string, rotulos?: Record<string, string>) => number) => boolean,
  ) {
    let ultima: Amostra[] = [];
    const mudou = (nome: string, rotulos?: Record<string, string>) =>
      valor(ultima, nome, rotulos) - valor(antes, nome, rotulos);
    await expect
      .poll(
        async () => {
          ultima = (await raspar()).amostras;
          return pronto(mudou);
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(true);
    return mudou;
  }

  it('counts a socket while it is open', async () => {
    const sessao = await t.app.inject({
      method: 'POST',
      url: '/v1/widgets/session/initialize',
      payload: {
        applicationIdentifier: t.sino.applicationIdentifier,
        subscriberId: ASSINANTE,
        hmacHash: createHmac('sha256', t.sino.apiKey).update(ASSINANTE).digest('hex'),
      },
    });
    expect(sessao.statusCode, sessao.body).toBe(201);
    const token = sessao.json().data.token as string;
    usados.push(token);
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    await ate((mudou) => mudou('sino_socket_connections') === 1);
    socket.disconnect();
    await ate((mudou) => mudou('sino_socket_connections') === 0);
  });

  it('counts a trigger, its in-app message, a provider failure, the failover and the e-mail sent', async () => {
    const r = await sino('POST', '/v1/events/trigger', {
      name: fluxo,
      to: ASSINANTE,
      transactionId: 'tx-metricas-1',
      payload: { codigo: 'R-1' },
    });
    expect(r.statusCode, r.body).toBe(201);
    usados.push('tx-metricas-1');
    const email = (provider: string, outcome: string, error_class: string) => ({
      channel: 'email',
      provider,
      outcome,
      error_class,
    });
    // The e-mail counts as sent a moment before its step counts as completed, and that before
    // the step's queue job: wait for all three.
    const mudou = await ate(
      (m) =>
        m('sino_deliveries_total', email('sendgrid', 'sent', 'none')) === 1 &&
        m('sino_workflow_steps_total', { type: 'email', status: 'completed' }) === 1 &&
        m('sino_queue_jobs_processed_total', {
          queue: 'sino-jobs',
          kind: 'step',
          outcome: 'completed',
        }) === 1,
    );
    expect(mudou('sino_triggers_accepted_total', { kind: 'event' })).toBe(1);
    expect(
      mudou('sino_deliveries_total', {
        channel: 'in_app',
        provider: 'sino',
        outcome: 'sent',
        error_class: 'none',
      }),
    ).toBe(1);
    expect(mudou('sino_deliveries_total', email('mailgun', 'failed', 'retryable'))).toBe(1);
    expect(
      mudou('sino_delivery_failovers_total', {
        channel: 'email',
        from_provider: 'mailgun',
        to_provider: 'sendgrid',
      }),
    ).toBe(1);
    expect(mudou('sino_delivery_duration_seconds_count', { channel: 'email' })).toBe(2);
    expect(mudou('sino_workflow_steps_total', { type: 'in_app', status: 'completed' })).toBe(1);
    expect(mudou('sino_workflow_steps_total', { type: 'email', status: 'completed' })).toBe(1);
    // The trigger's job, and the e-mail step's (the first step runs in the trigger's).
    const jobs = (kind: string) =>
      mudou('sino_queue_jobs_processed_total', { queue: 'sino-jobs', kind, outcome: 'completed' });
    expect(jobs('trigger')).toBe(1);
    expect(jobs('step')).toBe(1);
    expect(mudou('sino_delivery_retries_total')).toBe(0);
    // The request, timed under its route's pattern.
    expect(
      mudou('http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/events/trigger',
        status_class: '2xx',
      }),
    ).toBe(1);
  });

  it('counts a retry when every provider fails, then the e-mail sent by the next attempt', async () => {
    // SendGrid fails once too: the attempt fails, the step waits 0.2 s and tries again.
    peers.sendgrid.reply({ status: 503, json: { errors: [{ message: 'unavailable' }] } });
    const r = await sino('POST', '/v1/events/trigger', {
      name: fluxo,
      to: ASSINANTE,
      transactionId: 'tx-metricas-2',
      payload: { codigo: 'R-2' },
    });
    expect(r.statusCode, r.body).toBe(201);
    usados.push('tx-metricas-2');
    const mudou = await ate(
      (m) =>
        m('sino_deliveries_total', { channel: 'email', provider: 'sendgrid', outcome: 'sent' }) ===
        2,
    );
    expect(mudou('sino_delivery_retries_total', { channel: 'email' })).toBe(1);
    expect(
      mudou('sino_deliveries_total', {
        channel: 'email',
        provider: 'sendgrid',
        outcome: 'failed',
        error_class: 'retryable',
      }),
    ).toBe(1);
    // Mailgun failed at the first trigger and at both attempts of this one.
    expect(
      mudou('sino_deliveries_total', { channel: 'email', provider: 'mailgun', outcome: 'failed' }),
    ).toBe(3);
    expect(mudou('sino_delivery_failovers_total', { channel: 'email' })).toBe(3);
    expect(mudou('sino_triggers_accepted_total', { kind: 'event' })).toBe(2);
  });

  it('labels requests by route pattern and keeps ids and secrets out of every label', async () => {
    const r = await sino('GET', `/v1/subscribers/${ASSINANTE}`);
    expect(r.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/nao-existe/${ASSINANTE}` })).statusCode,
    ).toBe(404);
    const { texto, amostras } = await raspar();
    expect(
      valor(amostras, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/v1/subscribers/:subscriberId',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      valor(amostras, 'http_request_duration_seconds_count', {
        route: 'unmatched',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const usado of usados) expect(texto).not.toContain(usado);
    // Every label value is one of a few, whatever the traffic: no number or id in a route.
    const rotas = new Set(
      amostras.filter((a) => a.rotulos['route']).map((a) => a.rotulos['route']!),
    );
    for (const rota of rotas) expect(rota).toMatch(/^(\/[\w.-]*|\/:\w+|\/\*)*$|^unmatched$/);
    expect(rotas.size).toBeLessThan(40);
    const provedores = new Set(
      amostras.flatMap((a) =>
        ['provider', 'from_provider', 'to_provider']
          .map((k) => a.rotulos[k])
          .filter((v): v is string => v !== undefined),
      ),
    );
    expect([...provedores].sort()).toEqual(['mailgun', 'sendgrid', 'sino']);
  });
});

describe("Locadora's outbox", () => {
  it('shows its backlog: the events waiting for Sino and how long the oldest has waited', async () => {
    // The worker stopped: the sign-up's confirmation link and a reservation's event wait in
    // the outbox.
    const entregador = t.app.outboxDaLocadora!;
    await entregador.parar();
    const equipe = await t.tokenDe('funcionario');
    const hatches = (await t.chamar('GET', '/api/Categorias', { token: equipe }))
      .json<{ id_categoria: number; desc_categoria: string }[]>()
      .find((c) => c.desc_categoria === 'Hatches')!.id_categoria;
    const cliente = await t.novoCliente();
    usados.push(cliente.email);
    const reserva = await t.chamar('POST', '/api/Locacao', {
      token: cliente.token,
      corpo: {
        id_local: 1,
        id_categoria: hatches,
        modelo_veiculo: 'Gol',
        data_retirada: '2031-03-03',
        hora_retirada: '10:00',
        data_entrega: '2031-03-06',
        hora_entrega: '10:00',
      },
    });
    expect(reserva.statusCode, reserva.body).toBe(201);
    await new Promise((r) => setTimeout(r, 1_100));
    const { amostras } = await raspar();
    expect(valor(amostras, 'locadora_outbox_pending_events')).toBe(2);
    expect(valor(amostras, 'locadora_outbox_oldest_pending_event_age_seconds')).toBeGreaterThan(1);

    expect((await entregador.entregarPendentes()).entregues).toBe(2);
    const depois = (await raspar()).amostras;
    expect(valor(depois, 'locadora_outbox_pending_events')).toBe(0);
    expect(valor(depois, 'locadora_outbox_oldest_pending_event_age_seconds')).toBe(0);
    entregador.iniciar();
  });
});
