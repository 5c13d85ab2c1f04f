// @module-tag one-process: builds a second app of the installation in this process and reads its Sino queue (TEST_TOPOLOGY, decision 041)
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { construirApp } from '../../src/app.js';
import { lerConfiguracao } from '../../src/configuracao.js';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * SHUTDOWN_GRACE_MS reaches Sino's queue: a process closing while a job runs longer than the
 * grace hands that job back to the queue once the grace is over (not after the default 8 s,
 * nor after its lease), and another process of the installation takes it and delivers. The
 * provider is a local peer that holds the first e-mail's request. On the database queue, whose
 * rows the test reads (the queue contract tests the same stop on BullMQ).
 */
const GRACA_MS = 400;
const SEGREDO_SENDGRID = 'SG.encerramento-segredo-0001';
const SEGREDOS = {
  JWT_SECRET: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
  SINO_WIDGET_JWT_SECRET: 'segredo-do-widget-de-teste-com-mais-de-32-caracteres',
  SINO_ENCRYPTION_KEY: 'chave-de-cifra-de-teste-com-mais-de-32-caracteres',
};

let t: AppDeTeste;
let sendgrid: HttpPeer;
let outro: FastifyInstance | undefined;

beforeAll(async () => {
  sendgrid = await startHttpPeer();
  t = await criarAppDeTeste({
    ambiente: {
      SHUTDOWN_GRACE_MS: String(GRACA_MS),
      SINO_PROVIDER_BASE_URLS: JSON.stringify({ sendgrid: sendgrid.url }),
      // The held request is not abandoned by the delivery's own timeout meanwhile.
      SINO_DELIVERY_TIMEOUT_MS: '60000',
    },
  });
}, 180_000);
afterAll(async () => {
  await outro?.close();
  await t?.fechar();
  await sendgrid?.close();
}, 180_000);

const sino = (app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `ApiKey ${t.sino.apiKey}` },
    ...(payload && { payload }),
  });

/** The queue's rows of engine tasks (the trigger and its steps), as the database holds them. */
async function tarefasDoMotor() {
  const r = (await t.banco.db.execute(sql`
    select state, locked_until is not null as com_lease, attempts
      from sino.queue_jobs
     where data->>'kind' in ('trigger', 'step')`)) as unknown as {
    rows: { state: string; com_lease: boolean; attempts: number }[];
  };
  return r.rows;
}

describe('SHUTDOWN_GRACE_MS', () => {
  it('a job running past the grace goes back to the queue at the close, for another process', async () => {
    const criar = async (url: string, payload: object) => {
      const r = await sino(t.app, 'POST', url, payload);
      expect(r.statusCode, r.body).toBe(201);
      return (r.json().data as { _id: string })._id;
    };
    const integracao = await criar('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'sendgrid-encerramento',
      active: true,
      credentials: {
        apiKey: SEGREDO_SENDGRID,
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    });
    expect(
      (await sino(t.app, 'POST', `/v1/integrations/${integracao}/set-primary`)).statusCode,
    ).toBe(200);
    await criar('/v1/workflows', {
      name: 'encerramento',
      identifier: 'encerramento',
      active: true,
      steps: [{ template: { type: 'email', subject: 'Reserva', content: '<p>Ok</p>' } }],
    });
    await criar('/v1/subscribers', {
      subscriberId: 'assinante-encerramento',
      email: 'bia.encerramento@example.com',
    });
    // The first request is held for as long as the process lives; later ones are answered.
    sendgrid.reply({ hang: true });
    sendgrid.otherwise({ status: 202, headers: { 'x-message-id': 'sg-encerramento' } });
    const r = await sino(t.app, 'POST', '/v1/events/trigger', {
      name: 'encerramento',
      to: 'assinante-encerramento',
    });
    expect(r.statusCode, r.body).toBe(201);
    await expect.poll(() => sendgrid.requests.length, { timeout: 15_000 }).toBe(1);
    expect(await tarefasDoMotor()).toEqual([{ state: 'active', com_lease: true, attempts: 1 }]);

    // Unset, messages are kept forever: no retention runs.
    expect(t.app.sino.messageRetention.days).toBeUndefined();
    const inicio = Date.now();
    await t.app.close();
    const duracao = Date.now() - inicio;
    // The grace was waited out, and no more: the default would have been 8 s.
    expect(duracao).toBeGreaterThanOrEqual(GRACA_MS - 50);
    expect(duracao).toBeLessThan(GRACA_MS + 3000);
    // Back in the queue for anyone, at once, instead of when its lease lapses.
    expect(await tarefasDoMotor()).toEqual([{ state: 'waiting', com_lease: false, attempts: 1 }]);

    // Another process of the installation, on the same database, takes it and delivers.
    outro = await construirApp(
      lerConfiguracao({
        PGLITE_DIR: 'memory://',
        DATABASE_URL: t.urlDoBanco,
        DATA_DIR: '/nonexistent-data-dir-tests-must-not-write',
        LOG_LEVEL: 'silent',
        SINO_PROVIDER_BASE_URLS: JSON.stringify({ sendgrid: sendgrid.url }),
        SINO_API_KEY: t.sino.apiKey,
        SINO_MESSAGE_RETENTION_DAYS: '90',
        ...SEGREDOS,
      }),
      { banco: t.banco },
    );
    // The retention setting reaches Sino too.
    expect(outro.sino.messageRetention.days).toBe(90);
    await expect.poll(() => sendgrid.requests.length, { timeout: 15_000 }).toBe(2);
    // Nothing left running or waiting: the job (and whatever its second run queued) is done.
    await expect
      .poll(async () => [...new Set((await tarefasDoMotor()).map((tarefa) => tarefa.state))], {
        timeout: 15_000,
      })
      .toEqual(['completed']);
    const mensagens = await sino(
      outro,
      'GET',
      '/v1/messages?channel=email&subscriberId=assinante-encerramento',
    );
    expect(mensagens.statusCode, mensagens.body).toBe(200);
    expect((mensagens.json().data as { deliveryStatus?: string; status?: string }[]).length).toBe(
      1,
    );
  }, 60_000);
}, 180_000);
