import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apart, criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { POLITICA_DO_QUADRO, politicaDoConsole } from '../../src/console.js';

// Sino's console under /console (src/console.ts): a build of its own (a folder with an
// index.html and a hashed asset, as Vite writes them), deep links answered with its page and
// never Locadora's, its own policy. The browser tests (e2e/console) run the real build.
const pasta = mkdtempSync(join(tmpdir(), 'sino-console-'));
const PAGINA =
  '<!doctype html><title>Sino console</title><script type="module" src="/console/assets/index-AbCd1234.js"></script>';
mkdirSync(join(pasta, 'assets'));
writeFileSync(join(pasta, 'index.html'), PAGINA);
writeFileSync(join(pasta, 'assets/index-AbCd1234.js'), 'export {};');

const html = { accept: 'text/html' };
let t: AppDeTeste;
let semBuild: AppDeTeste;
beforeAll(async () => {
  [t, semBuild] = await Promise.all([
    criarAppDeTeste({ ambiente: { CONSOLE_DIST_DIR: pasta } }),
    criarAppDeTeste({ ambiente: { CONSOLE_DIST_DIR: join(pasta, 'absent') } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t.fechar(), semBuild.fechar()]);
  rmSync(pasta, { recursive: true, force: true });
});

describe('the console under /console', () => {
  it.each(['/console/', '/console/get-started', '/console/sign-in?next=%2F', '/console/a/b/c'])(
    'answers %s with its page, never cached, under its own policy',
    async (url) => {
      const r = await t.app.inject({ method: 'GET', url, headers: html });
      expect(r.statusCode).toBe(200);
      expect(r.body).toBe(PAGINA);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toBe(politicaDoConsole({}));
    },
  );

  it('keeps its policy strict: scripts of its own only, frames of its own, no inline script or eval', () => {
    const politica = politicaDoConsole({});
    expect(politica).toContain("script-src 'self';");
    expect(politica).toContain("frame-src 'self'");
    expect(politica).toContain("object-src 'none'");
    expect(politica).not.toMatch(/unsafe-(inline|eval)/);
    // A public URL adds its socket's origin.
    expect(politicaDoConsole({ SINO_PUBLIC_URL: 'https://sino.example.com' })).toContain(
      "connect-src 'self' wss://sino.example.com",
    );
  });

  it('serves hashed assets for a year; a missing one is 404, never the page', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/console/assets/index-AbCd1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const ausente = await t.app.inject({
      method: 'GET',
      url: '/console/assets/index-00000000.js',
      headers: html,
    });
    expect(ausente.statusCode).toBe(404);
  });

  it('sends /console to /console/', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/console', headers: html });
    expect(r.statusCode).toBe(301);
    expect(r.headers.location).toBe('/console/');
  });

  it("leaves Locadora's pages and the API their own policy", async () => {
    const api = await t.app.inject({ method: 'GET', url: '/v1/environments/me' });
    expect(api.headers['content-security-policy']).not.toBe(politicaDoConsole({}));
  });

  it.skipIf(apart)(
    "not built: says how to build it, and /console is a 404, not Locadora's page",
    async () => {
      expect(semBuild.logs.join('\n')).toContain(
        'Sino console not built: run `npm run build -w @sino/console`',
      );
      const r = await semBuild.app.inject({
        method: 'GET',
        url: '/console/get-started',
        headers: html,
      });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ message: expect.stringContaining('npm run build') });
    },
  );
});

// The preview frame (decision 063): the console posts HTML a member wrote into a sandboxed
// frame and gets it back under a policy that lets its inline styles apply and nothing run.
describe('the preview frame, /console/frame', () => {
  const EMAIL =
    '<style>p{color:red}</style><p style="font-weight:bold">Olá</p><script>parent.x=1</script>';
  const form = `html=${encodeURIComponent(EMAIL)}`;
  const postar = (headers: Record<string, string>, payload = form, app = t.app) =>
    app.inject({
      method: 'POST',
      url: '/console/frame',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload,
    });

  /** The cookie the console's page sets, as the browser keeps it. */
  async function cookieDaPagina(app = t.app) {
    const pagina = await app.inject({ method: 'GET', url: '/console/workflows', headers: html });
    const cookie = pagina.cookies.find((c) => c.name === 'sino_console_frame');
    expect(cookie).toMatchObject({ path: '/console/frame', httpOnly: true, sameSite: 'Strict' });
    return `${cookie!.name}=${cookie!.value}`;
  }

  it("answers the console's post with its HTML, sandboxed, styles only, never stored", async () => {
    const r = await postar({ cookie: await cookieDaPagina(), 'sec-fetch-site': 'same-origin' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe(EMAIL);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['content-security-policy']).toBe(POLITICA_DO_QUADRO);
    expect(r.headers['cache-control']).toBe('no-store');
    const diretivas = POLITICA_DO_QUADRO.split('; ');
    expect(diretivas[0]).toBe('sandbox'); // no allowance: no script, no same origin
    expect(diretivas).toContain("default-src 'none'");
    expect(diretivas).toContain("frame-ancestors 'self'");
    expect(POLITICA_DO_QUADRO).not.toMatch(/script-src|allow-/);
  });

  it('works without fetch metadata (plain http to a host that is not localhost)', async () => {
    const r = await postar({ cookie: await cookieDaPagina() });
    expect(r.statusCode).toBe(200);
  });

  it("refuses a post without the console's cookie, and a cross-site one", async () => {
    const cookie = await cookieDaPagina();
    const tentativas: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of tentativas) {
      const r = await postar(headers);
      expect(r.statusCode, JSON.stringify(headers)).toBe(403);
      expect(r.body).not.toContain('Olá');
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
    }
  });

  it('answers 400 without the HTML', async () => {
    const r = await postar({ cookie: await cookieDaPagina() }, 'other=1');
    expect(r.statusCode).toBe(400);
    expect(r.body).toBe('The preview needs its HTML.');
  });
});
