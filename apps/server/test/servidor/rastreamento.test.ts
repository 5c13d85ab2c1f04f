import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { lerConfiguracao } from '../../src/configuracao.js';
import { destinoDosRastros, iniciarRastreamento } from '../../src/rastreamento.js';
import { removeRedisKeys } from '@sino/core/testing';

/**
 * OpenTelemetry traces from trigger to delivery, exported over OTLP/HTTP to a local collector
 * (a peer that records the exporter's POSTs to /v1/traces): the trigger's span and the spans
 * of the worker that delivered its e-mail share one trace, the context having travelled with
 * the queue job (the database queue, or BullMQ with TEST_SINO_REDIS_URL).
 */
const ASSINANTE = 'assinante-rastros-51f0';
const EMAIL = 'bia.rastros@example.com';
const urlDoRedis = process.env.TEST_SINO_REDIS_URL;
const prefixos: string[] = [];

let coletor: HttpPeer;
let sendgrid: HttpPeer;
beforeAll(async () => {
  coletor = await startHttpPeer();
  sendgrid = await startHttpPeer();
  sendgrid.otherwise({ status: 202, headers: { 'x-message-id': 'sg-rastros' } });
});
afterAll(async () => {
  await Promise.all([coletor.close(), sendgrid.close()]);
  if (urlDoRedis) for (const prefixo of prefixos) await removeRedisKeys(urlDoRedis, prefixo);
});

/** An app sending its traces to the collector, with a workflow of an in-app and an e-mail step. */
async function appRastreado(ambiente: Record<string, string>): Promise<AppDeTeste> {
  const prefixo = `sino-rastros-${randomUUID().slice(0, 8)}`;
  prefixos.push(prefixo);
  const t = await criarAppDeTeste({
    ambiente: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${coletor.url}/`,
      SINO_PROVIDER_BASE_URLS: JSON.stringify({ sendgrid: sendgrid.url }),
      ...(urlDoRedis && { REDIS_URL: urlDoRedis, SINO_REDIS_PREFIX: prefixo }),
      ...ambiente,
    },
  });
  const sino = async (caminho: string, payload: object) => {
    const r = await t.app.inject({
      method: 'POST',
      url: caminho,
      headers: { authorization: `ApiKey ${t.sino.apiKey}` },
      payload,
    });
    expect(r.statusCode, r.body).toBe(201);
  };
  await sino('/v1/integrations', {
    providerId: 'sendgrid',
    channel: 'email',
    identifier: 'sendgrid-rastros',
    active: true,
    credentials: {
      apiKey: 'SG.rastros-segredo-0003',
      from: 'reservas@locadora.example',
      senderName: 'Locadora',
    },
  });
  await sino('/v1/workflows', {
    name: 'rastros',
    identifier: 'rastros',
    active: true,
    steps: [
      { template: { type: 'in_app', content: 'Reserva {{codigo}}' } },
      { template: { type: 'email', subject: 'Reserva {{codigo}}', content: '<p>Ok</p>' } },
    ],
  });
  await sino('/v1/subscribers', { subscriberId: ASSINANTE, email: EMAIL });
  return t;
}

/** Triggers the workflow, waits for the e-mail, and closes the app (which flushes its spans). */
async function dispararEFechar(t: AppDeTeste, transactionId: string): Promise<void> {
  const enviados = sendgrid.requests.length;
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/events/trigger',
    headers: { authorization: `ApiKey ${t.sino.apiKey}` },
    payload: { name: 'rastros', to: ASSINANTE, transactionId, payload: { codigo: 'R-7' } },
  });
  expect(r.statusCode, r.body).toBe(201);
  await expect.poll(() => sendgrid.requests.length, { timeout: 15_000 }).toBe(enviados + 1);
  await t.fechar();
}

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

const atributo = (span: Span, chave: string) => {
  const valor = span.attributes.find((a) => a.key === chave)?.value;
  return valor?.stringValue ?? valor?.intValue;
};

// Each test starts a whole server (Sino and Locadora) and waits for a delivery: a busy CI run
// took 30 s for one.
describe('traces', { timeout: 90_000 }, () => {
  it('are off, and the SDK not loaded, without an OTLP endpoint', async () => {
    expect(destinoDosRastros(lerConfiguracao({}))).toBeUndefined();
    expect(await iniciarRastreamento(lerConfiguracao({}))).toBeUndefined();
    expect(trace.getTracer('teste').startSpan('nada').isRecording()).toBe(false);
    // The standard switch wins over an endpoint.
    expect(
      destinoDosRastros(
        lerConfiguracao({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://coletor:4318',
          OTEL_SDK_DISABLED: 'true',
        }),
      ),
    ).toBeUndefined();
    expect(
      destinoDosRastros(
        lerConfiguracao({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://coletor:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://coletor.example/outro/caminho',
        }),
      ),
    ).toBe('https://coletor.example/outro/caminho');
  });

  it("join a trigger's span and its delivery's spans in one trace (OTLP/HTTP JSON)", async () => {
    coletor.requests.splice(0);
    const t = await appRastreado({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    await dispararEFechar(t, 'tx-rastros-json');
    const postagens = coletor.requests.filter((r) => r.path === '/v1/traces');
    expect(postagens.length).toBeGreaterThan(0);
    expect(postagens.every((p) => p.method === 'POST')).toBe(true);
    expect(postagens[0]!.headers['content-type']).toBe('application/json');
    const spans: Span[] = postagens.flatMap((p) =>
      (
        p.json().resourceSpans as {
          resource: { attributes: Span['attributes'] };
          scopeSpans: { spans: Span[] }[];
        }[]
      ).flatMap((r) => {
        expect(r.resource.attributes).toContainEqual({
          key: 'service.name',
          value: { stringValue: 'locadora-sino' },
        });
        return r.scopeSpans.flatMap((s) => s.spans);
      }),
    );
    const gatilho = spans.find(
      (s) => s.name === 'sino.trigger' && atributo(s, 'sino.workflow.identifier') === 'rastros',
    );
    expect(gatilho).toBeDefined();
    expect(atributo(gatilho!, 'sino.trigger.status')).toBe('processed');
    const doTraco = spans.filter((s) => s.traceId === gatilho!.traceId);
    const nomes = doTraco.map((s) => s.name);
    // The trigger's job (whose first step, in-app, runs inline), the e-mail step's job, and
    // one delivery span per channel.
    expect(nomes).toContain('sino.job trigger');
    expect(nomes).toContain('sino.job step');
    const email = doTraco.find(
      (s) => s.name === 'sino.deliver' && atributo(s, 'sino.channel') === 'email',
    );
    expect(email).toBeDefined();
    expect(atributo(email!, 'sino.provider')).toBe('sendgrid');
    expect(
      doTraco.some((s) => s.name === 'sino.deliver' && atributo(s, 'sino.channel') === 'in_app'),
    ).toBe(true);
    // The trigger's job is the trigger span's child, across the queue.
    const job = doTraco.find((s) => s.name === 'sino.job trigger')!;
    expect(job.parentSpanId).toBe(gatilho!.spanId);
    // Nothing about the subscriber leaves in a span.
    const texto = postagens.map((p) => p.text()).join('\n');
    expect(texto).not.toContain(ASSINANTE);
    expect(texto).not.toContain(EMAIL);
    expect(texto).not.toContain('SG.rastros-segredo-0003');
  });

  it('export as protobuf by default, the standard OTLP/HTTP encoding', async () => {
    coletor.requests.splice(0);
    // The collector answers an empty protobuf message.
    coletor.otherwise({
      status: 200,
      body: '',
      headers: { 'content-type': 'application/x-protobuf' },
    });
    const t = await appRastreado({});
    await dispararEFechar(t, 'tx-rastros-proto');
    const postagens = coletor.requests.filter((r) => r.path === '/v1/traces');
    expect(postagens.length).toBeGreaterThan(0);
    expect(postagens[0]!.headers['content-type']).toBe('application/x-protobuf');
    // Span names travel as plain bytes in protobuf.
    const corpo = Buffer.concat(postagens.map((p) => p.body)).toString('latin1');
    expect(corpo).toContain('sino.trigger');
    expect(corpo).toContain('sino.deliver');
  });
});
