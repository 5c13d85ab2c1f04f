import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apart, criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/** The refresh cookie and the caching of token answers, behind a trusted TLS-terminating proxy. */

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste({ ambiente: { TRUST_PROXY: 'true' } });
});
afterAll(() => t.fechar());

const HTTPS = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.20' };

/** The refresh cookie's Set-Cookie line, and its value. */
function cookieDe(r: { headers: Record<string, unknown> }) {
  const linha = [r.headers['set-cookie']].flat().find((c) => String(c).startsWith('locadora_'));
  expect(linha, 'Set-Cookie of the refresh cookie').toBeDefined();
  return { linha: String(linha), par: String(linha).split(';')[0]! };
}

async function entrar(cabecalhos: Record<string, string>) {
  const { email, senha } = await t.novoCliente();
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/Cadastro/authenticate',
    headers: cabecalhos,
    payload: { email, senha },
  });
  expect(r.statusCode).toBe(200);
  return { r, senha, token: r.json<{ jwtToken: string }>().jwtToken };
}

describe('refresh cookie over HTTPS', () => {
  it('is Secure, httpOnly and SameSite=Strict on every answer that writes it', async ({ skip }) => {
    skip(
      apart,
      'one process only: claims HTTPS with X-Forwarded-Proto; the test balancer is a plain-HTTP hop that appends http, the last hop TRUST_PROXY reads',
    );
    const { r: login, token } = await entrar(HTTPS);
    const atributos = /; Path=\/api\/Cadastro;.*HttpOnly; Secure; SameSite=Strict$/;
    expect(cookieDe(login).linha).toMatch(atributos);

    const renovada = await t.app.inject({
      method: 'POST',
      url: '/api/Cadastro/refresh',
      headers: { ...HTTPS, cookie: cookieDe(login).par },
    });
    expect(renovada.statusCode).toBe(200);
    expect(cookieDe(renovada).linha).toMatch(atributos);

    const saida = await t.app.inject({
      method: 'POST',
      url: '/api/Cadastro/logout',
      headers: { ...HTTPS, authorization: `Bearer ${token}` },
    });
    expect(saida.statusCode).toBe(204);
    expect(cookieDe(saida).par).toBe('locadora_renovacao=');
    expect(cookieDe(saida).linha).toMatch(atributos);
  });

  it('is cleared with the same attributes when the account is deleted', async ({ skip }) => {
    skip(
      apart,
      'one process only: claims HTTPS with X-Forwarded-Proto; the test balancer is a plain-HTTP hop that appends http, the last hop TRUST_PROXY reads',
    );
    const { token, senha } = await entrar(HTTPS);
    const r = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: { ...HTTPS, authorization: `Bearer ${token}` },
      payload: { senha },
    });
    expect(r.statusCode).toBe(204);
    expect(cookieDe(r).par).toBe('locadora_renovacao=');
    expect(cookieDe(r).linha).toMatch(
      /; Path=\/api\/Cadastro;.*HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('is not Secure over plain HTTP (a development server without TLS)', async () => {
    const { r } = await entrar({ 'x-forwarded-proto': 'http' });
    expect(cookieDe(r).linha).not.toMatch(/Secure/);
    expect(cookieDe(r).linha).toMatch(/HttpOnly; SameSite=Strict$/);
  });
});

describe('Cache-Control of session answers', () => {
  it('is no-store on login, refresh, logout and account deletion', async () => {
    const { r: login, token } = await entrar(HTTPS);
    expect(login.headers['cache-control']).toBe('no-store');

    const renovada = await t.app.inject({
      method: 'POST',
      url: '/api/Cadastro/refresh',
      headers: { ...HTTPS, cookie: cookieDe(login).par },
    });
    expect(renovada.statusCode).toBe(200);
    expect(renovada.headers['cache-control']).toBe('no-store');

    const saida = await t.chamar('POST', '/api/Cadastro/logout', { token });
    expect(saida.statusCode).toBe(204);
    expect(saida.headers['cache-control']).toBe('no-store');

    const outra = await entrar({});
    const exclusao = await t.chamar('DELETE', '/api/me', {
      token: outra.token,
      corpo: { senha: outra.senha },
    });
    expect(exclusao.statusCode).toBe(204);
    expect(exclusao.headers['cache-control']).toBe('no-store');
  });
});
