import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * The login throttle under concurrency. A 401 means the password was checked (and was wrong);
 * a 429 means it was refused before any check: counting the two answers counts the checks.
 */

const MINUTO = 60_000;

function entrar(t: AppDeTeste, email: string, senha: string, endereco: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/Cadastro/authenticate',
    remoteAddress: endereco,
    payload: { email, senha },
  });
}

const contar = (respostas: LightMyRequestResponse[], status: number) =>
  respostas.filter((r) => r.statusCode === status).length;

/** Every 429 says, in whole seconds, when to try again. */
function conferirRecusas(respostas: LightMyRequestResponse[], maximoSegundos: number) {
  for (const r of respostas.filter((x) => x.statusCode === 429)) {
    const espera = Number(r.headers['retry-after']);
    expect(Number.isInteger(espera), `Retry-After: ${r.headers['retry-after']}`).toBe(true);
    expect(espera).toBeGreaterThan(0);
    expect(espera).toBeLessThanOrEqual(maximoSegundos);
    expect(r.json().message).toMatch(
      /^Muitas tentativas de login sem sucesso\. Tente novamente em \d+ minutos?\.$/,
    );
  }
}

describe('concurrent failed logins (default limits: 5 per e-mail, 50 per address)', () => {
  let t: AppDeTeste;
  beforeAll(async () => {
    t = await criarAppDeTeste({
      ambiente: {
        LOGIN_MAX_FAILURES: '5',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '50',
        LOGIN_BLOCK_MINUTES: '15',
      },
    });
  });
  afterAll(() => t.fechar());

  it('40 wrong passwords at once for one e-mail: 5 checked, the rest 429 with Retry-After', async () => {
    const { email, senha } = await t.novoCliente();
    const respostas = await Promise.all(
      Array.from({ length: 40 }, () => entrar(t, email, 'senha-errada-1', '198.51.100.1')),
    );
    expect(contar(respostas, 401)).toBe(5);
    expect(contar(respostas, 429)).toBe(35);
    conferirRecusas(respostas, 15 * 60);
    // The block holds for the right password too, from another address as well.
    const certa = await entrar(t, email, senha, '198.51.100.9');
    expect(certa.statusCode).toBe(429);
    expect(Number(certa.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000);

  it('150 attempts 60 at a time across many e-mails from one address: 50 checked', async () => {
    const respostas: LightMyRequestResponse[] = [];
    for (const [inicio, quantos] of [
      [0, 60],
      [60, 60],
      [120, 30],
    ] as const) {
      respostas.push(
        ...(await Promise.all(
          Array.from({ length: quantos }, (_, i) =>
            entrar(t, `ninguem${inicio + i}@teste.dev`, 'senha-errada-1', '198.51.100.2'),
          ),
        )),
      );
    }
    expect(contar(respostas, 401)).toBe(50);
    expect(contar(respostas, 429)).toBe(100);
    conferirRecusas(respostas, 15 * 60);
    // The block is the address's: the same people from elsewhere still log in.
    const { email, senha } = await t.novoCliente();
    expect((await entrar(t, email, senha, '198.51.100.3')).statusCode).toBe(200);
    expect((await entrar(t, email, senha, '198.51.100.2')).statusCode).toBe(429);
  }, 120_000);
});

describe('the block (2 per e-mail, 3 per address, 10 minutes)', () => {
  let t: AppDeTeste;
  let relogio = new Date();
  beforeAll(async () => {
    t = await criarAppDeTeste({
      ambiente: {
        LOGIN_MAX_FAILURES: '2',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '3',
        LOGIN_BLOCK_MINUTES: '10',
      },
      agora: () => relogio,
    });
  });
  afterAll(() => t.fechar());

  it('lasts LOGIN_BLOCK_MINUTES, and Retry-After counts it down', async () => {
    relogio = new Date();
    const { email, senha } = await t.novoCliente();
    for (let i = 0; i < 2; i++)
      expect((await entrar(t, email, 'senha-errada-1', '203.0.113.1')).statusCode).toBe(401);
    const bloqueado = await entrar(t, email, senha, '203.0.113.1');
    expect(bloqueado.statusCode).toBe(429);
    expect(bloqueado.headers['retry-after']).toBe('600');
    expect(bloqueado.json().message).toBe(
      'Muitas tentativas de login sem sucesso. Tente novamente em 10 minutos.',
    );

    relogio = new Date(relogio.getTime() + 9 * MINUTO + 30_000);
    const quase = await entrar(t, email, senha, '203.0.113.1');
    expect(quase.statusCode).toBe(429);
    expect(quase.headers['retry-after']).toBe('30');
    expect(quase.json().message).toBe(
      'Muitas tentativas de login sem sucesso. Tente novamente em 1 minuto.',
    );

    relogio = new Date(relogio.getTime() + 30_000);
    expect((await entrar(t, email, senha, '203.0.113.1')).statusCode).toBe(200);
  });

  it("a success clears the e-mail's count", async () => {
    relogio = new Date();
    const { email, senha } = await t.novoCliente();
    const ip = '203.0.113.2';
    expect((await entrar(t, email, 'senha-errada-1', ip)).statusCode).toBe(401);
    expect((await entrar(t, email, senha, ip)).statusCode).toBe(200);
    expect((await entrar(t, email, 'senha-errada-1', '203.0.113.3')).statusCode).toBe(401);
    expect((await entrar(t, email, 'senha-errada-1', '203.0.113.3')).statusCode).toBe(401);
    expect((await entrar(t, email, senha, '203.0.113.4')).statusCode).toBe(429);
  });

  it('successful logins do not count against the address; failures of any e-mail do', async () => {
    relogio = new Date();
    const { email, senha } = await t.novoCliente();
    const ip = '203.0.113.5';
    for (let i = 0; i < 5; i++) expect((await entrar(t, email, senha, ip)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await entrar(t, `outro${i}@teste.dev`, 'senha-errada-1', ip)).statusCode).toBe(401);
    const bloqueado = await entrar(t, email, senha, ip);
    expect(bloqueado.statusCode).toBe(429);
    expect(bloqueado.headers['retry-after']).toBe('600');
  });
});
