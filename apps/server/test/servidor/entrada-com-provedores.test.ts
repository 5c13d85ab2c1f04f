import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRunLog } from '@locadora/db/testing';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * The operator's settings for the console's sign-in with GitHub (decision 049) reach Sino: the
 * provider is offered and its start redirects to the URL the settings name; Google, not
 * configured, is neither offered nor answered. The client secret reaches no log line.
 */
const SEGREDO = 'github-client-secret-for-the-server-test-0123';
let t: AppDeTeste;
const registro = testRunLog();

beforeAll(async () => {
  registro.knownSecrets('client secret', [SEGREDO]);
  t = await criarAppDeTeste({
    ambiente: {
      SINO_PUBLIC_URL: 'https://sino.example',
      SINO_GITHUB_CLIENT_ID: 'server-test-client-id',
      SINO_GITHUB_CLIENT_SECRET: SEGREDO,
      SINO_GITHUB_URL: 'https://github.example.com',
    },
  });
});
afterAll(async () => {
  await t.fechar();
  registro.close();
});

describe('console sign-in settings', () => {
  it('offers GitHub, redirecting to the configured server with the public callback URL', async () => {
    const providers = await t.chamar('GET', '/v1/auth/providers');
    expect(providers.statusCode).toBe(200);
    expect(providers.json()).toEqual({ data: [{ id: 'github', name: 'GitHub' }] });
    const start = await t.chamar('GET', '/v1/auth/github');
    expect(start.statusCode).toBe(302);
    const to = new URL(start.headers.location as string);
    expect(`${to.origin}${to.pathname}`).toBe('https://github.example.com/login/oauth/authorize');
    expect(to.searchParams.get('client_id')).toBe('server-test-client-id');
    expect(to.searchParams.get('redirect_uri')).toBe(
      'https://sino.example/v1/auth/github/callback',
    );
    expect(to.href).not.toContain(SEGREDO);
    expect((await t.chamar('GET', '/v1/auth/google')).statusCode).toBe(404);
    expect(t.logs.join('\n')).not.toContain(SEGREDO);
  });
});
