import type { Page } from '@playwright/test';
import { entrarComo, expect, fotografar, test, verificarAcessibilidade } from './apoio.js';

// Each test works on a vehicle of its own, created inactive: its maintenance orders never take a
// seeded vehicle out of the fleet that other tests book against.

interface Veiculo {
  id_veiculo: number;
  placa: string;
  marca: string;
  modelo: string;
  cor: string;
}
interface Manutencao {
  id_manutencao: number;
  id_vistoria: number | null;
  valor_nf: number | null;
  hora_oficina: number | null;
  encerrada_em: string | null;
}

const LETRAS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const letra = () => LETRAS[Math.floor(Math.random() * LETRAS.length)]!;
const digito = () => String(Math.floor(Math.random() * 10));
/** A random Mercosul plate (LLLNLNN), starting with Y to stay clear of the seeded ones. */
const placaAleatoria = () => `Y${letra()}${letra()}${digito()}${letra()}${digito()}${digito()}`;
const unico = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

async function novoVeiculo(page: Page, token: string): Promise<Veiculo> {
  const modelos = await page.request.get('/api/Modelos', { headers: comToken(token) });
  const [modelo] = (await modelos.json()) as { id_modelo: number }[];
  for (let tentativa = 0; ; tentativa++) {
    const r = await page.request.post('/api/Veiculos', {
      headers: comToken(token),
      data: { placa: placaAleatoria(), id_modelo: modelo!.id_modelo, cor: 'Verde', ativo: false },
    });
    if (r.status() === 409 && tentativa < 5) continue;
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as Veiculo;
  }
}

const rotulo = (v: Veiculo) => `${v.placa} · ${v.marca} ${v.modelo} (${v.cor}) · inativo`;

/** 'aaaa-mm-dd' and 'dd/mm/aaaa' of a day, days from today, in Belo Horizonte. */
function dia(deslocamento = 0) {
  const instante = new Date(Date.now() + deslocamento * 86_400_000);
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(instante);
  const [a, m, d] = iso.split('-');
  return { iso, br: `${d}/${m}/${a}` };
}

async function ordensDoVeiculo(page: Page, token: string, veiculo: Veiculo) {
  const r = await page.request.get(`/api/Manutencao?id_veiculo=${veiculo.id_veiculo}`, {
    headers: comToken(token),
  });
  expect(r.status()).toBe(200);
  return (await r.json()) as Manutencao[];
}

test('registers maintenance linked to an inspection, lists it and closes it', async ({ page }) => {
  const token = await entrarComo(page, 'funcionario');
  const veiculo = await novoVeiculo(page, token);
  const r = await page.request.post('/api/Vistorias', {
    headers: comToken(token),
    data: {
      id_veiculo: veiculo.id_veiculo,
      tipo: 0,
      data_vistoria: dia(-1).iso,
      descricao: 'Devolução com amassado no para-lama.',
    },
  });
  expect(r.status()).toBe(201);
  const { id_vistoria } = (await r.json()) as { id_vistoria: number };
  const descricao = `Funilaria do para-lama ${unico()}`;

  await page.goto('/manutencao');
  await expect(page.getByRole('heading', { name: 'Manutenção', exact: true })).toBeVisible();
  await expect(
    page.getByText(/o veículo fica fora da frota disponível para reservas/),
  ).toBeVisible();
  const form = page.getByRole('form', { name: 'Nova ordem de manutenção' });
  await expect(form.getByLabel('Vistoria de origem (opcional)')).toBeDisabled();
  await form.getByLabel('Veículo').selectOption({ label: rotulo(veiculo) });
  const vistoria = form.getByLabel('Vistoria de origem (opcional)');
  await expect(vistoria).toBeEnabled();
  await expect(vistoria.locator('option', { hasText: `Nº ${id_vistoria} ·` })).toHaveText(
    `Nº ${id_vistoria} · ${dia(-1).br} · Devolução do veículo`,
  );
  await vistoria.selectOption(String(id_vistoria));
  await form.getByLabel('Tipo').selectOption({ label: 'Sinistro' });
  await expect(form.getByLabel('Início')).toHaveValue(dia().iso);
  await form.getByLabel('Previsão de término (opcional)').fill(dia(4).iso);
  await form.getByLabel('Horas de oficina (opcional)').fill('3,5');
  const valor = form.getByLabel('Valor da nota fiscal, em R$ (opcional)');
  await valor.fill('1234,5');
  await valor.blur();
  await expect(valor).toHaveValue('1.234,50');
  await valor.fill('1.234,56');
  await form.getByLabel('Descrição').fill(descricao);
  await verificarAcessibilidade(page);
  await fotografar(page, 'manutencao-formulario');
  await form.getByRole('button', { name: 'Cadastrar Manutenção' }).click();
  await expect(
    page.getByRole('status').getByText('Manutenção Inserida com Sucesso.'),
  ).toBeVisible();
  await expect(form.getByLabel('Descrição')).toHaveValue('');

  // Sent as numbers: '1.234,56' is 1234.56 reais, '3,5' is 3.5 hours.
  const [criada] = await ordensDoVeiculo(page, token, veiculo);
  expect(criada).toMatchObject({ valor_nf: 1234.56, hora_oficina: 3.5, id_vistoria });

  await page.getByLabel('Veículo da lista').selectOption({ label: rotulo(veiculo) });
  const linha = page.getByRole('row').filter({ hasText: descricao });
  await expect(linha).toHaveCount(1);
  await expect(linha.getByRole('cell').first()).toHaveText(String(criada!.id_manutencao));
  await expect(linha).toContainText('Sinistro');
  await expect(linha).toContainText(dia().br);
  await expect(linha).toContainText(`Fora da frota até ${dia(4).br} ou até o encerramento.`);
  await expect(linha).toContainText(/NF R\$\s1\.234,56/);
  await expect(linha).toContainText('3,5 h');
  await expect(linha).toContainText(`Vistoria nº ${id_vistoria}`);
  await verificarAcessibilidade(page);
  await fotografar(page, 'manutencao-lista');

  await linha.getByRole('button', { name: /^Encerrar/ }).click();
  const dialogo = page.getByRole('dialog', {
    name: `Encerrar a manutenção nº ${criada!.id_manutencao}?`,
  });
  await expect(dialogo).toContainText('o veículo volta à frota disponível');
  await verificarAcessibilidade(page);
  await dialogo.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialogo).toBeHidden();
  await expect(linha).toContainText('Aberta');

  await linha.getByRole('button', { name: /^Encerrar/ }).click();
  await dialogo.getByRole('button', { name: 'Encerrar' }).click();
  await expect(
    page
      .getByRole('status')
      .getByText(`Manutenção nº ${criada!.id_manutencao} encerrada: o veículo ${veiculo.placa}`, {
        exact: false,
      }),
  ).toBeVisible();
  await expect(linha).toContainText('Encerrada');
  await expect(linha.getByRole('button', { name: /^Encerrar/ })).toHaveCount(0);
  const [encerrada] = await ordensDoVeiculo(page, token, veiculo);
  expect(encerrada!.encerrada_em).not.toBeNull();

  // The situation filter: closed orders only, then open ones only.
  await page.getByLabel('Situação').selectOption('encerradas');
  await expect(page.getByRole('row').filter({ hasText: descricao })).toHaveCount(1);
  await page.getByLabel('Situação').selectOption('abertas');
  await expect(page.getByText('Nenhuma ordem de manutenção com estes filtros.')).toBeVisible();
});

test('shows field messages for missing or invalid fields', async ({ page }) => {
  const token = await entrarComo(page, 'funcionario');
  const veiculo = await novoVeiculo(page, token);
  await page.goto('/manutencao');
  const form = page.getByRole('form', { name: 'Nova ordem de manutenção' });
  await form.getByRole('button', { name: 'Cadastrar Manutenção' }).click();
  await expect(form.getByText('Escolha o veículo.')).toBeVisible();
  await expect(form.getByText('Escolha o tipo da manutenção.')).toBeVisible();
  await expect(form.getByText('Informe a descrição da manutenção.')).toBeVisible();
  await expect(form.getByLabel('Tipo')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Veículo').selectOption({ label: rotulo(veiculo) });
  await form.getByLabel('Tipo').selectOption({ label: 'Limpeza' });
  await form.getByLabel('Descrição').fill('Higienização interna.');
  await form.getByLabel('Valor da nota fiscal, em R$ (opcional)').fill('cem reais');
  await form.getByLabel('Horas de oficina (opcional)').fill('duas');
  await form.getByRole('button', { name: 'Cadastrar Manutenção' }).click();
  await expect(form.getByText('Informe o valor da nota fiscal em reais.')).toBeVisible();
  await expect(form.getByText('Horas de oficina inválidas.')).toBeVisible();

  await form.getByLabel('Valor da nota fiscal, em R$ (opcional)').fill('150,00');
  await form.getByLabel('Horas de oficina (opcional)').fill('1');
  await form.getByLabel('Início').fill(dia(-1).iso);
  await form.getByLabel('Previsão de término (opcional)').fill(dia(-3).iso);
  await form.getByRole('button', { name: 'Cadastrar Manutenção' }).click();
  await expect(form.getByText('A previsão de término deve ser depois do início.')).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'manutencao-erros');
  expect(await ordensDoVeiculo(page, token, veiculo)).toEqual([]);
});

test("shows the server's message when an order was closed meanwhile", async ({ page }) => {
  const token = await entrarComo(page, 'funcionario');
  const veiculo = await novoVeiculo(page, token);
  const descricao = `Troca de óleo ${unico()}`;
  const r = await page.request.post('/api/Manutencao', {
    headers: comToken(token),
    data: { id_veiculo: veiculo.id_veiculo, tipo: 2, data_inicio: dia(-1).iso, descricao },
  });
  expect(r.status()).toBe(201);
  const { id_manutencao } = (await r.json()) as Manutencao;

  // Arriving from an inspection's link: the list shows that vehicle and highlights the order.
  await page.goto(`/manutencao?veiculo=${veiculo.id_veiculo}&ordem=${id_manutencao}`);
  await expect(page.getByLabel('Veículo da lista')).toHaveValue(String(veiculo.id_veiculo));
  const linha = page.getByRole('row').filter({ hasText: descricao });
  await expect(linha).toContainText('Fora da frota até o encerramento.');

  const fechada = await page.request.post(`/api/Manutencao/${id_manutencao}/encerramento`, {
    headers: comToken(token),
    data: {},
  });
  expect(fechada.status()).toBe(200);
  await linha.getByRole('button', { name: /^Encerrar/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Encerrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `Erro ao encerrar a manutenção nº ${id_manutencao}: Manutenção já encerrada.`,
  );
  // The list is read again and shows the order closed.
  await expect(linha).toContainText('Encerrada');
});

test("an inspection's link opens the form with its vehicle and inspection chosen", async ({
  page,
}) => {
  const token = await entrarComo(page, 'funcionario');
  const veiculo = await novoVeiculo(page, token);
  const r = await page.request.post('/api/Vistorias', {
    headers: comToken(token),
    data: {
      id_veiculo: veiculo.id_veiculo,
      tipo: 0,
      data_vistoria: dia().iso,
      descricao: 'Devolução com luz de injeção acesa.',
    },
  });
  const { id_vistoria } = (await r.json()) as { id_vistoria: number };
  await page.goto(`/vistoria2?veiculo=${veiculo.id_veiculo}`);
  await page
    .getByRole('link', { name: `Abrir ordem de manutenção para a vistoria nº ${id_vistoria}` })
    .click();
  await expect(page).toHaveURL(/\/manutencao\?/);
  const form = page.getByRole('form', { name: 'Nova ordem de manutenção' });
  await expect(form.getByLabel('Veículo')).toHaveValue(String(veiculo.id_veiculo));
  const vistoria = form.getByLabel('Vistoria de origem (opcional)');
  await expect(vistoria).toHaveValue(String(id_vistoria));
  await expect(vistoria.locator('option:checked')).toHaveText(
    `Nº ${id_vistoria} · ${dia().br} · Devolução do veículo`,
  );
  await form.getByLabel('Tipo').selectOption({ label: 'Reparo' });
  await form.getByLabel('Descrição').fill('Diagnóstico da injeção eletrônica.');
  await form.getByRole('button', { name: 'Cadastrar Manutenção' }).click();
  await expect(
    page.getByRole('status').getByText('Manutenção Inserida com Sucesso.'),
  ).toBeVisible();
  const [ordem] = await ordensDoVeiculo(page, token, veiculo);
  expect(ordem!.id_vistoria).toBe(id_vistoria);

  // Back on the inspection, its order is linked.
  await page.goto(`/vistoria2?veiculo=${veiculo.id_veiculo}`);
  await expect(page.getByRole('link', { name: `Ordem nº ${ordem!.id_manutencao}` })).toBeVisible();
});

test('customers are refused the maintenance screen', async ({ page }) => {
  const token = await entrarComo(page, 'cliente');
  await page.goto('/manutencao');
  await expect(page.getByRole('heading', { name: 'Acesso restrito' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cadastrar Manutenção' })).toHaveCount(0);
  const r = await page.request.get('/api/Manutencao', { headers: comToken(token) });
  expect(r.status()).toBe(403);
});
