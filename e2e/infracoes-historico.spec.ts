import type { Page } from '@playwright/test';
import {
  entrarComo,
  expect,
  fotografar,
  novoCliente,
  test,
  verificarAcessibilidade,
} from './apoio.js';

// Contracts are arranged through the API as staff: a reservation for a fresh customer, its
// pickup (which assigns a vehicle) and, for the history, its return.

interface Locacao {
  id_locacao: number;
  codigo: string;
  placa: string | null;
  vl_total: number;
  retirada_em: string | null;
}

const FUSO = 'America/Sao_Paulo';
const reais = (v: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(v);
/** dd/mm/aaaa of an instant in Belo Horizonte. */
const dataBR = (instante: Date) =>
  new Intl.DateTimeFormat('pt-BR', { timeZone: FUSO, dateStyle: 'short' }).format(instante);

/** Belo Horizonte's wall clock: 'aaaa-mm-dd' and 'hh:mm'. */
function relogioDeBH(instante: Date): { data: string; hora: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: FUSO,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instante)
      .map((x) => [x.type, x.value]),
  );
  return { data: `${p.year}-${p.month}-${p.day}`, hora: `${p.hour}:${p.minute}` };
}

const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

async function idDe(page: Page, token: string): Promise<number> {
  const r = await page.request.get('/api/me', { headers: comToken(token) });
  expect(r.status()).toBe(200);
  return ((await r.json()) as { id: number }).id;
}

/** Staff book a Hatch for the customer, from the next minute for two days. */
async function reservar(page: Page, equipe: string, idCliente: number): Promise<Locacao> {
  const categorias = (await (
    await page.request.get('/api/Categorias', { headers: comToken(equipe) })
  ).json()) as { id_categoria: number; desc_categoria: string }[];
  const locais = (await (
    await page.request.get('/api/Locais', { headers: comToken(equipe) })
  ).json()) as { id_local: number }[];
  const inicio = relogioDeBH(new Date(Date.now() + 60_000));
  const fim = relogioDeBH(new Date(Date.now() + 60_000 + 2 * 86_400_000));
  const r = await page.request.post('/api/Locacao', {
    headers: comToken(equipe),
    data: {
      id_usuario: idCliente,
      id_local: locais[0]!.id_local,
      id_categoria: categorias.find((c) => c.desc_categoria === 'Hatches')!.id_categoria,
      modelo_veiculo: 'Gol',
      data_retirada: inicio.data,
      hora_retirada: inicio.hora,
      data_entrega: fim.data,
      hora_entrega: fim.hora,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  return (await r.json()) as Locacao;
}

async function retirar(page: Page, equipe: string, id: number): Promise<Locacao> {
  const r = await page.request.post(`/api/Locacao/${id}/retirada`, {
    headers: comToken(equipe),
    data: {},
  });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as Locacao;
}

async function devolver(page: Page, equipe: string, id: number, observacao: string) {
  const r = await page.request.post(`/api/Locacao/${id}/devolucao`, {
    headers: comToken(equipe),
    data: { observacao },
  });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as Locacao;
}

/** Logs the page in as someone already signed up (replaces the session cookie). */
async function entrarComConta(page: Page, email: string, senha: string) {
  const r = await page.request.post('/api/Cadastro/authenticate', { data: { email, senha } });
  expect(r.status()).toBe(200);
}

/** A contract of the demo customer: someone else's for a fresh customer. */
async function contratoDoClienteDemo(page: Page): Promise<number> {
  const token = await entrarComo(page, 'cliente');
  const r = await page.request.get('/api/Historico', { headers: comToken(token) });
  const lista = (await r.json()) as { Contrato: number }[];
  expect(lista.length).toBeGreaterThan(0);
  return lista[0]!.Contrato;
}

test.describe('fines (/infracoes)', () => {
  test('staff register a fine during a contract; its customer finds it by contract number', async ({
    page,
  }) => {
    // The form takes the time to the minute: the fine is registered in the minute after the
    // pickup, so it falls within the contract.
    test.setTimeout(120_000);
    const cliente = await novoCliente(page, 'Marta Infratora');
    const idCliente = await idDe(page, cliente.token);
    const equipe = await entrarComo(page, 'funcionario');
    const reserva = await reservar(page, equipe, idCliente);
    const retirada = await retirar(page, equipe, reserva.id_locacao);
    expect(retirada.placa).toBeTruthy();

    await page.goto('/infracoes');
    const registro = page.getByRole('region', { name: 'Registrar infração' });
    await expect(registro).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Infrações registradas recentemente' }),
    ).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'infracoes-equipe');

    // Nothing typed: each field says what is missing.
    await registro.getByRole('button', { name: 'Registrar infração' }).click();
    await expect(
      registro.getByText('Placa inválida: use o formato Mercosul (ABC1D23) ou antigo (ABC-1234).'),
    ).toBeVisible();
    await expect(registro.getByText('Informe a data e a hora da infração.')).toBeVisible();
    await expect(registro.getByText('Informe a descrição da infração.')).toBeVisible();
    await expect(registro.getByText('Informe o valor da multa em reais.')).toBeVisible();
    await expect(registro.getByText('Informe o local da infração.')).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'infracoes-registro-erros');

    // A plate outside the fleet: the server's message under the plate.
    const ontem = relogioDeBH(new Date(Date.now() - 86_400_000));
    await registro.getByLabel('Placa').fill('ZZZ9Z99');
    await registro.getByLabel('Data e hora').fill(`${ontem.data}T${ontem.hora}`);
    await registro.getByLabel('Descrição').fill('Avançar o sinal vermelho do semáforo');
    await registro.getByLabel('Valor da multa (R$)').fill('293,47');
    await registro.getByLabel('Local').fill('Av. do Contorno, 100 - Belo Horizonte');
    await registro.getByRole('button', { name: 'Registrar infração' }).click();
    await expect(registro.getByText('Nenhum veículo da frota com a placa ZZZ9Z99.')).toBeVisible();
    await expect(registro.getByLabel('Placa')).toHaveAttribute('aria-invalid', 'true');

    const retiradaEm = Date.parse(retirada.retirada_em!);
    const proximoMinuto = Math.floor(retiradaEm / 60_000) * 60_000 + 60_000 + 300;
    if (proximoMinuto > Date.now()) await page.waitForTimeout(proximoMinuto - Date.now());
    const momento = relogioDeBH(new Date());
    const descricao = `Estacionar em local proibido (${Date.now().toString(36)})`;
    await registro.getByLabel('Placa').fill(retirada.placa!.toLowerCase());
    await registro.getByLabel('Data e hora').fill(`${momento.data}T${momento.hora}`);
    await registro.getByLabel('Descrição').fill(descricao);
    await registro.getByLabel('Valor da multa (R$)').fill('195,23');
    await registro.getByLabel('Local').fill('Av. Amazonas, 500 - Belo Horizonte');
    await registro.getByRole('button', { name: 'Registrar infração' }).click();
    await expect(page.getByText('Infração registrada!')).toBeVisible();
    await expect(registro.getByRole('status')).toHaveText(
      new RegExp(
        `Infração registrada para a placa ${retirada.placa} no contrato nº ${reserva.id_locacao}\\.`,
      ),
    );
    await expect(registro.getByLabel('Placa')).toHaveValue('');
    await expect(
      page.getByRole('region', { name: 'Infrações registradas recentemente' }),
    ).toContainText(descricao);

    // The customer, by the code printed on the contract.
    await entrarComConta(page, cliente.email, cliente.senha);
    await page.goto('/infracoes');
    await expect(page.getByRole('heading', { name: 'Infrações', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Registrar infração' })).toHaveCount(0);
    await expect(page.getByLabel('Placa')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Suas infrações' })).toContainText(descricao);

    await page.getByLabel('Número do contrato').fill(reserva.codigo);
    await page.getByRole('button', { name: 'Buscar Infração' }).click();
    await expect(page).toHaveURL(new RegExp(`/infracoes\\?contrato=${reserva.id_locacao}$`));
    const resultado = page.getByRole('region', {
      name: `Infrações do contrato nº ${reserva.id_locacao}`,
    });
    await expect(resultado.getByRole('heading', { name: descricao })).toBeVisible();
    await expect(resultado).toContainText('1 infração encontrada, total de R$');
    const [ano, mes, dia] = momento.data.split('-');
    await expect(resultado).toContainText(`${dia}/${mes}/${ano} ${momento.hora}`);
    await expect(resultado).toContainText(reais(195.23));
    await expect(resultado).toContainText('Av. Amazonas, 500 - Belo Horizonte');
    await expect(resultado).toContainText(retirada.placa!);
    // The driver-indication deadline (30 days from registration by default).
    await expect(resultado).toContainText(
      `Indicar o condutor até${dataBR(new Date(Date.now() + 30 * 86_400_000))}`,
    );
    await verificarAcessibilidade(page);
    await fotografar(page, 'infracoes-resultado');
  });

  test('a contract without fines, someone else’s contract and an unknown one', async ({ page }) => {
    const alheio = await contratoDoClienteDemo(page);
    const equipe = await entrarComo(page, 'funcionario');
    const cliente = await novoCliente(page, 'Rui Cuidadoso');
    const reserva = await reservar(page, equipe, await idDe(page, cliente.token));

    await page.goto('/infracoes');
    await expect(page.getByRole('region', { name: 'Suas infrações' })).toContainText(
      'Nenhuma infração registrada nos seus contratos.',
    );
    await verificarAcessibilidade(page);
    await fotografar(page, 'infracoes-cliente');

    const campo = page.getByLabel('Número do contrato');
    const buscar = page.getByRole('button', { name: 'Buscar Infração' });
    await campo.fill('contrato 12');
    await buscar.click();
    await expect(
      page.getByText('Informe o número do contrato, por exemplo 123 ou LOC-000123.'),
    ).toBeVisible();
    await expect(campo).toHaveAttribute('aria-invalid', 'true');

    await campo.fill(String(reserva.id_locacao));
    await buscar.click();
    await expect(page.getByRole('status').filter({ hasText: 'Nenhuma infração' })).toHaveText(
      'Nenhuma infração para este contrato.',
    );
    await expect(campo).not.toHaveAttribute('aria-invalid', 'true');
    await verificarAcessibilidade(page);
    await fotografar(page, 'infracoes-vazio');

    await campo.fill(String(alheio));
    await buscar.click();
    await expect(page.getByRole('alert')).toHaveText(
      // Someone else's contract reads exactly as an unknown one: numbers cannot be probed.
      `Contrato nº ${alheio} não encontrado. Confira o número e tente de novo.`,
    );
    await verificarAcessibilidade(page);
    await fotografar(page, 'infracoes-alheio');

    await campo.fill('LOC-2147483647');
    await buscar.click();
    await expect(page.getByRole('alert')).toHaveText(
      'Contrato nº 2147483647 não encontrado. Confira o número e tente de novo.',
    );
    await fotografar(page, 'infracoes-nao-encontrado');
  });
});

test.describe('history (/historico)', () => {
  test('a closed contract shows its closing date, vehicle, amount and observation', async ({
    page,
  }) => {
    const cliente = await novoCliente(page, 'Lia Pontual');
    const idCliente = await idDe(page, cliente.token);
    const equipe = await entrarComo(page, 'funcionario');
    const fechada = await reservar(page, equipe, idCliente);
    const retirada = await retirar(page, equipe, fechada.id_locacao);
    await devolver(page, equipe, fechada.id_locacao, 'Devolvido com o tanque cheio.');
    const aberta = await reservar(page, equipe, idCliente);

    await entrarComConta(page, cliente.email, cliente.senha);
    await page.goto('/historico');
    await expect(page.getByRole('heading', { name: 'Histórico', level: 1 })).toBeVisible();
    const lista = page.getByRole('region', { name: 'Seus contratos' });
    await expect(lista.getByRole('row')).toHaveCount(3);
    await expect(
      lista
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: `nº ${fechada.id_locacao}`, exact: true }) }),
    ).toContainText('Encerrada');
    await verificarAcessibilidade(page);
    await fotografar(page, 'historico');

    await page.getByLabel('Número do contrato').fill(String(fechada.id_locacao));
    await page.getByRole('button', { name: 'Consultar Histórico' }).click();
    const resultado = page.getByRole('region', { name: `Contrato nº ${fechada.id_locacao}` });
    const dados = resultado.locator('dl');
    await expect(dados).toContainText(`Número do contrato${fechada.id_locacao}`);
    await expect(dados).toContainText('SituaçãoEncerrada (veículo devolvido)');
    await expect(dados).toContainText(`Encerramento${dataBR(new Date())}`);
    await expect(dados).toContainText(new RegExp(`Veículo.+\\(${retirada.placa}\\)`));
    await expect(dados).toContainText(`Valor da locação${reais(fechada.vl_total)}`);
    await expect(dados).toContainText('ObservaçãoDevolvido com o tanque cheio.');
    await verificarAcessibilidade(page);
    await fotografar(page, 'historico-resultado');

    // Picked from the list: a reservation not yet picked up, with no observation.
    await lista
      .getByRole('button', { name: `Consultar o contrato nº ${aberta.id_locacao}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/historico\\?contrato=${aberta.id_locacao}$`));
    await expect(page.getByLabel('Número do contrato')).toHaveValue(String(aberta.id_locacao));
    const outra = page
      .getByRole('region', { name: `Contrato nº ${aberta.id_locacao}` })
      .locator('dl');
    await expect(outra).toContainText('SituaçãoReservada (aguardando retirada)');
    await expect(outra).toContainText('EncerramentoEm aberto');
    await expect(outra).toContainText('VeículoGol');
    await expect(outra).toContainText('ObservaçãoNenhuma observação disponível');
  });

  test('an unknown contract and someone else’s are refused with a clear message', async ({
    page,
  }) => {
    const alheio = await contratoDoClienteDemo(page);
    await novoCliente(page, 'Caio Curioso');
    await page.goto('/historico');
    await expect(page.getByRole('region', { name: 'Seus contratos' })).toContainText(
      'Você ainda não tem contratos.',
    );

    const campo = page.getByLabel('Número do contrato');
    const consultar = page.getByRole('button', { name: 'Consultar Histórico' });
    await consultar.click();
    await expect(
      page.getByText('Informe o número do contrato, por exemplo 123 ou LOC-000123.'),
    ).toBeVisible();

    await campo.fill('999999999');
    await consultar.click();
    await expect(page.getByRole('alert')).toHaveText(
      'Contrato nº 999999999 não encontrado. Confira o número e tente de novo.',
    );
    await verificarAcessibilidade(page);
    await fotografar(page, 'historico-nao-encontrado');

    await campo.fill(`LOC-${String(alheio).padStart(6, '0')}`);
    await consultar.click();
    await expect(page.getByRole('alert')).toHaveText(
      // Someone else's contract reads exactly as an unknown one: numbers cannot be probed.
      `Contrato nº ${alheio} não encontrado. Confira o número e tente de novo.`,
    );
    await fotografar(page, 'historico-alheio');
  });

  test('staff look up any contract', async ({ page }) => {
    const alheio = await contratoDoClienteDemo(page);
    await entrarComo(page, 'admin');
    await page.goto(`/historico?contrato=${alheio}`);
    await expect(page.getByLabel('Número do contrato')).toHaveValue(String(alheio));
    await expect(
      page.getByRole('region', { name: `Contrato nº ${alheio}` }).locator('dl'),
    ).toContainText(`Número do contrato${alheio}`);
    await expect(page.getByRole('region', { name: 'Contratos recentes' })).toBeVisible();
    await verificarAcessibilidade(page);
    await fotografar(page, 'historico-equipe');
  });
});
