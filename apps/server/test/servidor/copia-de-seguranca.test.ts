import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { abrirBanco, construirApp } from '../../src/app.js';
import { lerConfiguracao } from '../../src/configuracao.js';
import { cadastroValido, cpfDeTeste } from '../app-de-teste.js';

/**
 * Issue 18, backup and restore (docs/operations/backup.md, decision 037): an installation
 * filled through the real app (a customer, a workflow, subscribers and their messages, an
 * integration whose credentials are sealed), backed up with the operator's command, restored
 * into a fresh database, and started again: the same data, the same inbox, the customer logs
 * in, the widget token still opens the inbox, and the sealed provider key still opens (an
 * e-mail reaches the local SendGrid with it). PGlite on disk always; PostgreSQL with
 * pg_dump/pg_restore where TEST_DATABASE_URL is set.
 */
const RAIZ = fileURLToPath(new URL('../../../..', import.meta.url));
const SEGREDOS = {
  JWT_SECRET: 'segredo-jwt-da-copia-de-seguranca-0123456789',
  SINO_WIDGET_JWT_SECRET: 'segredo-do-widget-da-copia-de-seguranca-0123',
  SINO_ENCRYPTION_KEY: 'chave-de-cifra-da-copia-de-seguranca-0123456',
  SINO_API_KEY: 'chave-da-api-do-sino-da-copia-de-seguranca-01',
};
const CHAVE_SENDGRID = 'SG.copia-de-seguranca-chave-selada-0001';
const ANA = 'ana-copia-de-seguranca';
const registro = testRunLog();
registro.knownSecrets('segredo', [...Object.values(SEGREDOS), CHAVE_SENDGRID]);

let sendgrid: HttpPeer;
let pasta: string;
const abertos: FastifyInstance[] = [];
beforeAll(async () => {
  sendgrid = await startHttpPeer();
  sendgrid.otherwise({ status: 202, headers: { 'x-message-id': 'sg-copia' } });
  pasta = mkdtempSync(join(tmpdir(), 'copia-de-seguranca-'));
});
afterAll(async () => {
  for (const app of abertos) await app.close();
  await sendgrid?.close();
  if (pasta) rmSync(pasta, { recursive: true, force: true });
  registro.close();
});

/** The whole server, as `node apps/server/dist/main.js` builds it, on the database it names. */
async function iniciar(ambiente: Record<string, string>): Promise<FastifyInstance> {
  const config = lerConfiguracao({
    ...SEGREDOS,
    LOG_LEVEL: 'info',
    SINO_PROVIDER_BASE_URLS: JSON.stringify({ sendgrid: sendgrid.url }),
    ...ambiente,
  });
  const app = await construirApp(config, {
    banco: () => abrirBanco(config),
    destinoDosLogs: { write: (linha: string) => registro.write(linha) },
  });
  abertos.push(app);
  return app;
}

async function fechar(app: FastifyInstance) {
  await app.close();
  abertos.splice(abertos.indexOf(app), 1);
}

/** The operator's command, as `npm run backup` runs it: its output and exit status. */
function copia(comando: 'create' | 'restore', arquivo: string, ambiente: Record<string, string>) {
  const filho = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'apps/server/src/backup.ts', comando, arquivo],
    {
      cwd: RAIZ,
      env: { PATH: process.env.PATH ?? '', ...ambiente },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let saida = '';
  filho.stdout.on('data', (d: Buffer) => (saida += d.toString()));
  filho.stderr.on('data', (d: Buffer) => (saida += d.toString()));
  return new Promise<{ codigo: number | null; saida: string }>((resolve) =>
    filho.on('close', (codigo) => resolve({ codigo, saida })),
  );
}

const sino = (app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `ApiKey ${SEGREDOS.SINO_API_KEY}` },
    ...(payload && { payload }),
  });

const widget = (
  app: FastifyInstance,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) =>
  app.inject({
    method,
    url: `/v1/widgets${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload && { payload }),
  });

async function criar(app: FastifyInstance, url: string, payload: object): Promise<string> {
  const r = await sino(app, 'POST', url, payload);
  expect(r.statusCode, r.body).toBe(201);
  return (r.json().data as { _id: string })._id;
}

async function disparar(app: FastifyInstance, to: string, texto: string) {
  // Locadora's own e-mails (the sign-up's confirmation link) reach the provider too, and both
  // suites send the same texts: this one is the next request carrying its text.
  const desta = () => sendgrid.requests.filter((q) => q.text().includes(texto));
  const antes = desta().length;
  const r = await sino(app, 'POST', '/v1/events/trigger', {
    name: 'copia-aviso',
    to,
    payload: { texto },
  });
  expect(r.statusCode, r.body).toBe(201);
  // Delivered through the integration: the provider got the sealed key, opened.
  await expect.poll(() => desta().length, { timeout: 30_000 }).toBe(antes + 1);
  expect(desta().at(-1)!.headers.authorization).toBe(`Bearer ${CHAVE_SENDGRID}`);
}

interface Preenchida {
  cliente: { email: string; senha: string };
  /** Ana's widget token: signed with the widget secret, naming her row. */
  token: string;
}

/** A customer, and Sino's workflow, integration, subscribers and their inboxes, via the API. */
async function encher(app: FastifyInstance, n: number): Promise<Preenchida> {
  const cliente = {
    email: `cliente.copia.${n}.${process.pid}@teste.dev`,
    senha: 'senha-forte-123',
  };
  const cadastro = await app.inject({
    method: 'POST',
    url: '/api/Cadastro',
    payload: cadastroValido({ ...cliente, cpf: cpfDeTeste(9000 + n) }),
  });
  expect(cadastro.statusCode, cadastro.body).toBe(201);

  const integracao = await criar(app, '/v1/integrations', {
    providerId: 'sendgrid',
    channel: 'email',
    identifier: 'sendgrid-copia',
    active: true,
    credentials: {
      apiKey: CHAVE_SENDGRID,
      from: 'reservas@locadora.example',
      senderName: 'Locadora',
    },
  });
  expect((await sino(app, 'POST', `/v1/integrations/${integracao}/set-primary`)).statusCode).toBe(
    200,
  );
  await criar(app, '/v1/workflows', {
    name: 'copia-aviso',
    identifier: 'copia-aviso',
    active: true,
    steps: [
      { template: { type: 'in_app', content: 'Olá {{subscriber.firstName}}: {{texto}}' } },
      { template: { type: 'email', subject: 'Aviso', content: '<p>{{texto}}</p>' } },
    ],
  });
  await criar(app, '/v1/subscribers', {
    subscriberId: ANA,
    firstName: 'Ana',
    email: 'ana.copia@example.com',
  });
  await criar(app, '/v1/subscribers', {
    subscriberId: 'bruno-copia',
    firstName: 'Bruno',
    email: 'bruno.copia@example.com',
  });
  const sessao = await app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: (await sino(app, 'GET', '/v1/environments/me')).json().data.identifier,
      subscriberId: ANA,
      hmacHash: createHmac('sha256', SEGREDOS.SINO_API_KEY).update(ANA).digest('hex'),
    },
  });
  expect(sessao.statusCode, sessao.body).toBe(201);
  const token = sessao.json().data.token as string;
  for (const texto of ['reserva confirmada', 'veículo pronto', 'devolução amanhã'])
    await disparar(app, ANA, texto);
  await disparar(app, 'bruno-copia', 'multa registrada');
  // Ana read the first one.
  const feed = await widget(app, token, 'GET', '/notifications/feed');
  const primeira = (feed.json().data as { _id: string; content: string }[]).at(-1)!;
  expect(primeira.content).toContain('reserva confirmada');
  const lida = await widget(app, token, 'POST', '/messages/markAs', {
    messageId: primeira._id,
    mark: { seen: true, read: true },
  });
  expect(lida.statusCode, lida.body).toBe(201);
  // Every job ended (a provider answers before its job is marked done; Locadora's own e-mails
  // run beside): the picture taken next does not change under it.
  await expect.poll(() => todosTerminados(app), { timeout: 30_000 }).toBe(true);
  return { cliente, token };
}

const FINAIS = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
async function todosTerminados(app: FastifyInstance): Promise<boolean> {
  const r = await sino(app, 'GET', '/v1/notifications');
  const atividade = r.json().data as { jobs: { status: string }[] }[];
  return atividade.every((n) => n.jobs.every((j) => FINAIS.includes(j.status)));
}

/** What the installation answers about its data: compared before the backup and after the restore. */
async function retrato(app: FastifyInstance, { token }: Preenchida) {
  const dados = async (r: Promise<{ statusCode: number; body: string; json(): unknown }>) => {
    const resposta = await r;
    expect(resposta.statusCode, resposta.body).toBe(200);
    return (resposta.json() as { data: unknown }).data;
  };
  return {
    assinantes: await dados(sino(app, 'GET', '/v1/subscribers?limit=100')),
    fluxos: await dados(sino(app, 'GET', '/v1/workflows?limit=100')),
    integracoes: await dados(sino(app, 'GET', '/v1/integrations')),
    atividade: await dados(sino(app, 'GET', '/v1/notifications')),
    caixaDeEntrada: await dados(widget(app, token, 'GET', '/notifications/feed')),
    naoVistas: await dados(widget(app, token, 'GET', '/notifications/unseen')),
    naoLidas: await dados(widget(app, token, 'GET', '/notifications/unread')),
  };
}

/** The restored installation: what it held, and it still works with the same secrets. */
async function conferir(app: FastifyInstance, preenchida: Preenchida, antes: unknown) {
  expect(await retrato(app, preenchida)).toEqual(antes);
  const login = await app.inject({
    method: 'POST',
    url: '/api/Cadastro/authenticate',
    payload: preenchida.cliente,
  });
  expect(login.statusCode, login.body).toBe(200);
  // The sealed SendGrid key opens in the restored database: a new e-mail goes out with it.
  await disparar(app, ANA, 'depois da restauração');
  const feed = await widget(app, preenchida.token, 'GET', '/notifications/feed');
  expect((feed.json().data as unknown[]).length).toBe(4);
}

describe('backup and restore on PGlite (the data folder, server stopped)', () => {
  it('restores into a fresh folder an installation identical to the one backed up', async () => {
    const origem = { DATA_DIR: join(pasta, 'pglite-origem') };
    const destino = { DATA_DIR: join(pasta, 'pglite-destino') };
    const arquivo = join(pasta, 'locadora.tar.gz');
    const app = await iniciar(origem);
    const preenchida = await encher(app, 1);
    const antes = await retrato(app, preenchida);

    // PGlite belongs to one process: no backup while the server has it open.
    const aberto = await copia('create', arquivo, origem);
    expect(aberto.codigo, aberto.saida).toBe(1);
    expect(aberto.saida).toMatch(/is open in another process \(pid \d+\)/);

    await fechar(app);
    const feita = await copia('create', arquivo, origem);
    expect(feita.codigo, feita.saida).toBe(0);
    expect(feita.saida).toMatch(
      /Backup written and checked: .*schemas locadora \(\d+ migrations\), sino \(\d+ migrations\)/,
    );
    expect(feita.saida).toContain('It holds no secrets');

    // Restored by an operator whose environment lacks the secrets: told to bring them.
    const restaurada = await copia('restore', arquivo, destino);
    expect(restaurada.codigo, restaurada.saida).toBe(0);
    expect(restaurada.saida).toContain('Before starting: set SINO_ENCRYPTION_KEY');
    const denovo = await copia('restore', arquivo, destino);
    expect(denovo.codigo).toBe(1);
    expect(denovo.saida).toContain('is not empty: restore into a new folder');
    const noPostgres = await copia('restore', arquivo, {
      ...destino,
      DATABASE_URL: 'postgres://ninguem@127.0.0.1:1/nada',
    });
    expect(noPostgres.saida).toContain('is a PGlite backup, and this installation uses PostgreSQL');

    const restaurado = await iniciar(destino);
    await conferir(restaurado, preenchida, antes);
    await fechar(restaurado);
  }, 600_000);
});

const postgres = process.env.TEST_DATABASE_URL;
describe.skipIf(!postgres)(
  postgres
    ? 'backup and restore on PostgreSQL (pg_dump and pg_restore, server running)'
    : 'backup and restore on PostgreSQL: skipped, TEST_DATABASE_URL is not set',
  () => {
    it('restores into a new database an installation identical to the one backed up', async () => {
      const origem = await createTestDatabase();
      const destino = await createTestDatabase();
      try {
        const ambienteDaOrigem = { DATABASE_URL: origem.url!, DATA_DIR: join(pasta, 'pg-origem') };
        const ambienteDoDestino = {
          DATABASE_URL: destino.url!,
          DATA_DIR: join(pasta, 'pg-destino'),
        };
        const arquivo = join(pasta, 'locadora.dump');
        const app = await iniciar(ambienteDaOrigem);
        const preenchida = await encher(app, 2);
        const antes = await retrato(app, preenchida);

        // Taken while the server runs: pg_dump reads one consistent snapshot.
        const feita = await copia('create', arquivo, ambienteDaOrigem);
        expect(feita.codigo, feita.saida).toBe(0);
        expect(feita.saida).toMatch(
          /Backup written and checked: .*schemas locadora \(\d+ migrations\), sino \(\d+ migrations\)/,
        );
        expect(feita.saida).not.toContain(new URL(origem.url!).password || '\u0000');
        await fechar(app);

        // Into the database in use: refused, nothing touched.
        const sobre = await copia('restore', arquivo, ambienteDaOrigem);
        expect(sobre.codigo).toBe(1);
        expect(sobre.saida).toContain('already has the schemas locadora and sino');

        const restaurada = await copia('restore', arquivo, { ...ambienteDoDestino, ...SEGREDOS });
        expect(restaurada.codigo, restaurada.saida).toBe(0);
        expect(restaurada.saida).not.toContain('Before starting');

        const restaurado = await iniciar(ambienteDoDestino);
        await conferir(restaurado, preenchida, antes);
        await fechar(restaurado);
      } finally {
        for (const app of abertos.splice(0)) await app.close();
        await origem.drop();
        await destino.drop();
      }
    }, 600_000);
  },
);
