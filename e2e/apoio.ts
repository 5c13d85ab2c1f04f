import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

export { expect };

export type Papel = 'cliente' | 'funcionario' | 'admin';

/** The seeded demo accounts (README). */
export const CONTAS: Record<Papel, { email: string; senha: string; nome: string }> = {
  cliente: { email: 'cliente@locadora.dev', senha: 'Cliente@2026', nome: 'Cliente Demonstração' },
  funcionario: {
    email: 'funcionario@locadora.dev',
    senha: 'Funcionario@2026',
    nome: 'Funcionário Demonstração',
  },
  admin: { email: 'admin@locadora.dev', senha: 'Admin@2026', nome: 'Administrador Demonstração' },
};

export const TELAS = {
  desktop: { width: 1280, height: 800 },
  celular: { width: 390, height: 844 },
};

/**
 * Logs in through the API, which leaves the httpOnly refresh cookie in the browser context: the
 * app then restores the session on load, as after a reload. Answers the access token for
 * arranging data through the API.
 */
export async function entrarComo(page: Page, papel: Papel): Promise<string> {
  const { email, senha } = CONTAS[papel];
  const r = await page.request.post('/api/Cadastro/authenticate', { data: { email, senha } });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { jwtToken: string }).jwtToken;
}

/** Fails on any serious or critical axe-core violation of the page as it is now. */
export async function verificarAcessibilidade(page: Page) {
  const resultado = await new AxeBuilder({ page }).analyze();
  const graves = resultado.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    graves.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

/**
 * Screenshots of the page at desktop and phone width into test-results/screenshots (not
 * committed; looked at by people). The viewport is restored to desktop afterwards.
 */
export async function fotografar(page: Page, nome: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  for (const [tela, tamanho] of Object.entries(TELAS)) {
    await page.setViewportSize(tamanho);
    await page.screenshot({ path: `test-results/screenshots/${nome}-${tela}.png`, fullPage: true });
  }
  await page.setViewportSize(TELAS.desktop);
}

export const test = base;

/** A valid, random CPF (check digits computed), so each run signs up new people. */
export function gerarCpf(): string {
  const d = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  const digito = (n: number[]) => {
    const soma = n.reduce((s, x, i) => s + x * (n.length + 1 - i), 0);
    const r = (soma * 10) % 11;
    return r === 10 ? 0 : r;
  };
  d.push(digito(d));
  d.push(digito(d));
  return d.join('');
}

/** Signs up a new customer through the API and logs the page in as them. */
export async function novoCliente(page: Page, nome = 'Cliente de Teste') {
  const email = `cliente.${Date.now()}.${Math.floor(Math.random() * 1e6)}@teste.dev`;
  const senha = 'Teste@2026';
  const r = await page.request.post('/api/Cadastro', {
    data: {
      nome,
      dataNascimento: '1988-03-14',
      cpf: gerarCpf(),
      telefone: '31977776666',
      categoriaHabilitacao: 'B',
      rua: 'Av. Afonso Pena',
      numero: '1000',
      bairro: 'Centro',
      cidade: 'Belo Horizonte',
      municipio: 'Belo Horizonte',
      email,
      senha,
      confirmacaoSenha: senha,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  const login = await page.request.post('/api/Cadastro/authenticate', { data: { email, senha } });
  expect(login.status()).toBe(200);
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  return { email, senha, token: jwtToken };
}
