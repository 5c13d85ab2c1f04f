import type { APIRequestContext, Page } from '@playwright/test';
import {
  entrarComo,
  expect,
  fotografar,
  gerarCpf,
  novoCliente,
  test,
  verificarAcessibilidade,
} from './apoio.js';

const FUSO = 'America/Sao_Paulo';
const diaLocal = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: FUSO }).format(d);

const grafico = (page: Page, titulo: string) => page.getByRole('region', { name: titulo });
const cifra = (page: Page, rotulo: string) =>
  page
    .locator('.cifra')
    .filter({ has: page.getByText(rotulo, { exact: true }) })
    .locator('.cifra__valor');
const numero = (texto: string | null) => Number((texto ?? '').replace(/\D/g, ''));

/**
 * Books through the API, as a new customer in a request context of its own, with pickup later
 * this month (the dashboard counts reservations by pickup month, up to the current one). Tries
 * each category in turn, since other tests book at the same time on the same server.
 */
async function reservarEsteMes(request: APIRequestContext) {
  const email = `painel.${Date.now()}.${Math.floor(Math.random() * 1e6)}@teste.dev`;
  const senha = 'Teste@2026';
  const cadastro = await request.post('/api/Cadastro', {
    data: {
      nome: 'Cliente do Painel',
      dataNascimento: '1990-01-15',
      cpf: gerarCpf(),
      telefone: '31966665555',
      categoriaHabilitacao: 'B',
      rua: 'Av. do Contorno',
      numero: '100',
      bairro: 'Funcionários',
      cidade: 'Belo Horizonte',
      municipio: 'Belo Horizonte',
      email,
      senha,
      confirmacaoSenha: senha,
    },
  });
  expect(cadastro.status(), await cadastro.text()).toBe(201);
  const login = await request.post('/api/Cadastro/authenticate', { data: { email, senha } });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const headers = { authorization: `Bearer ${jwtToken}` };

  const agora = new Date();
  const amanha = new Date(agora.getTime() + 86_400_000);
  const mesmoMes = diaLocal(amanha).slice(0, 7) === diaLocal(agora).slice(0, 7);
  // On the last day of a month, later today is the only pickup still in it.
  const retirada = mesmoMes
    ? { data: diaLocal(amanha), hora: '10:00' }
    : { data: diaLocal(agora), hora: '23:59' };
  const entrega = diaLocal(new Date(agora.getTime() + 3 * 86_400_000));

  const modelos = (await (await request.get('/api/Modelos', { headers })).json()) as {
    nome: string;
    id_categoria: number;
  }[];
  for (const modelo of modelos) {
    const r = await request.post('/api/Locacao', {
      headers,
      data: {
        id_local: 1,
        id_categoria: modelo.id_categoria,
        modelo_veiculo: modelo.nome,
        data_retirada: retirada.data,
        hora_retirada: retirada.hora,
        data_entrega: entrega,
        hora_entrega: '10:00',
      },
    });
    if (r.status() === 409) continue;
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { vl_total: number };
  }
  throw new Error('nenhuma categoria com veículo livre');
}

test('dashboard: staff see every chart drawn, its figures and its table', async ({ page }) => {
  await entrarComo(page, 'funcionario');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  for (const rotulo of [
    'Reservas no período',
    'Receita no período',
    'Frota com cliente agora',
    'Multas em aberto',
    'Valor das multas em aberto',
  ])
    await expect(cifra(page, rotulo)).toBeVisible();
  await expect(cifra(page, 'Receita no período')).toHaveText(/^R\$\s[\d.]+,\d{2}$/);
  await expect(cifra(page, 'Frota com cliente agora')).toHaveText(/^[\d,]+%$/);

  // Each chart is drawn as SVG with its marks, named for screen readers.
  const marcas: [string, string][] = [
    ['Reservas por mês', '.recharts-bar-rectangle'],
    ['Receita por mês', '.recharts-line-curve'],
    ['Utilização da frota por categoria', '.recharts-bar-rectangle'],
    ['Reservas por situação', '.recharts-pie-sector'],
  ];
  for (const [titulo, marca] of marcas) {
    const secao = grafico(page, titulo);
    await expect(secao.getByRole('heading', { name: titulo })).toBeVisible();
    // One label for the drawing; the numbers are in the table.
    await expect(secao.locator('.grafico__desenho')).toHaveAttribute('role', 'img');
    await expect(secao.locator('.grafico__desenho')).toHaveAttribute('aria-label', /^Gráfico/);
    const desenho = secao.locator('svg.recharts-surface').filter({ has: page.locator(marca) });
    await expect(desenho).toBeVisible();
    expect(await desenho.locator(marca).count()).toBeGreaterThan(0);
  }
  // The seeded fleet: four categories on the utilisation chart.
  await expect(
    grafico(page, 'Utilização da frota por categoria').locator(
      '.recharts-cartesian-axis-tick-value',
    ),
  ).toContainText(['Hatches', 'Premium', 'Sedans', "SUV's"]);

  // The text alternative: the same numbers in a table, one row per month.
  const reservas = grafico(page, 'Reservas por mês');
  await reservas.getByText('Ver os números em tabela').click();
  await expect(reservas.getByRole('table')).toBeVisible();
  await expect(reservas.getByRole('table').locator('tbody tr')).toHaveCount(12);
  await verificarAcessibilidade(page);
  await fotografar(page, 'dashboard');
});

test('dashboard: the figures grow after a booking made through the API', async ({
  page,
  request,
}) => {
  await entrarComo(page, 'funcionario');
  await page.goto('/dashboard');
  const total = cifra(page, 'Reservas no período');
  await expect(total).toHaveText(/^\d[\d.]*$/);
  const antes = numero(await total.textContent());
  const mesAtual = grafico(page, 'Reservas por mês')
    .locator('tbody tr')
    .last()
    .locator('td')
    .first();
  const antesNoMes = numero(await mesAtual.textContent());

  const reserva = await reservarEsteMes(request);
  expect(reserva.vl_total).toBeGreaterThan(0);
  await page.reload();
  // Other tests book on this server too: at least this booking was added.
  await expect
    .poll(async () => numero(await total.textContent()))
    .toBeGreaterThanOrEqual(antes + 1);
  await expect
    .poll(async () => numero(await mesAtual.textContent()))
    .toBeGreaterThanOrEqual(antesNoMes + 1);
});

test('dashboard: the period selector changes the months shown', async ({ page }) => {
  await entrarComo(page, 'admin');
  await page.goto('/dashboard');
  const linhas = grafico(page, 'Receita por mês').locator('tbody tr');
  await expect(linhas).toHaveCount(12);
  await expect(page.getByRole('radio', { name: 'Últimos 12 meses' })).toBeChecked();

  // The choice goes through the address, so it shows once the URL has changed.
  await page.getByRole('radio', { name: 'Últimos 6 meses' }).click();
  await expect(page.getByRole('radio', { name: 'Últimos 6 meses' })).toBeChecked();
  await expect(page).toHaveURL(/\/dashboard\?meses=6$/);
  await expect(linhas).toHaveCount(6);
  await expect(
    grafico(page, 'Reservas por mês').locator('.recharts-xAxis .recharts-cartesian-axis-tick'),
  ).toHaveCount(6);
  // Keyboard: the arrow moves to the next period.
  await page.getByRole('radio', { name: 'Últimos 6 meses' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Últimos 24 meses' })).toBeChecked();
  await expect(page).toHaveURL(/\/dashboard\?meses=24$/);
  await expect(linhas).toHaveCount(24);
  await fotografar(page, 'dashboard-24-meses');

  // The period survives a reload.
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Últimos 24 meses' })).toBeChecked();
  await expect(linhas).toHaveCount(24);
});

test('dashboard: customers get "Acesso restrito" and the API refuses them', async ({ page }) => {
  const cliente = await novoCliente(page, 'Cliente Curioso');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Acesso restrito' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  const r = await page.request.get('/api/Dashboard', {
    headers: { authorization: `Bearer ${cliente.token}` },
  });
  expect(r.status()).toBe(403);
  await verificarAcessibilidade(page);
  await fotografar(page, 'dashboard-acesso-restrito');
});

test('dashboard: error, empty and BI-report states', async ({ page }) => {
  const token = await entrarComo(page, 'funcionario');
  await page.route(/\/api\/Dashboard(\?|$)/, (rota) => rota.abort('connectionrefused'));
  await page.goto('/dashboard');
  await expect(page.getByRole('alert')).toContainText('Não foi possível falar com o servidor.');
  await verificarAcessibilidade(page);
  await fotografar(page, 'dashboard-erro');

  // A period with no reservations, and a deployment with a BI report configured.
  const real = await page.request.get('/api/Dashboard', {
    headers: { authorization: `Bearer ${token}` },
  });
  const painel = (await real.json()) as {
    reservasPorMes: { mes: string }[];
    receitaPorMes: { mes: string }[];
    reservasPorStatus: { status: string }[];
    totais: Record<string, number>;
  };
  const vazio = {
    ...painel,
    reservasPorMes: painel.reservasPorMes.map((m) => ({
      mes: m.mes,
      quantidade: 0,
      canceladas: 0,
    })),
    receitaPorMes: painel.receitaPorMes.map((m) => ({ mes: m.mes, valor: 0 })),
    reservasPorStatus: painel.reservasPorStatus.map((s) => ({ status: s.status, quantidade: 0 })),
    totais: { ...painel.totais, reservas: 0, canceladas: 0, receita: 0 },
  };
  await page.unroute(/\/api\/Dashboard(\?|$)/);
  await page.route(/\/api\/Dashboard(\?|$)/, (rota) => rota.fulfill({ json: vazio }));
  await page.route('**/api/configuracao', async (rota) => {
    const resposta = await rota.fetch();
    const config = (await resposta.json()) as Record<string, unknown>;
    await rota.fulfill({
      json: { ...config, dashboard: { urlDoRelatorioBi: 'https://bi.exemplo.com.br/relatorio' } },
    });
  });
  await page.reload();
  await expect(page.getByText('Sem dados no período')).toHaveCount(3);
  await expect(cifra(page, 'Reservas no período')).toHaveText('0');
  await expect(
    grafico(page, 'Utilização da frota por categoria')
      .locator('svg.recharts-surface')
      .filter({ has: page.locator('.recharts-cartesian-axis') }),
  ).toBeVisible();
  const relatorio = page.locator('iframe[title="Relatório de BI da locadora"]');
  await expect(relatorio).toBeAttached();
  await expect(relatorio).toHaveAttribute('src', 'https://bi.exemplo.com.br/relatorio');
  await verificarAcessibilidade(page);
  await fotografar(page, 'dashboard-vazio-com-bi');
});
