import type { Page } from '@playwright/test';
import { entrarComo, expect, fotografar, test, verificarAcessibilidade } from './apoio.js';

// Each test works on a vehicle of its own, created inactive: its inspections and the orders
// they open never touch the seeded fleet that other tests book against.

interface Veiculo {
  id_veiculo: number;
  placa: string;
  marca: string;
  modelo: string;
  cor: string;
}
interface Vistoria {
  id_vistoria: number;
  id_manutencao: number | null;
  descricao: string;
}

const LETRAS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const letra = () => LETRAS[Math.floor(Math.random() * LETRAS.length)]!;
const digito = () => String(Math.floor(Math.random() * 10));
/** A random Mercosul plate (LLLNLNN), starting with Z to stay clear of the seeded ones. */
const placaAleatoria = () => `Z${letra()}${letra()}${digito()}${letra()}${digito()}${digito()}`;
const unico = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

async function novoVeiculo(page: Page, token: string): Promise<Veiculo> {
  const modelos = await page.request.get('/api/Modelos', { headers: comToken(token) });
  const [modelo] = (await modelos.json()) as { id_modelo: number }[];
  for (let tentativa = 0; ; tentativa++) {
    const r = await page.request.post('/api/Veiculos', {
      headers: comToken(token),
      data: {
        placa: placaAleatoria(),
        id_modelo: modelo!.id_modelo,
        cor: 'Azul',
        quilometragem: 12_000,
        ativo: false,
      },
    });
    if (r.status() === 409 && tentativa < 5) continue;
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as Veiculo;
  }
}

/** The vehicle as the select shows it. */
const rotulo = (v: Veiculo) => `${v.placa} · ${v.marca} ${v.modelo} (${v.cor}) · inativo`;

async function novaVistoria(
  page: Page,
  token: string,
  dados: Record<string, unknown>,
): Promise<Vistoria> {
  const r = await page.request.post('/api/Vistorias', { headers: comToken(token), data: dados });
  expect(r.status(), await r.text()).toBe(201);
  return (await r.json()) as Vistoria;
}

/** 'aaaa-mm-dd' and 'dd/mm/aaaa' of a day, days from today, in Belo Horizonte. */
function dia(deslocamento = 0) {
  const instante = new Date(Date.now() + deslocamento * 86_400_000);
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(instante);
  const [a, m, d] = iso.split('-');
  return { iso, br: `${d}/${m}/${a}` };
}

const linhaCom = (page: Page, texto: string) =>
  page.getByRole('row').filter({ has: page.getByText(texto, { exact: true }) });

test.describe('/vistoria (register)', () => {
  test('asks for the required fields, then registers and shows it in /vistoria2', async ({
    page,
  }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    await page.goto('/vistoria');
    await expect(page.getByRole('heading', { name: 'Cadastrar vistoria' })).toBeVisible();
    await expect(page.getByLabel('Data da vistoria')).toHaveValue(dia().iso);

    await page.getByRole('button', { name: 'Cadastrar Vistoria' }).click();
    await expect(page.getByText('Escolha o veículo.')).toBeVisible();
    await expect(page.getByText('Escolha o tipo da vistoria.')).toBeVisible();
    await expect(page.getByText('Informe a descrição da vistoria.')).toBeVisible();
    await expect(page.getByLabel('Veículo')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/vistoria$/);
    await verificarAcessibilidade(page);
    await fotografar(page, 'vistoria-erros');

    const descricao = `Saída sem avarias ${unico()}`;
    await page.getByLabel('Veículo').selectOption({ label: rotulo(veiculo) });
    await expect(page.getByText('Último registro do veículo: 12.000 km.')).toBeVisible();
    await page.getByLabel('Tipo').selectOption({ label: 'Saída do veículo' });
    await page.getByLabel('Quilometragem (opcional)').fill('12345');
    await page.getByLabel('Descrição').fill(descricao);
    await page.getByLabel('Observações (opcional)').fill('Tanque cheio.');
    await expect(page.getByText('Informe a descrição da vistoria.')).toBeHidden();
    await verificarAcessibilidade(page);
    await fotografar(page, 'vistoria-formulario');
    await page.getByRole('button', { name: 'Cadastrar Vistoria' }).click();

    await expect(
      page.getByRole('status').getByText('Vistoria Inserida com Sucesso.'),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/vistoria2\\?veiculo=${veiculo.id_veiculo}$`));
    await expect(page.getByLabel('Veículo')).toHaveValue(String(veiculo.id_veiculo));
    const linha = linhaCom(page, descricao);
    await expect(linha).toHaveCount(1);
    await expect(linha.getByRole('cell').nth(0)).toHaveText(dia().br);
    await expect(linha.getByRole('cell').nth(1)).toHaveText('Saída do veículo');
    await expect(linha).toContainText('12.345 km');
    await expect(linha).toContainText('Tanque cheio.');
    // Nothing asked for an order: none was opened.
    await expect(linha.getByRole('link', { name: /Ordem nº/ })).toHaveCount(0);
  });

  test("shows the server's refusals under the fields", async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    await page.goto(`/vistoria?veiculo=${veiculo.id_veiculo}`);
    // The vehicle comes preselected from the address.
    await expect(page.getByLabel('Veículo')).toHaveValue(String(veiculo.id_veiculo));
    await page.getByLabel('Data da vistoria').fill(dia(3).iso);
    await page.getByLabel('Tipo').selectOption({ label: 'Devolução do veículo' });
    await page.getByLabel('Descrição').fill('Devolução com risco na porta.');
    await page.getByRole('button', { name: 'Cadastrar Vistoria' }).click();
    await expect(page.getByText('A data da vistoria não pode ser no futuro.')).toBeVisible();
    await expect(page.getByLabel('Data da vistoria')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/Ops/)).toHaveCount(0);

    await page.getByLabel('Data da vistoria').fill(dia().iso);
    await page.getByLabel('Contrato (opcional)').fill('999999');
    await page.getByRole('button', { name: 'Cadastrar Vistoria' }).click();
    await expect(page.getByText('Locação não encontrada.')).toBeVisible();
    await expect(page).toHaveURL(/\/vistoria\?/);
  });

  test('with "Criar ordem de manutenção" opens an order shown in /manutencao', async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    const descricao = `Para-brisa trincado ${unico()}`;
    await page.goto('/vistoria');
    await page.getByLabel('Veículo').selectOption({ label: rotulo(veiculo) });
    await page.getByLabel('Tipo').selectOption({ label: 'Devolução do veículo' });
    await page.getByLabel('Descrição').fill(descricao);
    await page.getByLabel('Criar ordem de manutenção').check();
    await page.getByRole('button', { name: 'Cadastrar Vistoria' }).click();

    await expect(page).toHaveURL(/\/vistoria2\?veiculo=/);
    const aviso = page.getByText(/abriu a ordem de manutenção nº (\d+)/);
    await expect(aviso).toBeVisible();
    const ordem = /ordem de manutenção nº (\d+)/.exec((await aviso.textContent()) ?? '')?.[1];
    const linha = linhaCom(page, descricao);
    await expect(linha.getByRole('link', { name: `Ordem nº ${ordem}` })).toBeVisible();

    await page.getByRole('link', { name: 'Ver a ordem em Manutenções' }).click();
    await expect(page).toHaveURL(new RegExp(`/manutencao\\?veiculo=${veiculo.id_veiculo}&ordem=`));
    const naLista = page.getByRole('row').filter({ hasText: `Aberta pela vistoria` });
    await expect(naLista).toHaveCount(1);
    await expect(naLista.getByRole('cell').first()).toHaveText(ordem!);
    await expect(naLista).toContainText(veiculo.placa);
    await expect(naLista).toContainText('Reparo');
    await expect(naLista).toContainText('Fora da frota até o encerramento.');
    await expect(naLista).toContainText(descricao);
  });

  test('Voltar returns to the previous screen', async ({ page }) => {
    await entrarComo(page, 'funcionario');
    await page.goto('/vistoria2');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await menu.getByRole('button', { name: 'Operação' }).click();
    await menu.getByRole('link', { name: 'Cadastrar Vistorias' }).click();
    await expect(page).toHaveURL(/\/vistoria$/);
    await page.getByRole('button', { name: 'Voltar' }).click();
    await expect(page).toHaveURL(/\/vistoria2$/);
  });
});

test.describe('/vistoria2 (search, edit, delete)', () => {
  test('asks for a vehicle and shows the empty state', async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    await page.goto('/vistoria2');
    await page.getByRole('button', { name: 'Buscar Vistorias' }).click();
    await expect(page.getByText('Escolha o veículo.')).toBeVisible();
    await page.getByLabel('Veículo').selectOption({ label: rotulo(veiculo) });
    await page.getByRole('button', { name: 'Buscar Vistorias' }).click();
    await expect(page).toHaveURL(new RegExp(`\\?veiculo=${veiculo.id_veiculo}$`));
    await expect(page.getByText('Nenhuma vistoria para este veículo.')).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'vistoria2-vazia');

    // A vehicle the server does not know: its message, not a silent empty table.
    await page.goto('/vistoria2?veiculo=999999');
    await expect(page.getByRole('alert')).toContainText('Veículo não encontrado.');
  });

  test('edits a row inline: Cancelar restores, Salvar saves', async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    const original = `Vistoria de saída ${unico()}`;
    const alterada = `${original} (corrigida)`;
    await novaVistoria(page, token, {
      id_veiculo: veiculo.id_veiculo,
      tipo: 1,
      data_vistoria: dia(-2).iso,
      descricao: original,
      observacoes: 'Tanque cheio.',
    });
    await novaVistoria(page, token, {
      id_veiculo: veiculo.id_veiculo,
      tipo: 0,
      data_vistoria: dia(-1).iso,
      descricao: `Outra ${unico()}`,
    });
    await page.goto(`/vistoria2?veiculo=${veiculo.id_veiculo}`);
    await expect(page.getByText('2 vistorias, da mais nova à mais antiga.')).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'vistoria2-tabela');

    const linha = page.getByRole('row').filter({ hasText: original });
    await linha.getByRole('button', { name: /^Editar/ }).click();
    const descricao = page.getByRole('textbox', { name: /^Descrição da vistoria/ });
    await expect(page.getByLabel(/^Data da vistoria nº/)).toBeFocused();
    await expect(descricao).toHaveValue(original);
    await descricao.fill('texto que não deve ficar');
    await page.getByRole('button', { name: /^Cancelar/ }).click();
    await expect(page.getByText('texto que não deve ficar')).toHaveCount(0);
    await expect(linhaCom(page, original)).toHaveCount(1);
    await expect(linhaCom(page, original).getByRole('button', { name: /^Editar/ })).toBeFocused();

    // Esc leaves the row too, without saving.
    await linhaCom(page, original)
      .getByRole('button', { name: /^Editar/ })
      .click();
    await descricao.fill('também não fica');
    await descricao.press('Escape');
    await expect(descricao).toHaveCount(0);
    await expect(linhaCom(page, original)).toHaveCount(1);

    await linhaCom(page, original)
      .getByRole('button', { name: /^Editar/ })
      .click();
    await expect(descricao).toHaveValue(original);
    await descricao.fill('');
    await page.getByRole('button', { name: /^Salvar/ }).click();
    await expect(page.getByText('Informe a descrição da vistoria.')).toBeVisible();
    await expect(descricao).toHaveAttribute('aria-invalid', 'true');
    await verificarAcessibilidade(page);
    await fotografar(page, 'vistoria2-edicao');

    await descricao.fill(alterada);
    await page.getByRole('combobox', { name: /^Tipo da vistoria/ }).selectOption('0');
    await page.getByRole('textbox', { name: /^Observações da vistoria/ }).fill('Pneu careca.');
    await page.getByRole('button', { name: /^Salvar/ }).click();
    await expect(
      page.getByRole('status').getByText('Vistoria atualizada com sucesso.'),
    ).toBeVisible();
    const salva = linhaCom(page, alterada);
    await expect(salva.getByRole('cell').nth(0)).toHaveText(dia(-2).br);
    await expect(salva.getByRole('cell').nth(1)).toHaveText('Devolução do veículo');
    await expect(salva).toContainText('Pneu careca.');

    await page.reload();
    await expect(linhaCom(page, alterada)).toContainText('Pneu careca.');
    await expect(linhaCom(page, alterada).getByRole('cell').nth(0)).toHaveText(dia(-2).br);

    // Editing can also open the repair order the inspection did not open at first.
    await linhaCom(page, alterada)
      .getByRole('button', { name: /^Editar/ })
      .click();
    await page.getByRole('checkbox', { name: /^Abrir ordem de reparo/ }).check();
    await page.getByRole('button', { name: /^Salvar/ }).click();
    await expect(
      linhaCom(page, alterada).getByRole('link', { name: /^Ordem nº \d+$/ }),
    ).toBeVisible();
  });

  test('shows the server message when a row was deleted meanwhile', async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    const vistoria = await novaVistoria(page, token, {
      id_veiculo: veiculo.id_veiculo,
      tipo: 1,
      data_vistoria: dia().iso,
      descricao: `Apagada por outra pessoa ${unico()}`,
    });
    await page.goto(`/vistoria2?veiculo=${veiculo.id_veiculo}`);
    await page.getByRole('button', { name: /^Editar/ }).click();
    const r = await page.request.delete(`/api/Vistorias/${vistoria.id_vistoria}`, {
      headers: comToken(token),
    });
    expect(r.status()).toBe(204);
    await page.getByRole('button', { name: /^Salvar/ }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Erro ao atualizar a vistoria: Vistoria não encontrada.',
    );
    await expect(page.getByText('Nenhuma vistoria para este veículo.')).toBeVisible();
  });

  test('deletes a row after confirmation', async ({ page }) => {
    const token = await entrarComo(page, 'funcionario');
    const veiculo = await novoVeiculo(page, token);
    const fica = `Fica ${unico()}`;
    const sai = `Sai ${unico()}`;
    for (const [descricao, deslocamento] of [
      [fica, -3],
      [sai, -1],
    ] as const)
      await novaVistoria(page, token, {
        id_veiculo: veiculo.id_veiculo,
        tipo: 1,
        data_vistoria: dia(deslocamento).iso,
        descricao,
      });
    await page.goto(`/vistoria2?veiculo=${veiculo.id_veiculo}`);

    await linhaCom(page, sai)
      .getByRole('button', { name: /^Excluir/ })
      .click();
    const dialogo = page.getByRole('dialog', { name: 'Excluir esta vistoria?' });
    await expect(dialogo).toBeVisible();
    await expect(dialogo).toContainText(sai);
    await verificarAcessibilidade(page);
    await fotografar(page, 'vistoria2-exclusao');
    await dialogo.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialogo).toBeHidden();
    await expect(linhaCom(page, sai)).toHaveCount(1);

    await linhaCom(page, sai)
      .getByRole('button', { name: /^Excluir/ })
      .click();
    await dialogo.getByRole('button', { name: 'Excluir' }).click();
    await expect(
      page.getByRole('status').getByText('Vistoria excluída com sucesso.'),
    ).toBeVisible();
    await expect(linhaCom(page, sai)).toHaveCount(0);
    await expect(linhaCom(page, fica)).toHaveCount(1);
    await page.reload();
    await expect(linhaCom(page, fica)).toHaveCount(1);
    await expect(linhaCom(page, sai)).toHaveCount(0);
  });
});

test('customers are refused the inspection screens', async ({ page }) => {
  await entrarComo(page, 'cliente');
  for (const tela of ['/vistoria', '/vistoria2']) {
    await page.goto(tela);
    await expect(page.getByRole('heading', { name: 'Acesso restrito' })).toBeVisible();
    await expect(
      page.getByRole('button', { name: /Cadastrar Vistoria|Buscar Vistorias/ }),
    ).toHaveCount(0);
  }
});
