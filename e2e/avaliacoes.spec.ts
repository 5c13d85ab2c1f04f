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

// "Newest first" is asserted on the one shared list: these tests post reviews one at a time.
test.describe.configure({ mode: 'serial' });

const unico = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Today as dd/mm/aaaa in São Paulo, as the cards show it. */
const hojeBr = () =>
  new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());

/** Another customer, in a request context of its own (the page keeps its session). */
async function outroCliente(request: APIRequestContext, nome: string): Promise<string> {
  const email = `outro.${unico()}@teste.dev`;
  const senha = 'Teste@2026';
  const cadastro = await request.post('/api/Cadastro', {
    data: {
      nome,
      dataNascimento: '1985-07-20',
      cpf: gerarCpf(),
      telefone: '31988887777',
      categoriaHabilitacao: 'B',
      rua: 'Rua da Bahia',
      numero: '900',
      bairro: 'Centro',
      cidade: 'Belo Horizonte',
      municipio: 'Belo Horizonte',
      email,
      senha,
      confirmacaoSenha: senha,
    },
  });
  expect(cadastro.status(), await cadastro.text()).toBe(201);
  const login = await request.post('/api/Cadastro/authenticate', { data: { email, senha } });
  return ((await login.json()) as { jwtToken: string }).jwtToken;
}

async function publicar(
  request: APIRequestContext,
  token: string,
  dados: { titulo: string; nota: number; observacao: string; email?: string; telefone?: string },
) {
  const r = await request.post('/api/Avaliacao', {
    headers: { authorization: `Bearer ${token}` },
    data: dados,
  });
  expect(r.status(), await r.text()).toBe(201);
  return (await r.json()) as { id_avaliacao: number };
}

const cartao = (page: Page, titulo: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: titulo }) });

test('reviews: sends a review with the keyboard stars and sees it first in the list', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Rita Avaliadora');
  await page.goto('/avaliacoes');
  await expect(page.getByRole('heading', { name: 'Enviar avaliação' })).toBeVisible();
  // Contact prefilled from the account.
  await expect(page.getByLabel('E-mail')).toHaveValue(cliente.email);
  await expect(page.getByLabel('Telefone')).toHaveValue('(31) 97777-6666');
  await verificarAcessibilidade(page);
  await fotografar(page, 'avaliacao-formulario');

  // Nothing filled in: each required field says what is missing; the grade is required too.
  await page.getByLabel('E-mail').fill('nao-e-email');
  await page.getByRole('button', { name: 'Enviar Avaliação' }).click();
  await expect(page.getByText('Informe o título.')).toBeVisible();
  await expect(page.getByText('Informe a nota de 1 a 5.')).toBeVisible();
  await expect(page.getByText('E-mail inválido.')).toBeVisible();
  await expect(page.getByText('Escreva a sua observação.')).toBeVisible();
  await expect(page.getByLabel('Título')).toBeFocused();
  await expect(page.getByRole('radio', { name: '1 estrela' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await verificarAcessibilidade(page);
  await fotografar(page, 'avaliacao-erros');

  const titulo = `Viagem tranquila ${unico()}`;
  await page.getByLabel('Título').fill(titulo);
  // Keyboard only: Tab into the stars, Space picks one, arrows move the grade.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('radio', { name: '1 estrela' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('radio', { name: '1 estrela' })).toBeChecked();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: '4 estrelas' })).toBeChecked();
  await expect(page.getByRole('radio', { name: '4 estrelas' })).toBeFocused();
  // The focused star shows it: its label draws the focus ring.
  const focada = page.locator('.estrelas__opcao:has(input:focus-visible)');
  await expect(focada).toHaveCount(1);
  await expect(focada).toHaveCSS('outline-style', 'solid');
  await expect(page.getByText('Informe a nota de 1 a 5.')).toBeHidden();
  await expect(page.getByText('4 de 5', { exact: true })).toBeVisible();
  await fotografar(page, 'avaliacao-estrelas');

  await page.getByLabel('E-mail').fill(cliente.email);
  await page.getByLabel('Observação').fill('Carro novo, retirada rápida na Pampulha.');
  await page.getByRole('button', { name: 'Enviar Avaliação' }).click();

  await expect(page.getByText('Avaliação enviada com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/visualizarAvaliacao$/);
  const primeiro = page
    .getByRole('list', { name: /Avaliações/ })
    .getByRole('listitem')
    .first();
  await expect(primeiro.getByRole('heading', { name: titulo })).toBeVisible();
  await expect(primeiro.getByText(`${hojeBr()} · por Rita Avaliadora`)).toBeVisible();
  await expect(primeiro.getByRole('img', { name: '4 de 5 estrelas' })).toBeVisible();
  await expect(primeiro.getByText('Carro novo, retirada rápida na Pampulha.')).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'avaliacoes-lista');
});

test('reviews: the author deletes their review after confirming; not the others', async ({
  page,
  request,
}) => {
  const autora = await novoCliente(page, 'Sofia Autora');
  const minha = `Vou apagar ${unico()}`;
  const alheia = `De outra pessoa ${unico()}`;
  const outro = await outroCliente(request, 'Otávio Outro');
  await publicar(request, outro, { titulo: alheia, nota: 3, observacao: 'Razoável.' });
  await publicar(request, autora.token, { titulo: minha, nota: 2, observacao: 'Demorou.' });

  await page.goto('/visualizarAvaliacao');
  await expect(cartao(page, minha)).toBeVisible();
  await expect(cartao(page, alheia).getByRole('img', { name: '3 de 5 estrelas' })).toBeVisible();
  await expect(cartao(page, alheia).getByRole('button', { name: /Excluir/ })).toHaveCount(0);

  const excluir = cartao(page, minha).getByRole('button', {
    name: `Excluir a avaliação “${minha}”`,
  });
  // Cancelling keeps it.
  await excluir.click();
  const dialogo = page.getByRole('dialog', { name: 'Excluir esta avaliação?' });
  await expect(dialogo).toBeVisible();
  await expect(dialogo.getByText(minha)).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'avaliacao-exclusao');
  await dialogo.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialogo).toBeHidden();
  await expect(cartao(page, minha)).toBeVisible();

  await excluir.click();
  await dialogo.getByRole('button', { name: 'Excluir avaliação' }).click();
  await expect(page.getByText('Avaliação excluída.')).toBeVisible();
  await expect(cartao(page, minha)).toHaveCount(0);
  await expect(cartao(page, alheia)).toBeVisible();
  await page.reload();
  await expect(cartao(page, alheia)).toBeVisible();
  await expect(cartao(page, minha)).toHaveCount(0);
});

test('reviews: staff may delete any review and see how to reach the reviewer', async ({
  page,
  request,
}) => {
  const titulo = `Pedido de contato ${unico()}`;
  const token = await outroCliente(request, 'Paula Contato');
  await publicar(request, token, {
    titulo,
    nota: 1,
    observacao: 'Cobrança em dobro.',
    email: 'paula@exemplo.com.br',
    telefone: '(31) 3222-1100',
  });

  await entrarComo(page, 'funcionario');
  await page.goto('/visualizarAvaliacao');
  const alvo = cartao(page, titulo);
  await expect(alvo.getByRole('img', { name: '1 de 5 estrelas' })).toBeVisible();
  await expect(alvo.getByText('Contato: paula@exemplo.com.br · (31) 3222-1100')).toBeVisible();
  await alvo.getByRole('button', { name: /Excluir/ }).click();
  await page.getByRole('button', { name: 'Excluir avaliação' }).click();
  await expect(page.getByText('Avaliação excluída.')).toBeVisible();
  await expect(alvo).toHaveCount(0);
});

test('reviews: the list shows its loading error with a retry, and its empty state', async ({
  page,
}) => {
  await entrarComo(page, 'cliente');
  await page.route(/\/api\/Avaliacao\?/, (rota) =>
    rota.fulfill({
      status: 503,
      json: { statusCode: 503, error: 'Service Unavailable', message: 'Indisponível' },
    }),
  );
  await page.goto('/visualizarAvaliacao');
  await expect(page.getByRole('alert')).toContainText('O servidor encontrou um erro.');
  await verificarAcessibilidade(page);
  await fotografar(page, 'avaliacoes-erro');

  // The server recovers, with no reviews at all.
  await page.unroute(/\/api\/Avaliacao\?/);
  await page.route(/\/api\/Avaliacao\?/, (rota) => rota.fulfill({ json: [] }));
  await page.getByRole('button', { name: 'Tentar de novo' }).click();
  await expect(page.getByText('Ainda não há avaliações.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Seja o primeiro a avaliar.' })).toBeVisible();
  await fotografar(page, 'avaliacoes-vazio');

  // And back to the real list.
  await page.unroute(/\/api\/Avaliacao\?/);
  await page.getByRole('link', { name: 'Enviar avaliação' }).first().click();
  await expect(page).toHaveURL(/\/avaliacoes$/);
});
