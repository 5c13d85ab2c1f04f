import { entrarComo, expect, fotografar, test, verificarAcessibilidade } from './apoio.js';

// Unique per run and per test, as tests share one server (and run in parallel).
const sufixo = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe('stock (/estoque)', () => {
  test('creates, edits and deletes a row, and the list follows each change', async ({ page }) => {
    // One flow through the whole screen, with axe and screenshots at each state: it needs the
    // configuration's whole time (60 s; 120 s on a cluster), which a setting here would cut.
    const token = await entrarComo(page, 'funcionario');
    await page.goto('/estoque');
    await expect(page.getByRole('heading', { name: 'Estoque', level: 1 })).toBeVisible();
    const lista = page.getByRole('region', { name: 'Veículos em estoque' });
    await expect(lista.getByRole('button', { name: /^Civic - Branco/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Excluir' })).toBeDisabled();
    await verificarAcessibilidade(page);
    await fotografar(page, 'estoque');

    // Nothing typed: a message under each field, nothing sent.
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Informe o modelo.')).toBeVisible();
    await expect(page.getByText('Informe a marca.')).toBeVisible();
    await expect(page.getByText('Informe a cor.')).toBeVisible();
    await expect(page.getByText('Informe a quantidade.')).toBeVisible();
    await expect(page.getByLabel('Modelo')).toBeFocused();
    await page.getByLabel('Quantidade').fill('2,5');
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Quantidade deve ser um número inteiro.')).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'estoque-erros');

    // Create.
    const modelo = `Fusca ${sufixo()}`;
    await page.getByLabel('Modelo').fill(modelo);
    await page.getByLabel('Marca').fill('Volkswagen');
    await page.getByLabel('Cor').fill('Azul');
    await page.getByLabel('Quantidade').fill('3');
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Veículo Cadastrado no estoque!')).toBeVisible();
    const criado = lista.getByRole('button', { name: `${modelo} - Azul 3 unidades` });
    await expect(criado).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('heading', { name: `Editar ${modelo} - Azul` })).toBeVisible();
    const codigo = await page.getByLabel('Código').inputValue();
    expect(codigo).toMatch(/^\d+$/);
    await expect(page.getByLabel('Código')).toHaveAttribute('readonly', '');

    // Edit the selected row: the same code, the list shows the new colour and quantity.
    await page.getByLabel('Cor').fill('Verde');
    await page.getByLabel('Quantidade').fill('7');
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Veículo Atualizado no estoque!')).toBeVisible();
    await expect(lista.getByRole('button', { name: `${modelo} - Verde 7 unidades` })).toBeVisible();
    await expect(lista.getByRole('button', { name: new RegExp(`^${modelo} - Azul`) })).toHaveCount(
      0,
    );
    await expect(page.getByLabel('Código')).toHaveValue(codigo);

    // Saved on the server: after a reload, picking the row brings its values back.
    await page.reload();
    await lista.getByRole('button', { name: new RegExp(`^${modelo} - Verde`) }).click();
    await expect(page.getByLabel('Código')).toHaveValue(codigo);
    await expect(page.getByLabel('Marca')).toHaveValue('Volkswagen');
    await expect(page.getByLabel('Quantidade')).toHaveValue('7');

    // Novo Registro clears the form and the selection; the same model and colour again is
    // refused with the server's message under the field.
    await page.getByRole('button', { name: 'Novo Registro' }).click();
    await expect(page.getByLabel('Modelo')).toBeFocused();
    await expect(page.getByLabel('Código')).toHaveValue('');
    await expect(page.getByLabel('Modelo')).toHaveValue('');
    await expect(page.getByRole('heading', { name: 'Novo registro' })).toBeVisible();
    await expect(lista.locator('[aria-pressed="true"]')).toHaveCount(0);
    await page.getByLabel('Modelo').fill(modelo.toUpperCase());
    await page.getByLabel('Marca').fill('Volkswagen');
    await page.getByLabel('Cor').fill('verde');
    await page.getByLabel('Quantidade').fill('1');
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(
      page.getByText(
        'Já existe um registro de estoque para este modelo, marca e cor: altere a quantidade dele.',
      ),
    ).toBeVisible();
    await expect(page.getByLabel('Modelo')).toHaveAttribute('aria-invalid', 'true');
    await fotografar(page, 'estoque-duplicado');

    // Delete, after a confirmation: the row leaves the list and the server.
    await lista.getByRole('button', { name: new RegExp(`^${modelo} - Verde`) }).click();
    await page.getByRole('button', { name: 'Excluir' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Excluir do estoque?' });
    await expect(dialogo).toContainText(`${modelo} - Verde`);
    await verificarAcessibilidade(page);
    await fotografar(page, 'estoque-exclusao');
    await dialogo.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Veículo excluído do estoque!')).toBeVisible();
    await expect(dialogo).toBeHidden();
    await expect(lista.getByRole('button', { name: new RegExp(`^${modelo}`) })).toHaveCount(0);
    await expect(page.getByLabel('Código')).toHaveValue('');
    await expect(page.getByLabel('Modelo')).toHaveValue('');
    const r = await page.request.get(`/api/Estoques/${codigo}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status()).toBe(404);
  });

  test('Cancelar keeps the row', async ({ page }) => {
    await entrarComo(page, 'admin');
    await page.goto('/estoque');
    const lista = page.getByRole('region', { name: 'Veículos em estoque' });
    await lista.getByRole('button', { name: /^Gol - Prata/ }).click();
    await page.getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(lista.getByRole('button', { name: /^Gol - Prata/ })).toBeVisible();
    await expect(page.getByLabel('Modelo')).toHaveValue('Gol');
  });
});

test.describe('categories (/categoria)', () => {
  test('creates, edits and deletes a category, and the list follows each change', async ({
    page,
  }) => {
    const token = await entrarComo(page, 'funcionario');
    await page.goto('/categoria');
    await expect(page.getByRole('heading', { name: 'Categorias', level: 1 })).toBeVisible();
    const lista = page.getByRole('region', { name: 'Categorias cadastradas' });
    await expect(lista.getByRole('button', { name: /^Hatches R\$\s50,00\/dia$/ })).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'categoria');

    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Informe o valor da diária em reais.')).toBeVisible();
    await expect(page.getByText('Informe a descrição da categoria.')).toBeVisible();
    await page.getByLabel('Valor da diária (R$)').fill('0');
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Valor da diária deve ser maior que zero.')).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'categoria-erros');

    // Create, with a comma decimal and the promotion ticked.
    const descricao = `Utilitários ${sufixo()}`;
    await page.getByLabel('Valor da diária (R$)').fill('89,90');
    await page.getByLabel('Descrição').fill(descricao);
    await page.getByLabel('Em promoção').check();
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Categoria Cadastrada!')).toBeVisible();
    const criada = lista.getByRole('button', {
      name: new RegExp(`^${descricao} R\\$\\s89,90/dia`),
    });
    await expect(criada).toHaveAttribute('aria-pressed', 'true');
    await expect(criada).toContainText('Promoção');
    const codigo = await page.getByLabel('Código').inputValue();
    expect(codigo).toMatch(/^\d+$/);
    await expect(page.getByLabel('Valor da diária (R$)')).toHaveValue('89,90');

    // Edit: thousands and a comma are understood; the promotion is unticked.
    await page.getByLabel('Valor da diária (R$)').fill('1.250,5');
    await page.getByLabel('Em promoção').uncheck();
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Categoria Atualizada!')).toBeVisible();
    const editada = lista.getByRole('button', {
      name: new RegExp(`^${descricao} R\\$\\s1\\.250,50/dia$`),
    });
    await expect(editada).toBeVisible();
    await expect(editada).not.toContainText('Promoção');

    await page.reload();
    await lista.getByRole('button', { name: new RegExp(`^${descricao}`) }).click();
    await expect(page.getByLabel('Código')).toHaveValue(codigo);
    await expect(page.getByLabel('Valor da diária (R$)')).toHaveValue('1250,50');
    await expect(page.getByLabel('Em promoção')).not.toBeChecked();

    // A description that exists (any case) is refused under its field.
    await page.getByRole('button', { name: 'Novo Registro' }).click();
    await expect(page.getByLabel('Código')).toHaveValue('');
    await expect(page.getByLabel('Descrição')).toHaveValue('');
    await page.getByLabel('Valor da diária (R$)').fill('10');
    await page.getByLabel('Descrição').fill(descricao.toUpperCase());
    await page.getByRole('button', { name: 'Gravar' }).click();
    await expect(page.getByText('Já existe uma categoria com esta descrição.')).toBeVisible();
    await expect(page.getByLabel('Descrição')).toHaveAttribute('aria-invalid', 'true');

    // Delete after a confirmation.
    await lista.getByRole('button', { name: new RegExp(`^${descricao}`) }).click();
    await page.getByRole('button', { name: 'Excluir' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Excluir categoria?' });
    await expect(dialogo).toContainText(descricao);
    await verificarAcessibilidade(page);
    await fotografar(page, 'categoria-exclusao');
    await dialogo.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Categoria excluída!')).toBeVisible();
    await expect(lista.getByRole('button', { name: new RegExp(`^${descricao}`) })).toHaveCount(0);
    await expect(page.getByLabel('Código')).toHaveValue('');
    const r = await page.request.get(`/api/Categorias/${codigo}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status()).toBe(404);
  });

  test('deleting a category in use shows the reason and keeps it', async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const auth = { authorization: `Bearer ${token}` };
    // A category of its own with a model in it, so no other test's data is at stake.
    const descricao = `Picapes ${sufixo()}`;
    const c = await page.request.post('/api/Categorias', {
      headers: auth,
      data: { desc_categoria: descricao, vl_categoria: 180 },
    });
    expect(c.status(), await c.text()).toBe(201);
    const { id_categoria } = (await c.json()) as { id_categoria: number };
    const m = await page.request.post('/api/Modelos', {
      headers: auth,
      data: { nome: `Strada ${sufixo()}`, marca: 'Fiat', id_categoria },
    });
    expect(m.status(), await m.text()).toBe(201);

    await page.goto('/categoria');
    const lista = page.getByRole('region', { name: 'Categorias cadastradas' });
    await lista.getByRole('button', { name: new RegExp(`^${descricao}`) }).click();
    await page.getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Categoria em uso: há modelos ou locações ligados a ela.',
    );
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(lista.getByRole('button', { name: new RegExp(`^${descricao}`) })).toBeVisible();
    await expect(page.getByLabel('Código')).toHaveValue(String(id_categoria));
    await verificarAcessibilidade(page);
    await fotografar(page, 'categoria-em-uso');
  });
});

test('a customer is refused the stock and category screens', async ({ page }) => {
  const token = await entrarComo(page, 'cliente');
  await page.goto('/home2');
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(menu.getByRole('link', { name: 'Infrações' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Estoques' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Categorias' })).toHaveCount(0);

  for (const caminho of ['/estoque', '/categoria']) {
    await page.goto(caminho);
    await expect(page.getByRole('heading', { name: 'Acesso restrito' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Gravar' })).toHaveCount(0);
  }
  await verificarAcessibilidade(page);
  await fotografar(page, 'categoria-cliente-recusado');

  // The server refuses too, whatever the screen does.
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.get('/api/Estoques', { headers: auth })).status()).toBe(403);
  const post = await page.request.post('/api/Categorias', {
    headers: auth,
    data: { desc_categoria: `Cliente ${sufixo()}`, vl_categoria: 1 },
  });
  expect(post.status()).toBe(403);
});
