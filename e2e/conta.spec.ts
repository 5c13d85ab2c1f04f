import {
  entrarComo,
  expect,
  fotografar,
  novoCliente,
  test,
  verificarAcessibilidade,
} from './apoio.js';

test('account: edits the profile, downloads the data, refuses a wrong password, deletes', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Joana Prado');
  await page.goto('/conta');
  await expect(page.getByRole('heading', { name: 'Minha conta' })).toBeVisible();
  await expect(page.getByText(cliente.email)).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'conta');

  // Bad input: a message on the field, nothing saved.
  await page.getByLabel('Celular').fill('123');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByText('Telefone inválido: informe DDD e número.')).toBeVisible();
  await page.getByLabel('Celular').fill('31912345678');
  await page.getByLabel('Bairro').fill('Savassi');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await expect(page.getByText('Dados atualizados.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Bairro')).toHaveValue('Savassi');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar meus dados (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^meus-dados-locadora-\d{4}-\d{2}-\d{2}\.json$/);
  const conteudo = JSON.parse(
    await new Promise<string>((ok, falha) =>
      download.createReadStream().then((s) => {
        let texto = '';
        s.on('data', (c: Buffer) => (texto += c.toString()));
        s.on('end', () => ok(texto));
        s.on('error', falha);
      }, falha),
    ),
  ) as Record<string, unknown>;
  expect(JSON.stringify(conteudo)).toContain(cliente.email);
  expect(JSON.stringify(conteudo)).not.toMatch(/senha|argon2/i);

  await page.getByRole('button', { name: 'Excluir minha conta' }).click();
  const dialogo = page.getByRole('dialog', { name: 'Excluir sua conta?' });
  await expect(dialogo).toBeVisible();
  await verificarAcessibilidade(page);
  await dialogo.getByLabel('Sua senha').fill('senha-errada');
  await dialogo.getByRole('button', { name: 'Excluir definitivamente' }).click();
  await expect(dialogo.getByText(/senha/i).last()).toBeVisible();
  await expect(page).toHaveURL(/\/conta$/);

  await dialogo.getByLabel('Sua senha').fill(cliente.senha);
  await dialogo.getByRole('button', { name: 'Excluir definitivamente' }).click();
  await expect(page).toHaveURL(/\/$/);
  const login = await page.request.post('/api/Cadastro/authenticate', {
    data: { email: cliente.email, senha: cliente.senha },
  });
  expect(login.status()).toBe(401);
});

test('account: Esc closes the deletion dialog without deleting', async ({ page }) => {
  await entrarComo(page, 'cliente');
  await page.goto('/conta');
  await page.getByRole('button', { name: 'Excluir minha conta' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Minha conta' })).toBeVisible();
});
