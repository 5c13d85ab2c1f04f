import type { Page } from '@playwright/test';
import {
  CONTAS,
  entrarComo,
  gerarCpf,
  expect,
  fotografar,
  test,
  verificarAcessibilidade,
} from './apoio.js';

test.describe('login (/)', () => {
  test('asks for both fields, refuses a wrong password, then logs in to /home2', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Locadora' })).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'login');

    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Atenção, por favor preencher todos os campos!',
    );

    await page.getByLabel('E-mail').fill(CONTAS.cliente.email);
    await page.getByLabel('Senha').fill('senha-errada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.');

    await page.getByLabel('Senha').fill(CONTAS.cliente.senha);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).toHaveURL(/\/home2$/);
    await expect(page.getByRole('heading', { name: /Olá, Cliente!/ })).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'home2-cliente');
  });

  test('keeps the session across a reload and ends it with Sair @cluster', async ({ page }) => {
    await entrarComo(page, 'cliente');
    await page.goto('/home2');
    await expect(page.getByRole('heading', { name: /Olá/ })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: /Olá/ })).toBeVisible();
    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/home2');
    await expect(page).toHaveURL(/\/$/);
  });

  test('an expired session returns to login with a message, then back to the page', async ({
    page,
  }) => {
    const token = await entrarComo(page, 'cliente');
    await page.goto('/home2');
    await expect(page.getByRole('heading', { name: /Olá/ })).toBeVisible();
    // The page's session ends on the server (as when it expires or is revoked); the next
    // request finds out, and the refresh cannot renew it.
    const r = await page.request.post('/api/Cadastro/logout', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status()).toBe(204);
    await page.getByRole('link', { name: 'Minha conta' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByText('Sua sessão expirou. Entre novamente para continuar.'),
    ).toBeVisible();
  });
});

test.describe('routes by role', () => {
  test('customers see no staff entry in the menu and are refused staff screens', async ({
    page,
  }) => {
    await entrarComo(page, 'cliente');
    await page.goto('/home2');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await expect(menu.getByRole('link', { name: 'Alugar' })).toBeVisible();
    for (const item of [
      'Dashboard',
      'Cadastrar Vistorias',
      'Consultar Vistorias',
      'Manutenções',
      'Estoques',
      'Categorias',
    ])
      await expect(menu.getByRole('link', { name: item })).toHaveCount(0);
    for (const rota of [
      '/dashboard',
      '/vistoria',
      '/vistoria2',
      '/manutencao',
      '/estoque',
      '/categoria',
    ]) {
      await page.goto(rota);
      await expect(page.getByRole('heading', { name: 'Acesso restrito' })).toBeVisible();
    }
    await verificarAcessibilidade(page);
  });

  test('staff see the staff entries', async ({ page }) => {
    await entrarComo(page, 'funcionario');
    await page.goto('/home2');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    // In the staff menu's groups (disclosure buttons).
    for (const [grupo, itens] of [
      ['Relatórios', ['Dashboard']],
      ['Operação', ['Cadastrar Vistorias', 'Consultar Vistorias']],
      ['Frota', ['Manutenções', 'Estoques', 'Categorias']],
    ] as const) {
      await menu.getByRole('button', { name: grupo }).click();
      for (const item of itens) await expect(menu.getByRole('link', { name: item })).toBeVisible();
    }
    await fotografar(page, 'home2-funcionario');
  });

  test('logged-out visitors are sent to login; unknown pages say so', async ({ page }) => {
    await page.goto('/locacao');
    await expect(page).toHaveURL(/\/$/);
    await entrarComo(page, 'cliente');
    await page.goto('/nao-existe');
    await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible();
  });

  test('the menu folds on a phone-width screen and opens with the keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await entrarComo(page, 'cliente');
    await page.goto('/home2');
    const alternar = page.getByRole('button', { name: 'Menu' });
    await expect(page.getByRole('link', { name: 'Minha conta' })).toBeHidden();
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await alternar.focus();
    await page.keyboard.press('Enter');
    await expect(alternar).toHaveAttribute('aria-expanded', 'true');
    await menu.getByRole('link', { name: 'Minha conta' }).click();
    await expect(page).toHaveURL(/\/conta$/);
    await expect(menu.getByRole('link', { name: 'Minha conta' })).toBeHidden();
  });
});

test.describe('sign-up (/cadastro)', () => {
  const preencher = async (page: Page, email: string, cpf: string) => {
    await page.getByLabel('Nome completo').fill('Maria das Dores');
    await page.getByLabel('Data de nascimento').fill('1990-05-20');
    await page.getByLabel('CPF').fill(cpf);
    await page.getByLabel('Celular').fill('31988887777');
    await page.getByLabel('Categoria da CNH').selectOption('B');
    await page.getByLabel('Rua').fill('Rua da Bahia');
    await page.getByLabel('Número').fill('1148');
    await page.getByLabel('Bairro').fill('Centro');
    await page.getByLabel('Cidade').fill('Belo Horizonte');
    await page.getByLabel('Município').fill('Belo Horizonte');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill('Segura@2026');
    await page.getByLabel('Repita a senha').fill('Segura@2026');
  };

  test('shows field messages: invalid CPF, passwords differ, e-mail already registered', async ({
    page,
  }) => {
    await page.goto('/cadastro');
    await preencher(page, CONTAS.cliente.email, '123.456.789-00');
    await page.getByLabel('Repita a senha').fill('Outra@2026');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page.getByText('CPF inválido: confira os dígitos.')).toBeVisible();
    await expect(page.getByText('As senhas não conferem.')).toBeVisible();
    await expect(page.getByLabel('CPF')).toHaveAttribute('aria-invalid', 'true');
    await verificarAcessibilidade(page);
    await fotografar(page, 'cadastro-erros');

    await page.getByLabel('CPF').fill('529.982.247-25');
    await page.getByLabel('Repita a senha').fill('Segura@2026');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page.getByText('E-mail já cadastrado.')).toBeVisible();
  });

  test('creates the account and logs in with it', async ({ page }) => {
    const email = `maria.${Date.now()}@exemplo.com.br`;
    await page.goto('/cadastro');
    await preencher(page, email, gerarCpf());
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByText(/Cadastro realizado! Entre com seu e-mail e senha\./),
    ).toBeVisible();
    await expect(page.getByLabel('E-mail')).toHaveValue(email);
    await page.getByLabel('Senha').fill('Segura@2026');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('heading', { name: 'Olá, Maria!' })).toBeVisible();
  });
});
