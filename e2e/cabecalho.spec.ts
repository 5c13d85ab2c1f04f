import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { paths, podeAbrir, type Papel, type Rota } from '@locadora/web/paths';
import { entrarComo, expect, novoCliente, test, verificarAcessibilidade } from './apoio.js';

// The header at the widths people use (issue 17, items 12 and 14): the bell and its count stay
// in the header at every width, the staff menu is one row from 1280 px thanks to its groups
// (disclosure buttons, WAI-ARIA's disclosure navigation), and no page scrolls sideways on a phone.
// Each test has accounts of its own (a fresh customer, a fresh staff member), so the bell's
// count is the test's own.

const TELAS = [
  { largura: 390, altura: 844 },
  { largura: 1024, altura: 768 },
  { largura: 1280, altura: 800 },
  { largura: 1920, altura: 1080 },
] as const;
const CELULAR = TELAS[0];

type Quem = 'cliente' | 'funcionario';
const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

/** A new customer, or a new staff member (a customer the admin promotes), logged in the page. */
async function novaConta(page: Page, quem: Quem, nome: string) {
  const conta = await novoCliente(page, nome);
  if (quem === 'cliente') return conta;
  const { id } = (await (
    await page.request.post('/api/Cadastro/authenticate', {
      data: { email: conta.email, senha: conta.senha },
    })
  ).json()) as { id: number };
  const admin = await entrarComo(page, 'admin');
  const promocao = await page.request.patch(`/api/Usuarios/${id}/papel`, {
    headers: comToken(admin),
    data: { papel: 'funcionario' },
  });
  expect(promocao.status(), await promocao.text()).toBe(200);
  // Logged in again: the page's session is the new staff member's, with the new role.
  const login = await page.request.post('/api/Cadastro/authenticate', {
    data: { email: conta.email, senha: conta.senha },
  });
  expect(login.status()).toBe(200);
  return { ...conta, token: ((await login.json()) as { jwtToken: string }).jwtToken };
}

/** One notification in the account's inbox: "Enviar Notificação" through the API. */
async function notificar(page: Page, token: string) {
  const r = await page.request.post('/api/me/notificacoes/teste', { headers: comToken(token) });
  expect(r.status(), await r.text()).toBe(204);
}

const cabecalho = (page: Page) => page.getByRole('banner');
const menuPrincipal = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });
/** The bell, wherever it is in the header, whatever its count. */
const sinoDe = (page: Page) =>
  cabecalho(page).getByRole('button', { name: /^Notificações(, \d+ não vistas?)?$/ });

interface Caixa {
  esquerda: number;
  topo: number;
  direita: number;
  base: number;
}
const caixaDe = (alvo: Locator): Promise<Caixa> =>
  alvo.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { esquerda: r.left, topo: r.top, direita: r.right, base: r.bottom };
  });

/** The element's box lies wholly inside the window (half a pixel of rounding allowed). */
async function esperarDentroDaTela(page: Page, alvo: Locator, nome: string) {
  const caixa = await caixaDe(alvo);
  const { width: largura, height: altura } = page.viewportSize()!;
  const janela = { largura, altura };
  const onde = `${nome} em ${JSON.stringify(caixa)}, janela ${janela.largura}x${janela.altura}`;
  expect(caixa.esquerda, onde).toBeGreaterThanOrEqual(-0.5);
  expect(caixa.topo, onde).toBeGreaterThanOrEqual(-0.5);
  expect(caixa.direita, onde).toBeLessThanOrEqual(janela.largura + 0.5);
  expect(caixa.base, onde).toBeLessThanOrEqual(janela.altura + 0.5);
}

function fotografarTela(page: Page, nome: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  return page.screenshot({ path: `test-results/screenshots/${nome}.png`, animations: 'disabled' });
}

const EM_PX = TELAS.map((t) => t.largura).join(', ');

for (const quem of ['cliente', 'funcionario'] as const) {
  test(`cabeçalho: o sino e a sua contagem ficam no cabeçalho a ${EM_PX} px (${quem})`, async ({
    page,
  }) => {
    const conta = await novaConta(page, quem, 'Sino Visível');
    await notificar(page, conta.token);
    for (const tela of TELAS) {
      await page.setViewportSize({ width: tela.largura, height: tela.altura });
      await page.goto('/home2');
      const sino = sinoDe(page);
      // In sight without opening anything, with its count, at the top of the page.
      await expect(sino).toBeVisible();
      if (quem === 'cliente') {
        await expect(sino).toHaveAccessibleName('Notificações, 1 não vista');
        await expect(sino.getByTestId('sino-bell-badge')).toHaveText('1');
      } else {
        // Staff also hear staff-wide events (a review, a fine) from the tests running beside
        // this one: at least this test's notification, and the badge says what the label says.
        await expect(sino).toHaveAccessibleName(/^Notificações, \d+ não vistas?$/);
        const selo = sino.getByTestId('sino-bell-badge');
        await expect
          .poll(async () => {
            const rotulo = (await sino.getAttribute('aria-label')) ?? '';
            return /\d+/.exec(rotulo)?.[0] === (await selo.textContent())?.trim();
          })
          .toBe(true);
      }
      await expect(sino.getByTestId('sino-bell-badge')).toBeVisible();
      await esperarDentroDaTela(page, sino, `o sino a ${tela.largura} px`);
      // Not inside the menu, which folds on a phone.
      await expect(menuPrincipal(page).getByRole('button', { name: /^Notificações/ })).toHaveCount(
        0,
      );
      await fotografarTela(page, `cabecalho-${quem}-${tela.largura}`);
    }
  });

  // The popover's own position is the widget's (@sino/react; issue 17, item 11): these
  // assertions are apart from the header's so that each side's failure names its owner.
  test(`popover dentro da tela: a caixa do sino e o menu do item a ${EM_PX} px (${quem})`, async ({
    page,
  }) => {
    const conta = await novaConta(page, quem, 'Caixa Na Tela');
    await notificar(page, conta.token);
    for (const tela of TELAS) {
      await page.setViewportSize({ width: tela.largura, height: tela.altura });
      await page.goto('/home2');
      const sino = sinoDe(page);
      await expect(sino).toBeVisible();
      await sino.click();
      const dialogo = page.getByRole('dialog', { name: 'Caixa de notificações' });
      // Its own test notification: a new staff account may also be told of other tests' reviews
      // at any moment (sooner or later depending on where the outbox runs).
      const artigo = dialogo
        .getByRole('feed', { name: 'Notificações' })
        .getByRole('article')
        .filter({ hasText: 'notificação de teste' });
      await expect(artigo).toHaveCount(1);
      await esperarDentroDaTela(page, dialogo, `a caixa de notificações a ${tela.largura} px`);
      await artigo.getByRole('button', { name: 'Ações da notificação' }).click();
      const menuDoItem = artigo.getByRole('menu');
      await expect(menuDoItem).toBeVisible();
      await fotografarTela(page, `cabecalho-${quem}-${tela.largura}-caixa`);
      await esperarDentroDaTela(page, menuDoItem, `o menu do item a ${tela.largura} px`);
    }
  });

  test(`cabeçalho: uma só linha a 1280, 1366 e 1920 px (${quem})`, async ({ page }) => {
    // A long name: cut short, it does not push the row onto a second line.
    await novaConta(page, quem, 'Maria Aparecida dos Santos Linha Única de Oliveira');
    for (const largura of [1280, 1366, 1920]) {
      await page.setViewportSize({ width: largura, height: 800 });
      await page.goto('/home2');
      await expect(sinoDe(page)).toBeVisible();
      // Everything one can click in the header (brand, entries, group buttons, the user's
      // "Sair", the bell) shares one row: their vertical centres agree within 4 px.
      const controles = cabecalho(page).locator('a:visible, button:visible');
      const centros = await controles.evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return {
            nome: el.textContent?.trim() || el.getAttribute('aria-label'),
            centro: (r.top + r.bottom) / 2,
          };
        }),
      );
      expect(centros.length).toBeGreaterThan(5);
      const primeiro = centros[0]!.centro;
      expect(
        centros.filter((c) => Math.abs(c.centro - primeiro) > 4),
        `fora da linha da marca a ${largura} px`,
      ).toEqual([]);
      const altura = (await cabecalho(page).boundingBox())!.height;
      expect(altura, `altura do cabeçalho a ${largura} px`).toBeLessThanOrEqual(72);
    }
  });
}

/** Every route of the table that the role may open, logged in as that role. */
const rotasDe = (papel: Papel) =>
  (Object.values(paths) as Rota[]).filter((r) => r.papeis && podeAbrir(r, papel));

/** Opens the page and waits for its data (no spinner left), then measures its width. */
async function larguraDaPagina(page: Page, caminho: string) {
  await page.goto(caminho, { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main .girador')).toHaveCount(0);
  return page.locator('html').evaluate((html) => {
    const documento = html.ownerDocument;
    const largura = documento.defaultView!.innerWidth;
    const rolagem = documento.scrollingElement!.scrollWidth;
    // What sticks out, to say where to look.
    const alem = [...documento.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > largura + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
    return { rolagem, largura, alem };
  });
}

test.describe('nenhuma página rola para o lado num celular (390 px)', () => {
  for (const quem of ['cliente', 'funcionario'] as const) {
    test(`todas as rotas do ${quem}`, async ({ page }) => {
      test.slow();
      await page.setViewportSize({ width: CELULAR.largura, height: CELULAR.altura });
      const conta = await novaConta(page, quem, 'Maria Estreita da Silva');
      await notificar(page, conta.token);
      const largas: string[] = [];
      for (const rota of rotasDe(quem)) {
        const { rolagem, largura, alem } = await larguraDaPagina(page, rota.caminho);
        if (rolagem > largura) largas.push(`${rota.caminho}: ${rolagem} px (${alem.join(', ')})`);
      }
      expect(largas).toEqual([]);
    });
  }

  test('as páginas públicas', async ({ page }) => {
    await page.setViewportSize({ width: CELULAR.largura, height: CELULAR.altura });
    const publicas = (Object.values(paths) as Rota[]).filter((r) => !r.papeis);
    expect(publicas.length).toBeGreaterThan(0);
    const largas: string[] = [];
    for (const rota of publicas) {
      const { rolagem, largura, alem } = await larguraDaPagina(page, rota.caminho);
      if (rolagem > largura) largas.push(`${rota.caminho}: ${rolagem} px (${alem.join(', ')})`);
    }
    expect(largas).toEqual([]);
  });
});

test.describe('menus dos grupos da equipe', () => {
  test('pelo teclado: Enter abre, setas andam, Esc fecha e devolve o foco, Tab segue em ordem', async ({
    page,
  }) => {
    test.slow();
    await page.setViewportSize({ width: 1280, height: 800 });
    await novaConta(page, 'funcionario', 'Teclado Atento');
    await page.goto('/home2');
    const menu = menuPrincipal(page);
    const operacao = menu.getByRole('button', { name: 'Operação' });
    const frota = menu.getByRole('button', { name: 'Frota' });
    await expect(operacao).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.getByRole('link', { name: 'Alugar' })).toBeHidden();
    await verificarAcessibilidade(page);

    // Tab order: brand, Home, then the group buttons; a closed group holds no tab stop.
    await cabecalho(page).getByRole('link', { name: 'Locadora' }).focus();
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused();
    await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Tab');
    await expect(operacao).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(frota).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(operacao).toBeFocused();

    // Enter opens: the group's links show, in order, the first next in the tab order.
    await page.keyboard.press('Enter');
    await expect(operacao).toHaveAttribute('aria-expanded', 'true');
    const grupo = menu.locator(`#${await operacao.getAttribute('aria-controls')}`);
    await expect(grupo.getByRole('link')).toHaveText([
      'Alugar',
      'Cadastrar Vistorias',
      'Consultar Vistorias',
      'Localizações',
    ]);
    await esperarDentroDaTela(page, grupo, 'o grupo Operação');
    await verificarAcessibilidade(page);
    await fotografarTela(page, 'cabecalho-funcionario-1280-grupo-aberto');
    await page.keyboard.press('Tab');
    await expect(grupo.getByRole('link', { name: 'Alugar' })).toBeFocused();
    // Arrows move inside the group.
    await page.keyboard.press('ArrowDown');
    await expect(grupo.getByRole('link', { name: 'Cadastrar Vistorias' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(grupo.getByRole('link', { name: 'Localizações' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(grupo.getByRole('link', { name: 'Consultar Vistorias' })).toBeFocused();

    // Escape closes it and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await expect(operacao).toHaveAttribute('aria-expanded', 'false');
    await expect(operacao).toBeFocused();
    await expect(grupo.getByRole('link', { name: 'Alugar' })).toBeHidden();

    // Arrow down on a button opens its group at the first link; right arrow goes to the next
    // entry, and Tab out of a group closes it.
    await page.keyboard.press('ArrowDown');
    await expect(operacao).toHaveAttribute('aria-expanded', 'true');
    await expect(grupo.getByRole('link', { name: 'Alugar' })).toBeFocused();
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowRight');
    await expect(frota).toBeFocused();
    await page.keyboard.press('Space');
    await expect(frota).toHaveAttribute('aria-expanded', 'true');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'Categorias' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('button', { name: 'Clientes' })).toBeFocused();
    await expect(frota).toHaveAttribute('aria-expanded', 'false');

    // One group open at a time; a click elsewhere closes it.
    await operacao.click();
    await frota.click();
    await expect(operacao).toHaveAttribute('aria-expanded', 'false');
    await expect(frota).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('heading', { level: 1 }).click();
    await expect(frota).toHaveAttribute('aria-expanded', 'false');

    // A link of a group opens its page, closes the group and is marked as the current page.
    await operacao.click();
    await grupo.getByRole('link', { name: 'Consultar Vistorias' }).click();
    await expect(
      page.getByRole('heading', { name: 'Consultar vistorias', level: 1 }),
    ).toBeVisible();
    await expect(operacao).toHaveAttribute('aria-expanded', 'false');
    await operacao.click();
    await expect(grupo.getByRole('link', { name: 'Consultar Vistorias' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(grupo.getByRole('link', { name: 'Cadastrar Vistorias' })).not.toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.keyboard.press('Escape');
    await verificarAcessibilidade(page);
  });

  test('num celular os grupos viram seções do menu', async ({ page }) => {
    await page.setViewportSize({ width: CELULAR.largura, height: CELULAR.altura });
    await novaConta(page, 'funcionario', 'Celular Na Mão');
    await page.goto('/home2');
    const menu = menuPrincipal(page);
    const alternar = cabecalho(page).getByRole('button', { name: 'Menu' });
    await expect(sinoDe(page)).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Alugar' })).toBeHidden();
    await verificarAcessibilidade(page);

    await alternar.click();
    await expect(alternar).toHaveAttribute('aria-expanded', 'true');
    // Every entry is in sight under its section's name; no group to open.
    for (const secao of ['Operação', 'Frota', 'Clientes', 'Relatórios']) {
      await expect(menu.getByText(secao, { exact: true }).filter({ visible: true })).toHaveCount(1);
      await expect(menu.getByRole('list', { name: secao })).toBeVisible();
      await expect(menu.getByRole('button', { name: secao })).toHaveCount(0);
    }
    const secao = menu.getByRole('list', { name: 'Frota' });
    await expect(secao.getByRole('link')).toHaveText(['Manutenções', 'Estoques', 'Categorias']);
    for (const rota of rotasDe('funcionario').filter((r) => r.menu))
      await expect(menu.getByRole('link', { name: rota.menu, exact: true })).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografarTela(page, 'cabecalho-funcionario-390-menu-aberto');

    // Escape folds it and gives the focus back to "Menu".
    await menu.getByRole('link', { name: 'Estoques' }).focus();
    await page.keyboard.press('Escape');
    await expect(alternar).toHaveAttribute('aria-expanded', 'false');
    await expect(alternar).toBeFocused();
    await expect(menu.getByRole('link', { name: 'Estoques' })).toBeHidden();

    // A link opens its page and folds the menu.
    await alternar.click();
    await menu.getByRole('link', { name: 'Estoques' }).click();
    await expect(page).toHaveURL(/\/estoque$/);
    await expect(alternar).toHaveAttribute('aria-expanded', 'false');
    await expect(sinoDe(page)).toBeVisible();
  });
});
