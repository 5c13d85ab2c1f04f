import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { openDatabase } from '@locadora/db';
import { lerConfiguracao } from '../../src/configuracao.js';
import { abrirBanco, construirApp } from '../../src/app.js';

/**
 * Sino's first start inside the product, on the embedded database in a data folder: what
 * reaches the log stream, what only the operator's terminal sees, and how Locadora's own
 * environment opens widget sessions.
 */
const pasta = mkdtempSync(join(tmpdir(), 'locadora-primeiro-'));
const config = lerConfiguracao({ DATA_DIR: pasta, LOG_LEVEL: 'info', SEED_DEMO_ACCOUNTS: 'false' });
const logs: string[] = [];
const terminal: string[] = [];
let credenciais: { applicationIdentifier: string; apiKey: string };

const iniciar = () =>
  construirApp(config, {
    banco: () => abrirBanco(config),
    destinoDosLogs: { write: (linha: string) => void logs.push(linha) },
    terminal: (texto) => void terminal.push(texto),
  });

const hashDe = (subscriberId: string) =>
  createHmac('sha256', credenciais.apiKey).update(subscriberId).digest('hex');

const iniciarSessao = (app: FastifyInstance, subscriberId: string, hmacHash?: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: credenciais.applicationIdentifier,
      subscriberId,
      ...(hmacHash && { hmacHash }),
    },
  });

let primeiro: FastifyInstance;
beforeAll(async () => {
  primeiro = await iniciar();
  credenciais = JSON.parse(readFileSync(join(pasta, 'sino-development.json'), 'utf8')) as {
    applicationIdentifier: string;
    apiKey: string;
  };
});
afterAll(async () => {
  await primeiro?.close();
  rmSync(pasta, { recursive: true, force: true });
});

describe("Sino's first start", () => {
  it('shows the API key once on the terminal and never writes it to the log stream', () => {
    expect(credenciais.apiKey).toMatch(/^[0-9a-f]{64}$/);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(credenciais.apiKey);
    expect(terminal.join('').split(credenciais.apiKey)).toHaveLength(2);
    expect(terminal.join('')).toContain(credenciais.applicationIdentifier);
    // The log says where the key is, without it.
    const criacao = logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).startsWith('Sino: development environment created'));
    expect(criacao).toMatchObject({
      applicationIdentifier: credenciais.applicationIdentifier,
      arquivo: join(pasta, 'sino-development.json'),
      requiresSubscriberHash: true,
    });
  });

  it("makes the console's admin: its password shown once on the terminal, kept in a file of mode 600, never logged", async () => {
    const arquivo = join(pasta, 'sino-admin.json');
    const admin = JSON.parse(readFileSync(arquivo, 'utf8')) as { email: string; password: string };
    expect(admin.email).toBe('admin@sino.localhost');
    expect(admin.password.length).toBeGreaterThanOrEqual(24);
    expect(statSync(arquivo).mode & 0o777).toBe(0o600);
    expect(terminal.join('').split(admin.password)).toHaveLength(2);
    expect(logs.join('\n')).not.toContain(admin.password);
    const criacao = logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).startsWith('Sino: console admin created'));
    expect(criacao).toMatchObject({ arquivo });
    expect(logs.join('\n')).not.toContain(admin.email);
    // The admin signs in, and is the organization's admin.
    const entrada = await primeiro.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.email, password: admin.password },
    });
    expect(entrada.statusCode, entrada.body).toBe(200);
    const eu = await primeiro.inject({
      method: 'GET',
      url: '/v1/users/me',
      headers: {
        authorization: `Bearer ${entrada.json<{ data: { token: string } }>().data.token}`,
      },
    });
    expect(eu.json<{ data: { role: string } }>().data.role).toBe('admin');
  });

  it('says that widget sessions require the subscriber hash, and how it is made', () => {
    expect(terminal.join('')).toContain(
      'Widget sessions require subscriberHash = hex(HMAC-SHA256(API key, subscriberId))',
    );
  });
});

describe("Locadora's environment", () => {
  it('refuses a widget session without the subscriber hash, or with a wrong one', async () => {
    for (const hash of [undefined, 'f'.repeat(64), hashDe('outro-cliente')]) {
      const r = await iniciarSessao(primeiro, 'cliente-1', hash);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({
        statusCode: 400,
        message: 'Please provide a valid HMAC hash',
        error: 'Bad Request',
      });
    }
  });

  it('opens it with the right hash, in an answer no cache may keep', async () => {
    const r = await iniciarSessao(primeiro, 'cliente-1', hashDe('cliente-1'));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('created before that rule, requires the hash from the next start on, and prints nothing again', async () => {
    await primeiro.close();
    // A data folder from before: the in-app integration without the HMAC requirement.
    const banco = await openDatabase({ dataDir: join(pasta, 'pglite') });
    await banco.db.execute(sql`update sino.integrations set hmac = false`);
    await banco.close();
    const jaImpresso = terminal.length;

    primeiro = await iniciar();
    expect((await iniciarSessao(primeiro, 'cliente-2')).statusCode).toBe(400);
    expect((await iniciarSessao(primeiro, 'cliente-2', hashDe('cliente-2'))).statusCode).toBe(201);
    expect(terminal.length).toBe(jaImpresso);
    expect(logs.join('\n')).not.toContain(credenciais.apiKey);
  });

  it('from before console accounts, gets its admin at the first start after the upgrade, once', async () => {
    await primeiro.close();
    // A data folder from before people: no account, no member.
    const banco = await openDatabase({ dataDir: join(pasta, 'pglite') });
    await banco.db.execute(sql`delete from sino.members`);
    await banco.db.execute(sql`delete from sino.users`);
    await banco.close();
    const jaImpresso = terminal.length;

    primeiro = await iniciar();
    expect(terminal.length).toBe(jaImpresso + 1);
    const admin = JSON.parse(readFileSync(join(pasta, 'sino-admin.json'), 'utf8')) as {
      email: string;
      password: string;
    };
    expect(terminal.at(-1)).toContain(admin.password);
    const entrada = await primeiro.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.email, password: admin.password },
    });
    expect(entrada.statusCode).toBe(200);

    // The next start makes nobody and prints nothing.
    await primeiro.close();
    primeiro = await iniciar();
    expect(terminal.length).toBe(jaImpresso + 1);
  });
});
