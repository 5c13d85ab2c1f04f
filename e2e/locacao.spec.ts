import type { Locator, Page } from '@playwright/test';
import {
  entrarComo,
  expect,
  fotografar,
  gerarCpf,
  novoCliente,
  test,
  verificarAcessibilidade,
} from './apoio.js';

// The rental screen against the real server. Each test arranges its own customers and books in
// periods of its own (random offsets), so parallel tests never take each other's vehicles.

interface Locacao {
  id_locacao: number;
  codigo: string;
  id_usuario: number;
  status: string;
  vl_total: number;
  data_entrega: string;
}
interface Referencia {
  locais: { id_local: number; codigo: string; nome: string }[];
  categorias: { id_categoria: number; desc_categoria: string; vl_categoria: number }[];
  modelos: { nome: string; id_categoria: number }[];
  adicionais: { id_adicional: number; descricao: string; valor: number }[];
}

const FUSO = 'America/Sao_Paulo';
const DIA_MS = 86_400_000;
const reais = (v: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(v);
/** 'aaaa-mm-dd' in Belo Horizonte, `dias` from today. */
const diaLocal = (dias: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: FUSO }).format(new Date(Date.now() + dias * DIA_MS));
const dataBR = (dia: string) => dia.split('-').reverse().join('/');
const aleatorio = (de: number, ate: number) => de + Math.floor(Math.random() * (ate - de));
const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

async function lerJson<T>(page: Page, caminho: string, token: string): Promise<T> {
  const r = await page.request.get(caminho, { headers: comToken(token) });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

async function referencia(page: Page, token: string): Promise<Referencia> {
  const [locais, categorias, modelos, adicionais] = await Promise.all([
    lerJson<Referencia['locais']>(page, '/api/Locais', token),
    lerJson<Referencia['categorias']>(page, '/api/Categorias', token),
    lerJson<Referencia['modelos']>(page, '/api/Modelos', token),
    lerJson<Referencia['adicionais']>(page, '/api/Adicionais', token),
  ]);
  return { locais, categorias, modelos, adicionais };
}

const categoria = (ref: Referencia, nome: string) =>
  ref.categorias.find((c) => c.desc_categoria === nome)!;
const adicional = (ref: Referencia, nome: string) =>
  ref.adicionais.find((a) => a.descricao === nome)!;

async function reservarPelaApi(
  page: Page,
  token: string,
  dados: Record<string, unknown>,
): Promise<{ status: number; corpo: Locacao & { message?: string } }> {
  const r = await page.request.post('/api/Locacao', { headers: comToken(token), data: dados });
  return { status: r.status(), corpo: (await r.json()) as Locacao & { message?: string } };
}

interface Escolha {
  idLocal: number;
  idCategoria: number;
  modelo: string;
  retirada: string;
  horaRetirada?: string;
  entrega: string;
  horaEntrega?: string;
  idAdicional?: number;
}

async function preencher(page: Page, e: Escolha) {
  await page.getByLabel('Local de retirada').selectOption(String(e.idLocal));
  await page.getByLabel('Categoria', { exact: true }).selectOption(String(e.idCategoria));
  await page.getByLabel('Modelo').selectOption(e.modelo);
  await page.getByLabel('Data de retirada').fill(e.retirada);
  await page.getByLabel('Hora de retirada').fill(e.horaRetirada ?? '10:00');
  await page.getByLabel('Data de entrega').fill(e.entrega);
  await page.getByLabel('Hora de entrega').fill(e.horaEntrega ?? '10:00');
  if (e.idAdicional !== undefined)
    await page.getByLabel('Adicional').selectOption(String(e.idAdicional));
}

/** Toasts that would cover the form in a screenshot (they also close by themselves). */
async function fecharAvisos(page: Page) {
  for (const fechar of await page.getByRole('button', { name: 'Fechar aviso' }).all())
    await fechar.click({ timeout: 1_000 }).catch(() => undefined);
}

const listaDeReservas = (page: Page) => page.getByRole('list', { name: 'Reservas' });
const itemDaLista = (page: Page, texto: string): Locator =>
  listaDeReservas(page).getByRole('button').filter({ hasText: texto });

test('locação: o cliente reserva, altera e exclui; Novo Registro limpa o formulário e a seleção @cluster', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Renata Locação');
  const ref = await referencia(page, cliente.token);
  const sedans = categoria(ref, 'Sedans');
  const gps = adicional(ref, 'GPS');
  const inicio = aleatorio(5, 300);
  const retirada = diaLocal(inicio);

  await page.goto('/locacao');
  await expect(page.getByRole('heading', { name: 'Locação', level: 1 })).toBeVisible();
  await expect(page.getByText('Você ainda não tem reservas.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nova reserva' })).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'locacao-vazia');

  // Booking: the total follows the form, with the server's rule (3 days x R$ 70 + GPS R$ 99).
  await preencher(page, {
    idLocal: ref.locais[0]!.id_local,
    idCategoria: sedans.id_categoria,
    modelo: 'Prisma',
    retirada,
    horaRetirada: '09:30',
    entrega: diaLocal(inicio + 3),
    horaEntrega: '09:30',
  });
  const total = page.getByTestId('total-da-locacao');
  await expect(total).toHaveText(reais(3 * sedans.vl_categoria));
  await page.getByLabel('Adicional').selectOption(String(gps.id_adicional));
  await expect(total).toHaveText(reais(3 * sedans.vl_categoria + gps.valor));
  await page.getByRole('button', { name: 'Calcular Total' }).click();
  const confirmacao = page.getByRole('status').filter({ hasText: 'Total confirmado' });
  await expect(confirmacao).toContainText(reais(309));
  await expect(confirmacao).toContainText('3 diárias');
  await fotografar(page, 'locacao-formulario-total');

  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByText('Reserva Cadastrada com sucesso')).toBeVisible();
  const titulo = page.getByRole('heading', { name: /^Alterar reserva LOC-\d{6}$/ });
  await expect(titulo).toBeVisible();
  const codigo = (await titulo.textContent())!.replace('Alterar reserva ', '');
  const item = itemDaLista(page, codigo);
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(dataBR(retirada));
  await expect(item).toContainText('Sedans / Prisma');
  await expect(item).toContainText('Reservada');
  await expect(item).toContainText(reais(309));
  await expect(item).toHaveAttribute('aria-pressed', 'true');

  // Novo Registro clears the fields and the selection (the spec's screen kept the selection).
  await page.getByRole('button', { name: 'Novo Registro' }).click();
  await expect(page.getByRole('heading', { name: 'Nova reserva' })).toBeVisible();
  await expect(item).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByLabel('Categoria', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Data de retirada')).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Excluir' })).toBeDisabled();

  // Selecting fills the form; a later return recomputes the total (5 days).
  await item.click();
  await expect(titulo).toBeVisible();
  await expect(page.getByLabel('Modelo')).toHaveValue('Prisma');
  await expect(page.getByLabel('Data de retirada')).toHaveValue(retirada);
  await expect(page.getByLabel('Hora de retirada')).toHaveValue('09:30');
  await expect(page.getByLabel('Adicional')).toHaveValue(String(gps.id_adicional));
  await expect(total).toHaveText(reais(309));
  await verificarAcessibilidade(page);
  await fecharAvisos(page);
  await fotografar(page, 'locacao-selecionada');
  await page.getByLabel('Data de entrega').fill(diaLocal(inicio + 5));
  await expect(total).toHaveText(reais(5 * sedans.vl_categoria + gps.valor));
  await page.getByRole('button', { name: 'Calcular Total' }).click();
  await expect(confirmacao).toContainText(reais(449));
  await expect(confirmacao).toContainText('A disponibilidade é conferida ao salvar.');
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByText('Solicitação de locação realizado com sucesso!')).toBeVisible();
  await expect(item).toContainText(reais(449));
  const salva = await lerJson<Locacao>(
    page,
    `/api/Locacao/${Number(codigo.slice(4))}`,
    cliente.token,
  );
  expect(salva.vl_total).toBe(449);
  expect(salva.data_entrega).toBe(diaLocal(inicio + 5));

  // Excluir asks first; the reservation is cancelled and kept, read-only.
  await page.getByRole('button', { name: 'Excluir' }).click();
  const dialogo = page.getByRole('dialog', { name: 'Excluir esta reserva?' });
  await expect(dialogo).toBeVisible();
  await expect(dialogo).toContainText(codigo);
  await verificarAcessibilidade(page);
  await dialogo.getByRole('button', { name: 'Excluir reserva' }).click();
  await expect(page.getByText('Reserva excluída com sucesso!')).toBeVisible();
  await expect(dialogo).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Nova reserva' })).toBeVisible();
  await expect(item).toContainText('Cancelada');
  await expect(item).toHaveAttribute('aria-pressed', 'false');

  await item.click();
  await expect(page.getByRole('heading', { name: `Reserva ${codigo}` })).toBeVisible();
  await expect(page.getByText('Esta reserva foi cancelada')).toBeVisible();
  await expect(page.getByLabel('Data de entrega')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Reservar' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Excluir' })).toBeDisabled();
  await expect(total).toHaveText(reais(449));

  // The status filter narrows the list.
  await page.getByLabel('Status').selectOption('reservada');
  await expect(page.getByText('Nenhuma reserva com o status reservada.')).toBeVisible();
  await page.getByLabel('Status').selectOption('cancelada');
  await expect(item).toBeVisible();
});

test('locação: erros de campo do formulário e do servidor aparecem sob os campos', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Otávio Campos');
  const ref = await referencia(page, cliente.token);
  await page.goto('/locacao');
  await expect(page.getByRole('heading', { name: 'Nova reserva' })).toBeVisible();

  // Nothing chosen: each field says what is missing.
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByText('Informe o local de retirada.')).toBeVisible();
  await expect(page.getByText('Informe a categoria.')).toBeVisible();
  await expect(page.getByText('Informe o modelo do veículo.')).toBeVisible();
  await expect(page.getByLabel('Local de retirada')).toBeFocused();

  // Return before pickup: refused in the browser, on the return date.
  const inicio = aleatorio(10, 300);
  await preencher(page, {
    idLocal: ref.locais[1]!.id_local,
    idCategoria: categoria(ref, 'Premium').id_categoria,
    modelo: 'Civic',
    retirada: diaLocal(inicio),
    entrega: diaLocal(inicio - 2),
  });
  await expect(
    page.getByText('Confira as datas: a entrega deve ser depois da retirada.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Calcular Total' }).click();
  const entrega = page.getByLabel('Data de entrega');
  await expect(
    page.getByText('A entrega deve ser depois da retirada.', { exact: true }),
  ).toBeVisible();
  await expect(entrega).toHaveAttribute('aria-invalid', 'true');
  await verificarAcessibilidade(page);
  await fotografar(page, 'locacao-erro-campos');

  // A pickup in the past is the server's rule: its message lands under the pickup date.
  await page.getByLabel('Data de retirada').fill(diaLocal(-3));
  await entrega.fill(diaLocal(2));
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByText('A retirada não pode ser no passado.')).toBeVisible();
  await expect(page.getByLabel('Data de retirada')).toHaveAttribute('aria-invalid', 'true');
  await expect(entrega).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Você ainda não tem reservas.')).toBeVisible();
});

test('locação: a lista mostra o erro de carga e se recupera com Tentar de novo', async ({
  page,
}) => {
  await novoCliente(page, 'Iara Instável');
  await page.route('**/api/Locacao?*', (rota) =>
    rota.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
  );
  await page.goto('/locacao');
  await expect(
    page.getByRole('alert').filter({ hasText: 'O servidor encontrou um erro' }),
  ).toBeVisible();
  // The form does not depend on the list: booking stays possible.
  await expect(page.getByRole('heading', { name: 'Nova reserva' })).toBeVisible();
  await expect(page.getByLabel('Local de retirada')).toBeEnabled();
  await page.unroute('**/api/Locacao?*');
  await page.getByRole('button', { name: 'Tentar de novo' }).click();
  await expect(page.getByText('Você ainda não tem reservas.')).toBeVisible();
});

test('locação: sem veículo livre na categoria, o 409 do servidor aparece junto ao formulário', async ({
  page,
}) => {
  const equipe = await entrarComo(page, 'funcionario');
  // The category with the fewest active vehicles is the quickest to exhaust.
  const veiculos = await lerJson<{ id_categoria: number; ativo: boolean }[]>(
    page,
    '/api/Veiculos',
    equipe,
  );
  const porCategoria = new Map<number, number>();
  for (const v of veiculos.filter((x) => x.ativo))
    porCategoria.set(v.id_categoria, (porCategoria.get(v.id_categoria) ?? 0) + 1);
  const [idCategoria, frota] = [...porCategoria].sort((a, b) => a[1] - b[1])[0]!;
  const ref = await referencia(page, equipe);
  const modelo = ref.modelos.find((m) => m.id_categoria === idCategoria)!.nome;

  // A period years ahead, of this test alone, booked by staff until the server refuses.
  const inicio = aleatorio(400, 1900);
  const periodo = {
    id_local: ref.locais[0]!.id_local,
    id_categoria: idCategoria,
    modelo_veiculo: modelo,
    data_retirada: diaLocal(inicio),
    hora_retirada: '08:00',
    data_entrega: diaLocal(inicio + 2),
    hora_entrega: '08:00',
  };
  let ultima = 201;
  for (let i = 0; i <= frota && ultima === 201; i++)
    ultima = (await reservarPelaApi(page, equipe, periodo)).status;
  expect(ultima).toBe(409);

  await novoCliente(page, 'Lúcia Sem Carro');
  await page.goto('/locacao');
  await preencher(page, {
    idLocal: periodo.id_local,
    idCategoria,
    modelo,
    retirada: periodo.data_retirada,
    horaRetirada: '08:00',
    entrega: periodo.data_entrega,
    horaEntrega: '08:00',
  });
  // Calcular Total already warns; Reservar shows the server's refusal beside the buttons.
  await page.getByRole('button', { name: 'Calcular Total' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Escolha outra categoria ou outras datas' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Não há veículo disponível nesta categoria para o período escolhido.',
  );
  await expect(page.getByText('Você ainda não tem reservas.')).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'locacao-erro-indisponivel');
});

test('locação: uma CNH que não habilita carros é recusada com a explicação do servidor', async ({
  page,
}) => {
  const email = `moto.${Date.now()}.${aleatorio(0, 1e6)}@teste.dev`;
  const senha = 'Teste@2026';
  const cadastro = await page.request.post('/api/Cadastro', {
    data: {
      nome: 'Marcos Motociclista',
      dataNascimento: '1992-07-01',
      cpf: gerarCpf(),
      telefone: '31955554444',
      categoriaHabilitacao: 'A',
      rua: 'Rua da Bahia',
      numero: '10',
      bairro: 'Centro',
      cidade: 'Belo Horizonte',
      municipio: 'Belo Horizonte',
      email,
      senha,
      confirmacaoSenha: senha,
    },
  });
  expect(cadastro.status(), await cadastro.text()).toBe(201);
  const login = await page.request.post('/api/Cadastro/authenticate', { data: { email, senha } });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const ref = await referencia(page, jwtToken);

  await page.goto('/locacao');
  const inicio = aleatorio(10, 300);
  await preencher(page, {
    idLocal: ref.locais[0]!.id_local,
    idCategoria: categoria(ref, 'Hatches').id_categoria,
    modelo: 'Onix',
    retirada: diaLocal(inicio),
    entrega: diaLocal(inicio + 1),
  });
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Sua CNH (categoria A) não habilita a dirigir carros',
  );
});

test('locação: a equipe vê e altera reservas de outros clientes e reserva em nome de um cliente', async ({
  page,
}) => {
  const nome = `Cliente Balcão ${aleatorio(1000, 9999)}`;
  const cliente = await novoCliente(page, nome);
  const ref = await referencia(page, cliente.token);
  const suvs = categoria(ref, "SUV's");
  // Further ahead than any other test books, so it heads the staff list (newest pickup first).
  const inicio = aleatorio(3000, 3300);
  const { status, corpo: daCliente } = await reservarPelaApi(page, cliente.token, {
    id_local: ref.locais[1]!.id_local,
    id_categoria: suvs.id_categoria,
    modelo_veiculo: 'Renegade',
    data_retirada: diaLocal(inicio),
    hora_retirada: '14:00',
    data_entrega: diaLocal(inicio + 2),
    hora_entrega: '14:00',
  });
  expect(status).toBe(201);

  await entrarComo(page, 'funcionario');
  await page.goto('/locacao');
  await expect(page.getByRole('heading', { name: 'Reservas', exact: true })).toBeVisible();
  const item = itemDaLista(page, daCliente.codigo);
  await expect(item).toContainText(nome);
  await item.click();
  await expect(
    page.getByRole('heading', { name: `Alterar reserva ${daCliente.codigo}` }),
  ).toBeVisible();
  await expect(page.getByRole('form', { name: 'Dados da reserva' })).toContainText(nome);
  await verificarAcessibilidade(page);
  await fotografar(page, 'locacao-equipe');

  // A change by staff keeps the reservation the customer's.
  await page.getByLabel('Hora de entrega').fill('18:00');
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByText('Solicitação de locação realizado com sucesso!')).toBeVisible();
  const alterada = await lerJson<Locacao & { hora_entrega: string }>(
    page,
    `/api/Locacao/${daCliente.id_locacao}`,
    cliente.token,
  );
  expect(alterada.hora_entrega).toBe('18:00');
  expect(alterada.id_usuario).toBe(daCliente.id_usuario);

  // At the counter: a booking in the customer's name.
  await page.getByRole('button', { name: 'Novo Registro' }).click();
  await page.getByLabel('Buscar cliente').fill(nome);
  const para = page.getByLabel('Reservar para');
  await expect(para.locator('option', { hasText: nome })).toHaveCount(1);
  await para.selectOption({ label: `${nome} (${cliente.email})` });
  await preencher(page, {
    idLocal: ref.locais[0]!.id_local,
    idCategoria: suvs.id_categoria,
    modelo: 'T-Cross',
    retirada: diaLocal(inicio + 10),
    entrega: diaLocal(inicio + 11),
  });
  await page.getByRole('button', { name: 'Reservar' }).click();
  await expect(page.getByText('Reserva Cadastrada com sucesso')).toBeVisible();
  const daCliente2 = await lerJson<Locacao[]>(page, '/api/Locacao', cliente.token);
  expect(daCliente2.map((l) => l.data_entrega)).toContain(diaLocal(inicio + 11));
});
