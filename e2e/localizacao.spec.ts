import type { Page } from '@playwright/test';
import {
  entrarComo,
  expect,
  fotografar,
  novoCliente,
  test,
  verificarAcessibilidade,
} from './apoio.js';

// The location screen against the real server and the local tile server that e2e/servidor.ts
// starts (its URL reaches the app through GET /api/configuracao, from MAP_TILE_URL).

interface Locacao {
  id_locacao: number;
  codigo: string;
}
interface Local {
  id_local: number;
  codigo: string;
  nome: string;
  endereco: string;
  latitude: number;
  longitude: number;
}

const FUSO = 'America/Sao_Paulo';
const diaLocal = (dias: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: FUSO }).format(
    new Date(Date.now() + dias * 86_400_000),
  );
const aleatorio = (de: number, ate: number) => de + Math.floor(Math.random() * (ate - de));
const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

async function lerJson<T>(page: Page, caminho: string, token?: string): Promise<T> {
  const r = await page.request.get(caminho, token ? { headers: comToken(token) } : {});
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** A Hatch at the given place, on days of this test alone. */
async function reservarEm(page: Page, token: string, idLocal: number): Promise<Locacao> {
  const categorias = await lerJson<{ id_categoria: number; desc_categoria: string }[]>(
    page,
    '/api/Categorias',
    token,
  );
  const inicio = aleatorio(20, 900);
  const r = await page.request.post('/api/Locacao', {
    headers: comToken(token),
    data: {
      id_local: idLocal,
      id_categoria: categorias.find((c) => c.desc_categoria === 'Hatches')!.id_categoria,
      modelo_veiculo: 'HB20',
      data_retirada: diaLocal(inicio),
      hora_retirada: '11:00',
      data_entrega: diaLocal(inicio + 2),
      hora_entrega: '11:00',
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  return (await r.json()) as Locacao;
}

/** The origin of the tile server the app was configured with. */
async function origemDosTiles(page: Page): Promise<string> {
  const config = await lerJson<{ mapa: { urlDosTiles: string } }>(page, '/api/configuracao');
  return new URL(config.mapa.urlDosTiles.replace(/\{[a-z]\}/g, '0')).origin;
}

test('localização: tiles carregados e marcador no mapa, nos dois locais de retirada', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Paula Mapas');
  const locais = await lerJson<Local[]>(page, '/api/Locais', cliente.token);
  const centro = locais.find((l) => l.codigo === '001')!;
  const pampulha = locais.find((l) => l.codigo === '002')!;
  const noCentro = await reservarEm(page, cliente.token, centro.id_local);
  const naPampulha = await reservarEm(page, cliente.token, pampulha.id_local);
  const origem = await origemDosTiles(page);
  const tileCarregado = () =>
    page.waitForResponse(
      (r) => r.url().startsWith(`${origem}/`) && r.url().endsWith('.png') && r.status() === 200,
    );

  await page.goto('/localizacao');
  await expect(page.getByRole('heading', { name: 'Localização', level: 1 })).toBeVisible();
  const campo = page.getByLabel('Código da locação');

  for (const [locacao, local] of [
    [noCentro, centro],
    [naPampulha, pampulha],
  ] as const) {
    const tile = tileCarregado();
    await campo.fill(locacao.codigo);
    await expect(page.getByRole('heading', { name: `Locação ${locacao.codigo}` })).toBeVisible();
    await tile;
    await expect(page.locator('img.leaflet-tile-loaded').first()).toBeVisible();
    const marcador = page.locator('.leaflet-marker-icon');
    await expect(marcador).toHaveCount(1);
    await expect(marcador).toBeVisible();
    await expect(marcador).toHaveAttribute('title', `${local.nome}: ${local.endereco}`);
    await expect(page.locator('.leaflet-popup')).toContainText(local.endereco);
    await expect(
      page.getByRole('heading', { name: `Local de retirada: ${local.nome}` }),
    ).toBeVisible();
    await expect(page.locator('address')).toContainText(local.endereco);
    await expect(page.getByRole('link', { name: /Abrir no OpenStreetMap/ })).toHaveAttribute(
      'href',
      `https://www.openstreetmap.org/?mlat=${local.latitude}&mlon=${local.longitude}#map=16/${local.latitude}/${local.longitude}`,
    );
    await expect(page.getByText('Mapa indisponível no momento')).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`codigo=${locacao.codigo}$`));
  }
  await verificarAcessibilidade(page);
  await fotografar(page, 'localizacao-mapa');
});

test('localização: sem tiles, o marcador, o endereço e o link continuam', async ({ page }) => {
  const cliente = await novoCliente(page, 'Caio Sem Rede');
  const locais = await lerJson<Local[]>(page, '/api/Locais', cliente.token);
  const pampulha = locais.find((l) => l.codigo === '002')!;
  const locacao = await reservarEm(page, cliente.token, pampulha.id_local);
  const origem = await origemDosTiles(page);
  let abortados = 0;
  await page.route(`${origem}/**`, (rota) => {
    abortados++;
    return rota.abort('internetdisconnected');
  });

  // A link with the code (as from the rental screen) looks it up at once.
  await page.goto(`/localizacao?codigo=${locacao.codigo}`);
  await expect(page.getByLabel('Código da locação')).toHaveValue(locacao.codigo);
  await expect(
    page.getByText('Mapa indisponível no momento; o endereço e o marcador continuam abaixo.'),
  ).toBeVisible();
  expect(abortados).toBeGreaterThan(0);
  await expect(page.locator('.leaflet-marker-icon')).toBeVisible();
  await expect(page.locator('.leaflet-popup')).toContainText(pampulha.nome);
  await expect(page.locator('address')).toContainText(pampulha.endereco);
  await expect(page.getByRole('link', { name: /Abrir no OpenStreetMap/ })).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'localizacao-sem-tiles');
});

test('localização: uma consulta só depois de digitar; não encontrada e de outro cliente', async ({
  page,
}) => {
  // Someone else's reservation: the demo customer's first one.
  const demo = await entrarComo(page, 'cliente');
  const [alheia] = await lerJson<Locacao[]>(page, '/api/Locacao', demo);
  const cliente = await novoCliente(page, 'Davi Digitador');
  const locais = await lerJson<Local[]>(page, '/api/Locais', cliente.token);
  const minha = await reservarEm(page, cliente.token, locais[0]!.id_local);

  const consultas: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/find-by-locacao')) consultas.push(r.url());
  });
  await page.goto('/localizacao');
  const campo = page.getByLabel('Código da locação');
  await campo.click();
  // Typed key by key, faster than the 400 ms pause: one lookup, for the whole code.
  await campo.pressSequentially(minha.codigo, { delay: 80 });
  await expect(page.getByRole('heading', { name: `Locação ${minha.codigo}` })).toBeVisible();
  await page.waitForTimeout(800);
  expect(consultas).toHaveLength(1);
  expect(consultas[0]).toContain(`id_locacao=${minha.id_locacao}`);

  // Not a code: said under the field, nothing asked.
  await campo.fill('abc');
  await expect(page.getByText('Código inválido: use LOC-000011 ou apenas o número.')).toBeVisible();
  expect(consultas).toHaveLength(1);

  await campo.fill('LOC-999999');
  await expect(page.getByText('Locação não encontrada.')).toBeVisible();
  await verificarAcessibilidade(page);
  await fotografar(page, 'localizacao-nao-encontrada');

  // Someone else's reservation reads exactly as an unknown one: codes cannot be probed.
  await campo.fill(String(alheia!.id_locacao));
  await expect(page.getByText('Locação não encontrada.')).toBeVisible();
  await expect(page.locator('.leaflet-marker-icon')).toHaveCount(0);
});

test('localização: uma consulta ultrapassada pelo que se digitou depois é abortada', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Sara Apressada');
  const locais = await lerJson<Local[]>(page, '/api/Locais', cliente.token);
  const primeira = await reservarEm(page, cliente.token, locais[0]!.id_local);
  const segunda = await reservarEm(page, cliente.token, locais[1]!.id_local);

  // The server is slow for the first code only: the person has typed another one meanwhile.
  await page.route('**/api/find-by-locacao?*', async (rota) => {
    if (rota.request().url().includes(`id_locacao=${primeira.id_locacao}`))
      await new Promise((ok) => setTimeout(ok, 3_000));
    await rota.continue().catch(() => undefined);
  });
  const abortadas: string[] = [];
  page.on('requestfailed', (r) => {
    if (r.url().includes('/api/find-by-locacao')) abortadas.push(r.url());
  });
  await page.goto('/localizacao');
  const campo = page.getByLabel('Código da locação');
  const lenta = page.waitForRequest((r) => r.url().includes(`id_locacao=${primeira.id_locacao}`));
  await campo.fill(primeira.codigo);
  await lenta;
  await campo.fill(segunda.codigo);
  await expect(page.getByRole('heading', { name: `Locação ${segunda.codigo}` })).toBeVisible();
  await expect
    .poll(() => abortadas)
    .toEqual([expect.stringContaining(`id_locacao=${primeira.id_locacao}`)]);
  // The late answer never replaces the one on screen.
  await page.waitForTimeout(3_000);
  await expect(page.getByRole('heading', { name: `Locação ${segunda.codigo}` })).toBeVisible();
  await expect(page.locator('.leaflet-marker-icon')).toHaveAttribute(
    'title',
    new RegExp(locais[1]!.nome),
  );
});
