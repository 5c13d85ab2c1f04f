import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, fotografar, novoCliente, test, verificarAcessibilidade } from './apoio.js';

/**
 * Issue 19: the link of the confirmation e-mail, read where it lands (Sino's sandbox outbox,
 * with the development key the one-process server wrote to E2E_DADOS_DIR), opened in the
 * browser; and "reenviar" on Minha conta.
 */

/** Sino's development key, where the one-process server keeps it; none in a cluster. */
function chaveDoSino(): string | undefined {
  const arquivo = join(process.env.E2E_DADOS_DIR ?? '', 'sino-development.json');
  if (!process.env.E2E_DADOS_DIR || !existsSync(arquivo)) return undefined;
  return (JSON.parse(readFileSync(arquivo, 'utf8')) as { apiKey: string }).apiKey;
}

/** The confirmation link e-mailed to `email` (10 s at most). */
async function linkDoEmail(page: Page, chave: string, email: string): Promise<string> {
  const limite = Date.now() + 10_000;
  for (;;) {
    const r = await page.request.get('/v1/sandbox/outbox?channel=email&limit=100', {
      headers: { authorization: `ApiKey ${chave}` },
    });
    expect(r.status()).toBe(200);
    const { data } = (await r.json()) as { data: { to: string[]; content: string }[] };
    const link = data
      .find((e) => e.to.includes(email))
      ?.content.match(/href="([^"]*\/verificar-email\?token=[A-Za-z0-9_-]+)"/)?.[1];
    if (link) return link;
    expect(Date.now() < limite, `o e-mail de confirmação não chegou a ${email}`).toBe(true);
    await page.waitForTimeout(100);
  }
}

test('confirmação do e-mail: o link do e-mail confirma o endereço, uma vez', async ({ page }) => {
  const chave = chaveDoSino();
  test.skip(!chave, 'a chave do Sino só está à mão com o servidor de um processo');
  const cliente = await novoCliente(page, 'Marta Confirma');
  await page.goto('/conta');
  await expect(page.getByText('E-mail ainda não confirmado')).toBeVisible();

  const link = await linkDoEmail(page, chave!, cliente.email);
  expect(link.startsWith('http://127.0.0.1:')).toBe(true);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Confirmar e-mail' })).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'verificar-email');
  await page.getByRole('button', { name: 'Confirmar meu e-mail' }).click();
  await expect(page.getByText('Seu e-mail foi confirmado.')).toBeVisible();

  await page.goto('/conta');
  await expect(page.getByText('E-mail confirmado.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reenviar e-mail de confirmação' })).toHaveCount(0);

  // The same link again: used up, said in Portuguese.
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirmar meu e-mail' }).click();
  await expect(page.getByRole('alert')).toContainText('Este link de confirmação não vale mais');
});

test('confirmação do e-mail: sem token, ou com um token inválido, a página explica', async ({
  page,
}) => {
  await page.goto('/verificar-email');
  await expect(page.getByRole('alert')).toContainText('não traz um link de confirmação');
  await page.goto('/verificar-email?token=nao-existe-este-token-aqui');
  await page.getByRole('button', { name: 'Confirmar meu e-mail' }).click();
  await expect(page.getByRole('alert')).toContainText('Este link de confirmação não vale mais');
  await verificarAcessibilidade(page);
});

test('Minha conta: reenviar o e-mail de confirmação espera um minuto entre dois', async ({
  page,
}) => {
  await novoCliente(page, 'Renato Reenvia');
  await page.goto('/conta');
  await expect(page.getByText('E-mail ainda não confirmado')).toBeVisible();
  await verificarAcessibilidade(page);
  // The sign-up sent one a moment ago.
  await page.getByRole('button', { name: 'Reenviar e-mail de confirmação' }).click();
  await expect(page.getByRole('alert')).toContainText(/Aguarde \d+ s/);
});
