import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build, defaultClientConditions } from 'vite';
import { expect, test, verificarAcessibilidade } from './apoio.js';

// Sino's inbox on a host page WITHOUT a Content Security Policy (issue 17, item 5), and the
// inbox items' fixes that need messages Locadora's workflows do not send (13 c and d: a user
// actor with a picture, action buttons). Everything here is local and real: the page
// (e2e/vitrine/anfitriao.html) built with Vite and served by a plain HTTP server, a Sino in a
// child process (sino-core's test harness, as the widget's component tests use), and a
// "third-party" server on another port that counts what reaches it (a tracking pixel, the
// link's target).

const PASTA_DA_VITRINE = fileURLToPath(new URL('./vitrine', import.meta.url));
// A 1x1 PNG, inline: pictures of the page's own kind load whatever the policy.
const FOTO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function ouvir(servidor: Server): Promise<string> {
  return new Promise((ok) =>
    servidor.listen(0, '127.0.0.1', () =>
      ok(`http://127.0.0.1:${(servidor.address() as { port: number }).port}`),
    ),
  );
}

/**
 * A Sino of its own for this file: the widget tests' node (packages/sino-react/test/
 * sino-node.ts: sino-core's test harness listening on a free port, PGlite or
 * TEST_DATABASE_URL), which inserts messages on request (one JSON line each way).
 */
interface Sino {
  url: string;
  applicationIdentifier: string;
  subscriberHash(subscriberId: string): string;
  api(method: string, path: string, body?: unknown): Promise<Response>;
  seed(subscriberId: string, count: number, options?: object): Promise<unknown>;
  close(): Promise<void>;
}

async function iniciarSino(): Promise<Sino> {
  const filho = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      fileURLToPath(new URL('../packages/sino-react/test/sino-node.ts', import.meta.url)),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const linhas = createInterface({ input: filho.stdout })[Symbol.asyncIterator]();
  const saiu = new Promise<void>((ok) => filho.once('exit', () => ok()));
  const primeira = await linhas.next();
  if (primeira.done) throw new Error('o Sino de teste saiu antes de ouvir');
  const pronto = JSON.parse(primeira.value as string) as {
    url: string;
    applicationIdentifier: string;
    apiKey: string;
  };
  let proximo = 0;
  let fila: Promise<unknown> = Promise.resolve();
  return {
    url: pronto.url,
    applicationIdentifier: pronto.applicationIdentifier,
    subscriberHash: (id) => createHmac('sha256', pronto.apiKey).update(id).digest('hex'),
    api: (method, path, body) =>
      fetch(`${pronto.url}${path}`, {
        method,
        headers: {
          authorization: `ApiKey ${pronto.apiKey}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    seed(subscriberId, count, options = {}) {
      // One request at a time: answers come back in order.
      const vez = fila.then(async () => {
        filho.stdin.write(
          `${JSON.stringify({ id: ++proximo, op: 'seed', subscriberId, count, options })}\n`,
        );
        const resposta = await linhas.next();
        if (resposta.done) throw new Error('o Sino de teste saiu');
        const lida = JSON.parse(resposta.value as string) as { result?: unknown; error?: string };
        if (lida.error) throw new Error(lida.error);
        return lida.result;
      });
      fila = vez.catch(() => undefined);
      return vez;
    },
    async close() {
      filho.stdin.end();
      await saiu;
    },
  };
}

/** The little of the page's DOM the checks below use (e2e files are typed without the DOM). */
interface Elemento {
  tagName: string;
  textContent: string | null;
  href: string;
  style: { cssText: string };
  closest(seletor: string): Elemento | null;
  append(filho: Elemento): void;
  remove(): void;
}
interface Documento {
  elementFromPoint(x: number, y: number): Elemento | null;
  querySelector(seletor: string): Elemento | null;
  createElement(tag: string): Elemento;
}
const TIPOS: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

test.describe('conteúdo do Sino numa página sem CSP', () => {
  test.describe.configure({ mode: 'default' });
  let saida = '';
  let sino: Sino;
  const servidores: Server[] = [];
  let anfitriao = '';
  let terceiro = '';
  /** Paths the third party was asked for. */
  const pedidos: string[] = [];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    saida = mkdtempSync(join(tmpdir(), 'sino-anfitriao-'));
    [sino] = await Promise.all([
      iniciarSino(),
      build({
        root: PASTA_DA_VITRINE,
        base: '/',
        configFile: false,
        logLevel: 'warn',
        plugins: [react()],
        resolve: { conditions: ['source', ...defaultClientConditions], dedupe: ['react'] },
        build: {
          outDir: saida,
          emptyOutDir: true,
          sourcemap: false,
          chunkSizeWarningLimit: 2000,
          rolldownOptions: { input: join(PASTA_DA_VITRINE, 'anfitriao.html') },
        },
      }),
    ]);
    // The host: the built page, and not one security header.
    const paginas = createServer((req: IncomingMessage, res: ServerResponse) => {
      const caminho = new URL(req.url ?? '/', 'http://x').pathname;
      const arquivo = resolve(saida, `.${caminho}`);
      if (relative(saida, arquivo).startsWith('..') || !existsSync(arquivo)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TIPOS[extname(arquivo)] ?? 'application/octet-stream' });
      res.end(readFileSync(arquivo));
    });
    // The third party: counts every request; answers a pixel or a page.
    const contador = createServer((req, res) => {
      pedidos.push(req.url ?? '');
      if ((req.url ?? '').startsWith('/pixel.gif')) {
        res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' });
        res.end(GIF);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Pego!</h1>');
    });
    servidores.push(paginas, contador);
    [anfitriao, terceiro] = await Promise.all([ouvir(paginas), ouvir(contador)]);
  });

  test.afterAll(async () => {
    await sino?.close();
    await Promise.all(servidores.map((s) => new Promise((ok) => s.close(ok))));
    rmSync(saida, { recursive: true, force: true });
  });

  /** The host page with the subscriber's inbox; `origens`: its allowedImageOrigins. */
  async function abrir(page: Page, assinante: string, origens: string[] = []) {
    const consulta = new URLSearchParams({
      backendUrl: sino.url,
      applicationIdentifier: sino.applicationIdentifier,
      subscriberId: assinante,
      subscriberHash: sino.subscriberHash(assinante),
      allowedImageOrigins: origens.join(','),
    });
    await page.goto(`${anfitriao}/anfitriao.html?${consulta}`);
    // No policy at all: neither a header nor a meta tag.
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').count()).toBe(0);
  }

  test('um link de posição fixa não cobre a página (o clique fora da caixa fica no anfitrião) e a imagem de fora não é pedida', async ({
    page,
  }) => {
    const assinante = `anfitriao-${Date.now()}`;
    await sino.seed(assinante, 1, {
      content:
        `<a href="${terceiro}/pego" style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;display:block;transform:none;color:#b42318">Promoção imperdível</a>` +
        ` <img src="${terceiro}/pixel.gif?quem=${assinante}" alt="Logo do parceiro" width="1" height="1">`,
    });
    await abrir(page, assinante);
    const artigo = page.getByRole('feed').getByRole('article');
    await expect(artigo).toContainText('Promoção imperdível');
    const inicio = page.url();

    // Where the host's button is, the host's button is on top, and takes the click.
    const botao = page.getByRole('button', { name: 'Botão do anfitrião' });
    const caixa = (await botao.boundingBox())!;
    const centro = { x: caixa.x + caixa.width / 2, y: caixa.y + caixa.height / 2 };
    const noTopo = (x: number, y: number) =>
      page.evaluate(
        ([px, py]) => {
          const doc = (globalThis as unknown as { document: Documento }).document;
          const el = doc.elementFromPoint(px, py);
          return el?.closest('a')?.textContent ?? el?.tagName ?? null;
        },
        [x, y] as [number, number],
      );
    expect(await noTopo(centro.x, centro.y)).toBe('BUTTON');
    await page.mouse.click(centro.x, centro.y);
    await expect(page.getByLabel('Cliques no botão do anfitrião')).toHaveText('1');
    // Anywhere else outside the inbox: nothing is followed.
    await page.mouse.click(8, 8);
    await page.mouse.click(caixa.x, caixa.y + 200);
    await page.waitForTimeout(300);
    expect(page.url()).toBe(inicio);
    expect(pedidos.filter((p) => p.startsWith('/pego'))).toEqual([]);
    // The link is still a link, inside its item, for whoever clicks it there.
    const link = artigo.getByRole('link', { name: 'Promoção imperdível' });
    await expect(link).toHaveAttribute('href', `${terceiro}/pego`);
    const noItem = (await artigo.boundingBox())!;
    const doLink = (await link.boundingBox())!;
    expect(doLink.x).toBeGreaterThanOrEqual(noItem.x);
    expect(doLink.y).toBeGreaterThanOrEqual(noItem.y);
    expect(doLink.x + doLink.width).toBeLessThanOrEqual(noItem.x + noItem.width);
    expect(doLink.y + doLink.height).toBeLessThanOrEqual(noItem.y + noItem.height);

    // The tracking pixel was never asked for; its alternative text stays.
    await expect(artigo.getByRole('img', { name: 'Logo do parceiro' })).toHaveCount(1);
    await page.waitForTimeout(1000);
    expect(pedidos.filter((p) => p.startsWith('/pixel.gif'))).toEqual([]);

    // Behind the sanitiser, the stylesheet: even a fixed, stacked element placed in the content
    // afterwards stays within the item (contained, clipped).
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: Documento }).document;
      const conteudo = doc.querySelector('.sino-item__content')!;
      const intruso = doc.createElement('a');
      intruso.href = '#intruso';
      intruso.textContent = 'Intruso';
      intruso.style.cssText =
        'position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;display:block';
      conteudo.append(intruso);
    });
    expect(await noTopo(centro.x, centro.y)).toBe('BUTTON');
    expect(await noTopo(8, 8)).not.toBe('Intruso');
    await page.evaluate(() =>
      (globalThis as unknown as { document: Documento }).document
        .querySelector('a[href="#intruso"]')
        ?.remove(),
    );
    await verificarAcessibilidade(page);

    // With the third party's origin allowed by the host, the same picture loads (once).
    await abrir(page, assinante, [terceiro]);
    await expect(artigo).toContainText('Promoção imperdível');
    await expect
      .poll(() => pedidos.filter((p) => p.startsWith('/pixel.gif')).length)
      .toBeGreaterThan(0);
  });

  test('a foto do autor fica após marcar e após a ação; a ação mostra o resultado e lê o item', async ({
    page,
  }) => {
    const autor = `autor-${Date.now()}`;
    await sino.seed(autor, 0);
    expect((await sino.api('PUT', `/v1/subscribers/${autor}`, { avatar: FOTO })).status).toBe(200);
    const idDoAutor = (
      (await (await sino.api('GET', `/v1/subscribers/${autor}`)).json()) as {
        data: { _id: string };
      }
    ).data._id;
    const assinante = `acao-${Date.now()}`;
    await sino.seed(assinante, 1, {
      content: 'Bruno pediu para trocar o carro da sua reserva por um Sedan.',
      actor: { type: 'user', data: null },
      actorSubscriberId: idDoAutor,
      cta: {
        type: 'redirect',
        data: {},
        action: {
          status: 'pending',
          buttons: [
            { type: 'primary', content: 'Approve', resultContent: 'Approved' },
            { type: 'secondary', content: 'Decline' },
          ],
        },
      },
    });
    await abrir(page, assinante);
    const artigo = page.getByRole('feed').getByRole('article');
    const foto = artigo.locator('img.sino-avatar');
    await expect(foto).toHaveAttribute('src', FOTO);
    await expect(artigo).toHaveClass(/sino-item--unread/);

    // The silhouette must never show, not even for a moment before a refetch brings the
    // picture back: watched as the item changes.
    await artigo.evaluate((el) => {
      const g = globalThis as unknown as {
        MutationObserver: new (f: () => void) => { observe(alvo: unknown, o: object): void };
        __silhueta?: boolean;
      };
      const item = el as unknown as { querySelector(s: string): unknown };
      new g.MutationObserver(() => {
        if (item.querySelector('.sino-avatar--generic')) g.__silhueta = true;
      }).observe(el, { childList: true, subtree: true, attributes: true });
    });
    const silhueta = () =>
      page.evaluate(() => (globalThis as unknown as { __silhueta?: boolean }).__silhueta ?? false);

    // Read from its menu: the picture stays (not the silhouette).
    await artigo.getByRole('button', { name: 'Notification actions' }).click();
    await artigo.getByRole('menuitem', { name: 'Mark as read' }).click();
    await expect(artigo).toHaveClass(/sino-item--read/);
    await expect(foto).toHaveAttribute('src', FOTO);
    expect(await silhueta(), 'a silhueta apareceu ao marcar como lida').toBe(false);
    await artigo.getByRole('button', { name: 'Notification actions' }).click();
    await artigo.getByRole('menuitem', { name: 'Mark as unread' }).click();
    await expect(artigo).toHaveClass(/sino-item--unread/);

    // The action, with the keyboard: its result replaces the buttons and takes the focus.
    await artigo.getByRole('button', { name: 'Approve' }).press('Enter');
    const resultado = artigo.locator('.sino-actions__result');
    await expect(resultado).toHaveText('Done: Approved');
    await expect(resultado).toBeFocused();
    await expect(artigo.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(artigo).toHaveClass(/sino-item--read/);
    await expect(foto).toHaveAttribute('src', FOTO);
    await expect(artigo.locator('.sino-avatar--generic')).toHaveCount(0);
    expect(await silhueta(), 'a silhueta apareceu em algum momento').toBe(false);
    const lida = async () => {
      const r = await sino.api('GET', `/v1/subscribers/${assinante}/notifications/feed`);
      return ((await r.json()) as { data: { read: boolean }[] }).data[0]?.read;
    };
    await expect.poll(lida).toBe(true);
    await verificarAcessibilidade(page);
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.screenshot({
      path: 'test-results/screenshots/sino-acao-resultado.png',
      animations: 'disabled',
    });
  });

  // Last in the file: the organisation's branding stays for this Sino.
  test('a marca da organização (cor legível e fonte) veste a caixa, a 390 e a 1280 px', async ({
    page,
  }) => {
    const r = await sino.api('PUT', '/v1/organizations/branding', {
      color: '#0b4f2a',
      fontFamily: 'Georgia',
      logo: 'https://cdn.example.com/logo.png',
    });
    expect(r.status).toBe(200);
    const assinante = `marca-${Date.now()}`;
    await sino.seed(assinante, 2, { content: 'Sua reserva foi confirmada.' });
    for (const largura of [390, 1280]) {
      await page.setViewportSize({ width: largura, height: 844 });
      await abrir(page, assinante);
      await expect(page.getByRole('feed').getByRole('article').first()).toBeVisible();
      const raiz = page.locator('.sino').first();
      await expect
        .poll(() =>
          raiz.evaluate((el) =>
            (
              globalThis as unknown as {
                getComputedStyle(e: unknown): { getPropertyValue(n: string): string };
              }
            )
              .getComputedStyle(el)
              .getPropertyValue('--sino-color-primary')
              .trim(),
          ),
        )
        .toBe('#0b4f2a');
      const fonte = await raiz.evaluate(
        (el) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } }
          ).getComputedStyle(el).fontFamily,
      );
      expect(fonte).toMatch(/^Georgia/);
      await verificarAcessibilidade(page);
      mkdirSync('test-results/screenshots', { recursive: true });
      await page.screenshot({
        path: `test-results/screenshots/sino-marca-${largura}.png`,
        animations: 'disabled',
      });
    }
  });
});
