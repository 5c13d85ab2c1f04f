import { rmSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test, verificarAcessibilidade } from './apoio.js';
import { clienteComAvisos, construirVitrine, fotografarComo, servirVitrine } from './sino-apoio.js';

// Sino's widget alone (the vitrine, e2e/vitrine), wherever a host puts the bell: at the left,
// the centre or the right of the top bar, in a left-to-right page (pt-BR) and a right-to-left
// one (Arabic), from a phone to a wide screen. The widget places its popover and its menus
// itself (no host stylesheet helps it); what is checked is what a person sees: each box wholly
// inside the viewport and not cut by the list it opens from (measured with
// getBoundingClientRect, and hit-tested at its corners).

const LARGURAS = [390, 1024, 1280, 1920] as const;
const LADOS = ['left', 'centre', 'right'] as const;
const ALTURA = 844;
const IDIOMAS = {
  ltr: { lang: 'pt-BR', dialogo: 'Caixa de notificações', acoes: 'Ações da notificação' },
  rtl: { lang: 'ar', dialogo: 'صندوق الإشعارات', acoes: 'إجراءات الإشعار' },
} as const;

interface Caixa {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
const caixaDe = (alvo: Locator): Promise<Caixa> =>
  alvo.evaluate((el) => {
    const { left, top, right, bottom, width, height } = el.getBoundingClientRect();
    return { left, top, right, bottom, width, height };
  });
/** The layout viewport, without a scrollbar. */
const telaDe = (page: Page) =>
  page
    .locator('html')
    .evaluate((html) => ({ largura: html.clientWidth, altura: html.clientHeight }));

/**
 * The viewport's edges `alvo` crosses (none: it lies wholly inside; half a pixel of rounding
 * allowed). Polled: the widget places its boxes as they appear.
 */
async function bordasCruzadas(page: Page, alvo: Locator): Promise<string[]> {
  const c = await caixaDe(alvo);
  const tela = await telaDe(page);
  const fora: string[] = [];
  if (c.width <= 0 || c.height <= 0) fora.push('vazia');
  if (c.left < -0.5) fora.push(`esquerda: ${c.left}`);
  if (c.top < -0.5) fora.push(`topo: ${c.top}`);
  if (c.right > tela.largura + 0.5) fora.push(`direita: ${c.right} > ${tela.largura}`);
  if (c.bottom > tela.altura + 0.5) fora.push(`base: ${c.bottom} > ${tela.altura}`);
  return fora;
}
const dentroDaTela = (page: Page, alvo: Locator, oQue: string) =>
  expect.poll(() => bordasCruzadas(page, alvo), { message: `${oQue} inteira na tela` }).toEqual([]);

/**
 * What is drawn near the four corners of `alvo` (8 px inside: past its rounded corners) is
 * `alvo` itself: nothing cuts or covers it. Each corner answers true, or what is there instead.
 */
const cantosVisiveis = (alvo: Locator) =>
  alvo.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const pontos = [
      [r.left + 8, r.top + 8],
      [r.right - 8, r.top + 8],
      [r.left + 8, r.bottom - 8],
      [r.right - 8, r.bottom - 8],
    ] as const;
    return pontos.map(([x, y]) => {
      const ali = el.ownerDocument.elementFromPoint(x, y);
      return el.contains(ali) || `${ali?.tagName}.${ali?.className}`;
    });
  });

test.describe('vitrine: o widget do Sino, com o sino em qualquer lugar', () => {
  // One worker, in order: the page is built once for the describe's tests.
  test.describe.configure({ mode: 'default' });
  let saida = '';
  test.beforeAll(async () => {
    saida = await construirVitrine();
  });
  test.afterAll(() => rmSync(saida, { recursive: true, force: true }));

  for (const direcao of ['ltr', 'rtl'] as const)
    test(`vitrine (${direcao}): com o sino à esquerda, no centro e à direita, de 390 a 1920 px, a caixa e o menu do item ficam inteiros na tela; no celular, a caixa ocupa a largura toda`, async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const idioma = IDIOMAS[direcao];
      const consulta = await clienteComAvisos(page, `Paula Posição ${direcao}`, 3, {
        lang: idioma.lang,
        dir: direcao,
      });
      await servirVitrine(page, saida);
      for (const largura of LARGURAS)
        for (const lado of LADOS) {
          const onde = `${direcao}, ${largura} px, sino: ${lado}`;
          await page.setViewportSize({ width: largura, height: ALTURA });
          await page.goto(`/vitrine/index.html?${consulta}&bell=${lado}`);
          const sino = page.locator('.sino-bell');
          // The bell is where the host put it.
          const noSino = await caixaDe(sino);
          const meio = (noSino.left + noSino.right) / 2;
          if (lado === 'left') expect(meio, onde).toBeLessThan(largura / 4);
          if (lado === 'centre') expect(Math.abs(meio - largura / 2), onde).toBeLessThan(30);
          if (lado === 'right') expect(meio, onde).toBeGreaterThan((largura * 3) / 4);

          await sino.click();
          const dialogo = page.getByRole('dialog', { name: idioma.dialogo });
          const artigos = dialogo.getByRole('feed').getByRole('article');
          await expect(artigos).toHaveCount(3);
          await dentroDaTela(page, dialogo, `a caixa (${onde})`);
          const caixa = await caixaDe(dialogo);
          // Under the bell, 8 px below it.
          expect(caixa.top - noSino.bottom, onde).toBeCloseTo(8, 0);
          if (largura === 390) {
            // A phone: edge to edge.
            const tela = await telaDe(page);
            expect(caixa.left, onde).toBeCloseTo(0, 0);
            expect(caixa.width, onde).toBeCloseTo(tela.largura, 0);
          } else {
            expect(caixa.width, onde).toBeCloseTo(420, 0);
          }
          expect(await cantosVisiveis(dialogo), `a caixa por cima da página (${onde})`).toEqual([
            true,
            true,
            true,
            true,
          ]);
          await expect(dialogo).toHaveAttribute('data-placement', /^bottom/);
          await fotografarComo(page, `sino-posicao-${direcao}-${largura}-${lado}`);

          // The last item's menu: under its button it would pass the list's end.
          const ultimo = artigos.last();
          await ultimo.hover();
          await ultimo.getByRole('button', { name: idioma.acoes }).click();
          const menu = ultimo.getByRole('menu');
          await expect(menu.getByRole('menuitem').first()).toBeFocused();
          await dentroDaTela(page, menu, `o menu do item (${onde})`);
          const noMenu = await caixaDe(menu);
          // Inside the list it scrolls in, nothing drawn over it.
          const lista = await caixaDe(dialogo.locator('.sino-list'));
          expect(noMenu.top, onde).toBeGreaterThanOrEqual(lista.top - 0.5);
          expect(noMenu.bottom, onde).toBeLessThanOrEqual(lista.bottom + 0.5);
          expect(await cantosVisiveis(menu), `o menu do item inteiro (${onde})`).toEqual([
            true,
            true,
            true,
            true,
          ]);
          if (largura === 1280) await fotografarComo(page, `sino-posicao-menu-${direcao}-${lado}`);
          await page.keyboard.press('Escape');
          await expect(menu).toBeHidden();
          await page.keyboard.press('Escape');
          await expect(dialogo).toBeHidden();
          await expect(sino).toBeFocused();
        }
    });

  test('vitrine: só com o teclado, com o sino à esquerda: Enter abre, o menu do item pelo teclado, Esc fecha e o foco volta; passa no axe', async ({
    page,
  }) => {
    const consulta = await clienteComAvisos(page, 'Quitéria Teclado', 3, { lang: 'pt-BR' });
    await servirVitrine(page, saida);
    await page.setViewportSize({ width: 1024, height: ALTURA });
    await page.goto(`/vitrine/index.html?${consulta}&bell=left`);
    const sino = page.getByRole('button', { name: /^Notificações, 2 não vistas$/ });
    await expect(sino).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(sino).toBeFocused();
    await page.keyboard.press('Enter');
    const dialogo = page.getByRole('dialog', { name: 'Caixa de notificações' });
    await expect(dialogo.locator(':focus')).toHaveCount(1);
    await expect(dialogo.getByRole('feed').getByRole('article')).toHaveCount(3);
    await dentroDaTela(page, dialogo, 'a caixa');
    await verificarAcessibilidade(page);

    // Tab through to the first item's menu button: shown once focused, Enter opens its menu.
    const primeiro = dialogo.getByRole('article').first();
    const botao = primeiro.getByRole('button', { name: 'Ações da notificação' });
    for (
      let i = 0;
      i < 10 && !(await botao.evaluate((b) => b === b.ownerDocument.activeElement));
      i++
    )
      await page.keyboard.press('Tab');
    await expect(botao).toBeFocused();
    await expect(botao).toHaveCSS('opacity', '1');
    await page.keyboard.press('Enter');
    const menu = primeiro.getByRole('menu', { name: 'Ações da notificação' });
    const entradas = menu.getByRole('menuitem');
    await expect(entradas.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(entradas.nth(1)).toBeFocused();
    await dentroDaTela(page, menu, 'o menu do item');
    await verificarAcessibilidade(page);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(botao).toBeFocused();

    // Escape closes the dialog and gives the focus back to the bell.
    await page.keyboard.press('Escape');
    await expect(dialogo).toBeHidden();
    await expect(sino).toBeFocused();
    await expect(sino).toHaveAttribute('aria-expanded', 'false');
  });

  test('vitrine: a primeira abertura já mostra a lista, sem carregador, e a caixa não muda de altura', async ({
    page,
  }) => {
    const consulta = await clienteComAvisos(page, 'Rosa Primeira', 3, { lang: 'pt-BR' });
    await servirVitrine(page, saida);
    await page.setViewportSize({ width: 1280, height: ALTURA });
    // The first page is asked for with the bell, before any opening.
    const primeiraPagina = page.waitForResponse((r) =>
      r.url().includes('/v1/widgets/notifications/feed'),
    );
    await page.goto(`/vitrine/index.html?${consulta}&bell=right`);
    const sino = page.getByRole('button', { name: /^Notificações, 2 não vistas$/ });
    await expect(sino).toBeVisible();
    await primeiraPagina;
    await page.waitForLoadState('networkidle');
    // Every state the dialog goes through, from the click on.
    await page.locator('body').evaluate((body) => {
      const g = globalThis as unknown as {
        __estados: { altura: number; carregando: boolean }[];
        MutationObserver: new (f: () => void) => { observe(alvo: unknown, o: object): void };
        requestAnimationFrame(f: () => void): number;
      };
      g.__estados = [];
      const anotar = () => {
        const dialogo = body.ownerDocument.querySelector('[role="dialog"]');
        if (dialogo)
          g.__estados.push({
            altura: Math.round(dialogo.getBoundingClientRect().height),
            carregando: dialogo.querySelector('.sino-loader') !== null,
          });
      };
      new g.MutationObserver(anotar).observe(body, {
        subtree: true,
        childList: true,
        attributes: true,
      });
      const medir = () => {
        anotar();
        if (g.__estados.length < 200) g.requestAnimationFrame(medir);
      };
      g.requestAnimationFrame(medir);
    });
    await sino.click();
    const dialogo = page.getByRole('dialog', { name: 'Caixa de notificações' });
    await expect(dialogo.getByRole('feed').getByRole('article')).toHaveCount(3);
    await page.waitForTimeout(300);
    const estados = await page.evaluate(
      () =>
        (globalThis as unknown as { __estados: { altura: number; carregando: boolean }[] })
          .__estados,
    );
    expect(estados.length).toBeGreaterThan(0);
    expect(estados.filter((e) => e.carregando)).toEqual([]);
    expect(new Set(estados.map((e) => e.altura)).size, JSON.stringify(estados)).toBe(1);
  });

  test('vitrine: "Marcar todas como lidas" fica numa linha só, de 390 a 1920 px, em pt-BR e em alemão', async ({
    page,
  }) => {
    const consulta = await clienteComAvisos(page, 'Sara Cabeçalho', 3, { lang: 'pt-BR' });
    await servirVitrine(page, saida);
    for (const [lang, rotulo] of [
      ['pt-BR', 'Marcar todas como lidas'],
      ['de', 'Alle als gelesen markieren'],
    ] as const)
      for (const largura of LARGURAS) {
        const onde = `${lang}, ${largura} px`;
        consulta.set('lang', lang);
        await page.setViewportSize({ width: largura, height: ALTURA });
        await page.goto(`/vitrine/index.html?${consulta}&bell=right`);
        await page.locator('.sino-bell').click();
        const dialogo = page.getByRole('dialog');
        await expect(dialogo.getByRole('feed').getByRole('article')).toHaveCount(3);
        const marcar = dialogo.getByRole('button', { name: rotulo });
        await expect(marcar).toBeVisible();
        // Its words on one line (or its icon, the words hidden then: said, not shown), and
        // nothing in the header wraps or overflows it.
        const linhas = await marcar.evaluate((botao) => {
          const doc = botao.ownerDocument;
          const topos = new Set<number>();
          const textos = doc.createTreeWalker(botao, 4 /* NodeFilter.SHOW_TEXT */);
          for (let texto = textos.nextNode(); texto; texto = textos.nextNode()) {
            if ((texto.parentElement?.getBoundingClientRect().width ?? 0) <= 1) continue;
            const trecho = doc.createRange();
            trecho.selectNodeContents(texto);
            for (const r of trecho.getClientRects()) topos.add(Math.round(r.top));
          }
          return topos.size;
        });
        expect(linhas, onde).toBeLessThanOrEqual(1);
        const cabecalho = dialogo.locator('.sino-header');
        const transborda = await cabecalho.evaluate((h) => h.scrollWidth > h.clientWidth);
        expect(transborda, onde).toBe(false);
        await expect(cabecalho).toHaveCSS('height', '55px');
        const titulo = await caixaDe(dialogo.getByRole('heading', { level: 2 }));
        const noBotao = await caixaDe(marcar);
        expect(
          Math.abs(titulo.top + titulo.height / 2 - (noBotao.top + noBotao.height / 2)),
          onde,
        ).toBeLessThan(4);
        if (largura === 390) await fotografarComo(page, `sino-cabecalho-${lang}-390`);
      }
  });
});

test.describe('vitrine: numa tela de toque', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: ALTURA } });
  let saida = '';
  test.beforeAll(async () => {
    saida = await construirVitrine();
  });
  test.afterAll(() => rmSync(saida, { recursive: true, force: true }));

  test('vitrine: sem passar o mouse, o botão "⋯" de cada item está à vista, e o toque abre o menu inteiro na tela', async ({
    page,
  }) => {
    const consulta = await clienteComAvisos(page, 'Tânia Toque', 3, { lang: 'pt-BR' });
    await servirVitrine(page, saida);
    await page.goto(`/vitrine/index.html?${consulta}&bell=right`);
    const semHover = await page.evaluate(
      () =>
        (globalThis as unknown as { matchMedia(q: string): { matches: boolean } }).matchMedia(
          '(hover: none)',
        ).matches,
    );
    expect(semHover, 'a tela de toque não tem hover').toBe(true);
    await page.getByRole('button', { name: /^Notificações, 2 não vistas$/ }).tap();
    const dialogo = page.getByRole('dialog', { name: 'Caixa de notificações' });
    const artigos = dialogo.getByRole('feed').getByRole('article');
    await expect(artigos).toHaveCount(3);
    const botoes = dialogo.getByRole('button', { name: 'Ações da notificação' });
    await expect(botoes).toHaveCount(3);
    for (const botao of await botoes.all()) await expect(botao).toHaveCSS('opacity', '1');
    await fotografarComo(page, 'sino-toque-390');
    await botoes.last().tap();
    const menu = artigos.last().getByRole('menu');
    await expect(menu).toBeVisible();
    await dentroDaTela(page, menu, 'o menu do item');
    expect(await cantosVisiveis(menu)).toEqual([true, true, true, true]);
  });
});
