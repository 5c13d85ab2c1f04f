import type { APIRequestContext } from '@playwright/test';
import { CONTAS, expect, novoCliente, test, verificarAcessibilidade } from './apoio.js';
import { caixaDoSino, fotografarComo, sinoDoCabecalho } from './sino-apoio.js';

// Items of the bell's inbox in Locadora (issue 17, 13 h, j and l), against the real server:
// a fine (a critical workflow) stands apart, removing offers "Desfazer", and a customer's
// preferences leave out the workflow only staff receive. Each test signs up its own customer
// and books years ahead (3000 to 3600 days: no other spec books there), or from the next
// minute for a fine (staff pick the car up at once).

interface Locacao {
  id_locacao: number;
  codigo: string;
  placa?: string | null;
}
interface Mensagem {
  _id: string;
  content: string;
}

const FUSO = 'America/Sao_Paulo';
const DIA_MS = 86_400_000;
const comToken = (token: string) => ({ authorization: `Bearer ${token}` });
/** 'aaaa-mm-dd' and 'hh:mm' in Belo Horizonte at `instante`. */
function relogio(instante: Date) {
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

async function json<T>(r: { status(): number; text(): Promise<string> }, status: number) {
  const texto = await r.text();
  expect(r.status(), texto).toBe(status);
  return JSON.parse(texto) as T;
}

/** A Sedan booked by `token` (its own account, or staff for `idUsuario`) from `inicio`. */
async function reservar(
  api: APIRequestContext,
  token: string,
  inicio: Date,
  idUsuario?: number,
): Promise<Locacao> {
  const [locais, categorias] = await Promise.all([
    json<{ id_local: number }[]>(await api.get('/api/Locais', { headers: comToken(token) }), 200),
    json<{ id_categoria: number; desc_categoria: string }[]>(
      await api.get('/api/Categorias', { headers: comToken(token) }),
      200,
    ),
  ]);
  const de = relogio(inicio);
  const ate = relogio(new Date(inicio.getTime() + 2 * DIA_MS));
  return json<Locacao>(
    await api.post('/api/Locacao', {
      headers: comToken(token),
      data: {
        ...(idUsuario !== undefined && { id_usuario: idUsuario }),
        id_local: locais[0]!.id_local,
        id_categoria: categorias.find((c) => c.desc_categoria === 'Sedans')!.id_categoria,
        modelo_veiculo: 'Prisma',
        data_retirada: de.data,
        hora_retirada: de.hora,
        data_entrega: ate.data,
        hora_entrega: ate.hora,
      },
    }),
    201,
  );
}

/** Bookings far ahead, one after another, for the customer itself. */
async function reservasFuturas(api: APIRequestContext, token: string, quantas: number) {
  const dias = 3000 + Math.floor(Math.random() * 600);
  for (let i = 0; i < quantas; i++)
    await reservar(api, token, new Date(Date.now() + (dias + 4 * i) * DIA_MS));
}

/** The customer's feed in Sino, through the bell's own session (GET /api/me/notificacoes). */
async function feedDoSino(api: APIRequestContext, token: string) {
  const sessao = await json<{
    applicationIdentifier: string;
    subscriberId: string;
    subscriberHash: string;
  }>(await api.get('/api/me/notificacoes', { headers: comToken(token) }), 200);
  const inicio = await json<{ data: { token: string } }>(
    await api.post('/v1/widgets/session/initialize', {
      data: {
        applicationIdentifier: sessao.applicationIdentifier,
        subscriberId: sessao.subscriberId,
        hmacHash: sessao.subscriberHash,
      },
    }),
    201,
  );
  return async () =>
    (
      await json<{ data: Mensagem[] }>(
        await api.get('/v1/widgets/notifications/feed?page=0', {
          headers: comToken(inicio.data.token),
        }),
        200,
      )
    ).data;
}

test('campainha: uma multa (fluxo crítico) se destaca, com ícone e a palavra "Importante", e passa no axe', async ({
  page,
  request,
}) => {
  const cliente = await novoCliente(page, 'Marta Multada');
  const { id: idCliente } = await json<{ id: number }>(
    await page.request.get('/api/me', { headers: comToken(cliente.token) }),
    200,
  );
  // A booking far ahead, then a fine on a contract staff open now (its car out).
  await reservasFuturas(page.request, cliente.token, 1);
  const login = await json<{ jwtToken: string }>(
    await request.post('/api/Cadastro/authenticate', {
      data: { email: CONTAS.funcionario.email, senha: CONTAS.funcionario.senha },
    }),
    200,
  );
  const equipe = login.jwtToken;
  const reserva = await reservar(request, equipe, new Date(Date.now() + 60_000), idCliente);
  const retirada = await json<Locacao>(
    await request.post(`/api/Locacao/${reserva.id_locacao}/retirada`, {
      headers: comToken(equipe),
      data: {},
    }),
    200,
  );
  await json(
    await request.post('/api/infracoes', {
      headers: comToken(equipe),
      data: {
        placa: retirada.placa,
        data_hora: new Date().toISOString(),
        descricao: 'Avançar o sinal vermelho',
        valor: 293.47,
        local: 'Av. do Contorno, 100 - Belo Horizonte',
      },
    }),
    201,
  );
  const feed = await feedDoSino(page.request, cliente.token);
  await expect
    .poll(async () => (await feed()).some((m) => m.content.includes('Uma multa foi registrada')))
    .toBe(true);

  await page.goto('/home2');
  await sinoDoCabecalho(page).click();
  const artigos = caixaDoSino(page).getByRole('feed').getByRole('article');
  const multa = artigos.filter({ hasText: 'Uma multa foi registrada' });
  const outra = artigos.filter({ hasText: 'foi confirmada' }).first();
  await expect(multa).toHaveCount(1);
  // Not colour alone: the word and the icon, and the word in its accessible name.
  await expect(multa).toHaveClass(/sino-item--critical/);
  await expect(multa.locator('.sino-item__critical')).toHaveText('Importante');
  await expect(multa.locator('.sino-item__critical svg')).toBeVisible();
  await expect(
    caixaDoSino(page).getByRole('article', {
      name: /^Não lida: ?Importante: ?Uma multa foi registrada/,
    }),
  ).toHaveCount(1);
  await expect(outra).not.toHaveClass(/sino-item--critical/);
  await expect(outra.locator('.sino-item__critical')).toHaveCount(0);
  // A frame of its own, whatever the colours.
  await expect(multa).toHaveCSS('border-top-style', 'solid');
  await expect(outra).not.toHaveCSS('border-top-style', 'solid');
  await verificarAcessibilidade(page);
  await page.mouse.move(0, 0);
  await fotografarComo(page, 'campainha-multa-critica');
});

test('campainha: remover oferece "Desfazer", que devolve o item ao lugar; fechada a caixa, a remoção vale', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Renato Removedor');
  await reservasFuturas(page.request, cliente.token, 3);
  const feed = await feedDoSino(page.request, cliente.token);
  await expect.poll(async () => (await feed()).length).toBe(3);

  await page.goto('/home2');
  const sino = sinoDoCabecalho(page);
  await sino.click();
  const dialogo = caixaDoSino(page);
  const artigos = dialogo.getByRole('feed').getByRole('article');
  await expect(artigos).toHaveCount(3);
  const ordem = await artigos.evaluateAll((lista) =>
    lista.map((a) => a.getAttribute('data-notification-id')),
  );

  const meio = artigos.nth(1);
  await meio.getByRole('button', { name: 'Ações da notificação' }).click();
  await meio.getByRole('menuitem', { name: 'Remover mensagem' }).click();
  await expect(artigos).toHaveCount(2);
  const aviso = dialogo.locator('.sino-undo');
  await expect(aviso).toHaveAttribute('role', 'status');
  await expect(aviso).toContainText('Mensagem removida');
  const desfazer = aviso.getByRole('button', { name: 'Desfazer' });
  await expect(desfazer).toBeVisible();
  // The pointer on the note holds its 8 s, which the checks below can outlast on a busy
  // machine (or a cluster's, more processes on the same cores): nothing may reach Sino meanwhile.
  await aviso.hover();
  await verificarAcessibilidade(page);
  await fotografarComo(page, 'campainha-remover-desfazer');
  // Nothing was removed in Sino yet.
  expect((await feed()).map((m) => m._id).sort()).toEqual([...ordem].sort());

  await desfazer.click();
  await expect(artigos).toHaveCount(3);
  expect(
    await artigos.evaluateAll((lista) => lista.map((a) => a.getAttribute('data-notification-id'))),
  ).toEqual(ordem);
  await expect(artigos.nth(1)).toBeFocused();
  await expect(desfazer).toHaveCount(0);
  expect(await feed()).toHaveLength(3);

  // Removed again, and the inbox closed: Sino removes it.
  await artigos.nth(1).getByRole('button', { name: 'Ações da notificação' }).click();
  await artigos.nth(1).getByRole('menuitem', { name: 'Remover mensagem' }).click();
  await expect(artigos).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(dialogo).toBeHidden();
  await expect.poll(async () => (await feed()).map((m) => m._id)).toEqual([ordem[0], ordem[2]]);
});

test('campainha: nas configurações, o cliente não vê "Avaliação recebida" (só da equipe); a equipe vê', async ({
  page,
}) => {
  await novoCliente(page, 'Clara Configurada');
  await page.goto('/home2');
  await sinoDoCabecalho(page).click();
  const dialogo = caixaDoSino(page);
  await dialogo.getByRole('button', { name: 'Configurações' }).click();
  await expect(dialogo.getByRole('heading', { name: 'Configurações' })).toBeVisible();
  const fluxos = dialogo.locator('.sino-accordion__trigger .sino-accordion__name');
  await expect(fluxos.filter({ hasText: 'Reserva confirmada' })).toHaveCount(1);
  await expect(fluxos.filter({ hasText: 'Vistoria registrada' })).toHaveCount(1);
  await expect(fluxos.filter({ hasText: 'Avaliação recebida' })).toHaveCount(0);
  await verificarAcessibilidade(page);

  // Staff: the review's preference is theirs. With the keyboard (the popover's place on the
  // staff header is another item of this issue).
  const r = await page.request.post('/api/Cadastro/authenticate', {
    data: { email: CONTAS.funcionario.email, senha: CONTAS.funcionario.senha },
  });
  expect(r.status()).toBe(200);
  await page.goto('/home2');
  await sinoDoCabecalho(page).press('Enter');
  await expect(caixaDoSino(page)).toBeVisible();
  await caixaDoSino(page).getByRole('button', { name: 'Configurações' }).press('Enter');
  await expect(caixaDoSino(page).getByRole('heading', { name: 'Configurações' })).toBeVisible();
  const daEquipe = caixaDoSino(page).locator('.sino-accordion__trigger .sino-accordion__name');
  await expect(daEquipe.filter({ hasText: 'Avaliação recebida' })).toHaveCount(1);
  await expect(daEquipe.filter({ hasText: 'Reserva confirmada' })).toHaveCount(1);
});
