import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apart,
  cadastroValido,
  criarAppDeTeste,
  topology,
  type AppDeTeste,
} from '../app-de-teste.js';
import { lerConfiguracao } from '../../src/configuracao.js';
import { abrirBanco, construirApp } from '../../src/app.js';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

describe('operations', () => {
  it('GET /health says the process is alive; GET /ready reports the stores', async () => {
    const r = await t.chamar('GET', '/health');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
    const pronto = await t.chamar('GET', '/ready');
    expect(pronto.statusCode).toBe(200);
    expect(pronto.json()).toEqual({
      status: 'ok',
      database: { status: 'up', driver: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' },
      // A cluster's nodes share a Redis (its queue, rate limits and socket fan-out).
      ...(topology === 'cluster' && { redis: { status: 'up' } }),
    });
  });

  it('echoes or generates a request id and logs it', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'pedido-123' },
    });
    expect(r.headers['x-request-id']).toBe('pedido-123');
    expect(t.logs.some((linha) => JSON.parse(linha).reqId === 'pedido-123')).toBe(true);
    const gerado = await t.chamar('GET', '/health');
    expect(gerado.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown API routes with a Portuguese 404', async () => {
    const r = await t.chamar('GET', '/api/nao-existe');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Rota não encontrada.',
    });
  });

  it('serves Swagger UI at /docs, under its own looser policy', async () => {
    const r = await t.chamar('GET', '/docs/');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
  });

  it('sends the security headers on every answer: app, API, errors and Sino', async () => {
    const respostas = [
      await t.chamar('GET', '/health'),
      await t.chamar('GET', '/api/nao-existe'),
      await t.chamar('POST', '/v1/events/trigger', { corpo: { name: 'x', to: 'y' } }),
    ];
    for (const r of respostas) {
      const politica = String(r.headers['content-security-policy']);
      // The web app's own scripts only, the configured tile server, no frames by default.
      expect(politica).toContain("script-src 'self'");
      expect(politica).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(politica).toContain("img-src 'self' data: https://tile.openstreetmap.org");
      expect(politica).toContain("frame-src 'none'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
    expect(respostas.map((r) => r.statusCode)).toEqual([200, 404, 401]);
  });
});

describe('OpenAPI document', () => {
  it('describes every route with its request and response schemas', async () => {
    const r = await t.chamar('GET', '/docs/json');
    expect(r.statusCode).toBe(200);
    const doc = r.json<{ paths: Record<string, Record<string, Record<string, unknown>>> }>();
    const operacoes = Object.entries(doc.paths).flatMap(([caminho, metodos]) =>
      Object.entries(metodos).map(([metodo, op]) => ({ caminho, metodo, op })),
    );
    const daApi = operacoes.filter((o) => o.caminho.startsWith('/api/'));
    expect(daApi.length).toBeGreaterThan(5);
    for (const { caminho, metodo, op } of daApi) {
      const rotulo = `${metodo.toUpperCase()} ${caminho}`;
      expect(op.summary, `${rotulo} has a summary`).toEqual(expect.any(String));
      const respostas = op.responses as Record<string, { content?: unknown }>;
      const sucesso = Object.keys(respostas).filter((s) => s.startsWith('2'));
      expect(sucesso.length, `${rotulo} documents its success answer`).toBeGreaterThan(0);
      for (const status of sucesso.filter((s) => s !== '204')) {
        expect(respostas[status]!.content, `${rotulo} ${status} has a body schema`).toBeDefined();
      }
      if (
        ['post', 'put', 'patch'].includes(metodo) &&
        // Actions without input: the path says it all.
        !/logout|refresh|retirada|encerramento|notificacoes\/teste|me\/verificacao-de-email/.test(
          caminho,
        )
      ) {
        expect(op.requestBody, `${rotulo} documents its body`).toBeDefined();
      }
      if (op.security) {
        expect(Object.keys(respostas), `${rotulo} documents 401`).toContain('401');
      }
    }
  });

  it('lists every registered API route', async ({ skip }) => {
    skip(apart, "one process only: reads the app's own route table (printRoutes)");
    const doc = (await t.chamar('GET', '/docs/json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documentadas = Object.entries(doc.paths).flatMap(([caminho, metodos]) =>
      Object.keys(metodos).map((m) => `${m.toUpperCase()} ${caminho.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const registradas = rotasRegistradas(t.app.printRoutes({ commonPrefix: false })).filter((r) =>
      r.includes(' /api/'),
    );
    expect(registradas.length).toBeGreaterThan(5);
    expect(registradas.filter((r) => !documentadas.includes(r))).toEqual([]);
  });
});

/** Reads Fastify's route tree (`printRoutes`) back into "METHOD /path" entries, HEAD left out. */
function rotasRegistradas(arvore: string): string[] {
  const caminhos: string[] = [];
  const rotas: string[] = [];
  for (const linha of arvore.split('\n')) {
    const m = linha.match(/^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/);
    if (!m) continue;
    const nivel = m[1]!.length / 4;
    caminhos.length = nivel;
    caminhos.push(m[2]!);
    const caminho = caminhos.join('');
    for (const metodo of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD'))
      rotas.push(`${metodo} ${caminho}`);
  }
  return rotas;
}

describe('passwords never leak', () => {
  it('no response and no log line contains a password or its hash', async () => {
    const senha = 'Senha-Secreta-Unica-987';
    const cadastro = await t.chamar('POST', '/api/Cadastro', {
      corpo: cadastroValido({ email: 'sigilo@example.com', cpf: '935.411.347-80', senha }),
    });
    // The CPF belongs to a demo account: sign up again with another.
    const r =
      cadastro.statusCode === 201
        ? cadastro
        : await t.chamar('POST', '/api/Cadastro', {
            corpo: cadastroValido({ email: 'sigilo@example.com', cpf: '123.456.789-09', senha }),
          });
    expect(r.statusCode).toBe(201);
    const respostas = [r.body];
    const login = await t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email: 'sigilo@example.com', senha },
    });
    respostas.push(login.body);
    respostas.push(
      (
        await t.chamar('POST', '/api/Cadastro/authenticate', {
          corpo: { email: 'sigilo@example.com', senha: `${senha}x` },
        })
      ).body,
    );
    const token = login.json().jwtToken as string;
    respostas.push((await t.chamar('GET', '/api/me', { token })).body);
    respostas.push(
      (await t.chamar('DELETE', '/api/me', { token, corpo: { senha: 'errada-123' } })).body,
    );
    respostas.push(
      (await t.chamar('GET', '/api/Usuarios', { token: await t.tokenDe('admin') })).body,
    );

    const tudo = respostas.join('\n') + t.logs.join('\n');
    expect(tudo).not.toContain(senha);
    expect(tudo).not.toMatch(/\$argon2/);
    // The bearer header and the answered token are censored in the logs.
    expect(t.logs.join('\n')).not.toContain(token);
  });
});

describe('embedded database on disk', () => {
  it('keeps data across a restart and generates the JWT secret once into the data folder', async () => {
    const pasta = mkdtempSync(join(tmpdir(), 'locadora-'));
    try {
      const config = lerConfiguracao({ DATA_DIR: pasta, LOG_LEVEL: 'silent' });
      const primeiro = await construirApp(config, { banco: () => abrirBanco(config) });
      const cadastro = await primeiro.inject({
        method: 'POST',
        url: '/api/Cadastro',
        payload: cadastroValido({ email: 'persiste@example.com' }),
      });
      expect(cadastro.statusCode).toBe(201);
      const login1 = await primeiro.inject({
        method: 'POST',
        url: '/api/Cadastro/authenticate',
        payload: { email: 'persiste@example.com', senha: 'senha-forte-123' },
      });
      const token = login1.json().jwtToken as string;
      await primeiro.close();

      const segredo = readFileSync(join(pasta, 'secrets.json'), 'utf8');
      expect(statSync(join(pasta, 'secrets.json')).mode & 0o777).toBe(0o600);
      // Sino's first start: a development environment whose key opens the server API.
      const arquivoSino = join(pasta, 'sino-development.json');
      expect(statSync(arquivoSino).mode & 0o777).toBe(0o600);
      const sino = JSON.parse(readFileSync(arquivoSino, 'utf8')) as {
        applicationIdentifier: string;
        apiKey: string;
      };
      expect(sino.apiKey).toMatch(/^[0-9a-f]{64}$/);
      const credenciaisSino = readFileSync(arquivoSino, 'utf8');

      const segundo = await construirApp(config, { banco: () => abrirBanco(config) });
      const me = await segundo.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().email).toBe('persiste@example.com');
      const sessao = await segundo.inject({
        method: 'POST',
        url: '/v1/widgets/session/initialize',
        payload: {
          applicationIdentifier: sino.applicationIdentifier,
          subscriberId: 'u-1',
          // Locadora's environment requires the subscriber's hash.
          hmacHash: createHmac('sha256', sino.apiKey).update('u-1').digest('hex'),
        },
      });
      expect(sessao.statusCode, sessao.body).toBe(201);
      await segundo.close();
      expect(readFileSync(join(pasta, 'secrets.json'), 'utf8')).toBe(segredo);
      // Created once: the second start neither creates another environment nor rewrites it.
      expect(readFileSync(arquivoSino, 'utf8')).toBe(credenciaisSino);
    } finally {
      rmSync(pasta, { recursive: true, force: true });
    }
  }, 90_000); // two whole starts on disk: three times the default, for a loaded machine
});
