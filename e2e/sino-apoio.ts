import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build, defaultClientConditions } from 'vite';
import { expect, novoCliente } from './apoio.js';

// What the tests of Sino's inbox share (the top menu's bell in campainha.spec.ts, the widget
// alone in sino-posicao.spec.ts): bookings that make notifications, the customer's inbox
// through Sino's widget API, and the vitrine (e2e/vitrine), a test-only page with the widget
// alone. Each customer books in periods of its own, years ahead (2000 to 2900 days: no other
// spec books there).

/** The bell in the page's header (never inside the menu, which folds on a phone), whatever its count. */
export const sinoDoCabecalho = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^Notificações(, \d+ não vistas?)?$/ });

/** The bell's open inbox. */
export const caixaDoSino = (page: Page) =>
  page.getByRole('dialog', { name: 'Caixa de notificações' });

export interface Locacao {
  id_locacao: number;
  codigo: string;
}
export interface SessaoDoSino {
  applicationIdentifier: string;
  subscriberId: string;
  subscriberHash: string;
}
export interface Mensagem {
  _id: string;
  content: string;
  read: boolean;
  seen: boolean;
  cta?: { data?: { url?: string } };
  /** Sino only: when a snoozed message comes back. */
  snoozedUntil?: string;
}
export interface Preferencia {
  template: { _id: string; name: string };
  preference: { channels: Record<string, boolean> };
}

export const FUSO = 'America/Sao_Paulo';
const DIA_MS = 86_400_000;
/** 'aaaa-mm-dd' in Belo Horizonte, `dias` from today. */
export const diaLocal = (dias: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: FUSO }).format(new Date(Date.now() + dias * DIA_MS));
const aleatorio = (de: number, ate: number) => de + Math.floor(Math.random() * (ate - de));
const comToken = (token: string) => ({ authorization: `Bearer ${token}` });

/** Books `quantas` Sedans for the customer through the API, one after another (2 days each). */
export async function reservar(page: Page, token: string, quantas = 1): Promise<Locacao[]> {
  const [locais, categorias] = await Promise.all(
    ['/api/Locais', '/api/Categorias'].map(async (caminho) => {
      const r = await page.request.get(caminho, { headers: comToken(token) });
      expect(r.status(), await r.text()).toBe(200);
      return (await r.json()) as unknown;
    }),
  );
  const idLocal = (locais as { id_local: number }[])[0]!.id_local;
  const sedans = (categorias as { id_categoria: number; desc_categoria: string }[]).find(
    (c) => c.desc_categoria === 'Sedans',
  )!;
  const inicio = aleatorio(2000, 2900);
  const feitas: Locacao[] = [];
  for (let i = 0; i < quantas; i++) {
    const r = await page.request.post('/api/Locacao', {
      headers: comToken(token),
      data: {
        id_local: idLocal,
        id_categoria: sedans.id_categoria,
        modelo_veiculo: 'Prisma',
        data_retirada: diaLocal(inicio + 4 * i),
        hora_retirada: '10:00',
        data_entrega: diaLocal(inicio + 4 * i + 2),
        hora_entrega: '10:00',
      },
    });
    expect(r.status(), await r.text()).toBe(201);
    feitas.push((await r.json()) as Locacao);
  }
  return feitas;
}

/**
 * The customer's inbox through Sino's widget API, with the session the bell gets from
 * GET /api/me/notificacoes: to arrange and to check what the widget shows against Sino.
 */
export async function caixaPelaApi(page: Page, token: string) {
  const r = await page.request.get('/api/me/notificacoes', { headers: comToken(token) });
  expect(r.status(), await r.text()).toBe(200);
  const sessao = (await r.json()) as SessaoDoSino;
  const inicio = await page.request.post('/v1/widgets/session/initialize', {
    data: {
      applicationIdentifier: sessao.applicationIdentifier,
      subscriberId: sessao.subscriberId,
      hmacHash: sessao.subscriberHash,
    },
  });
  expect(inicio.status(), await inicio.text()).toBe(201);
  const widget = comToken(((await inicio.json()) as { data: { token: string } }).data.token);
  const ler = async <T>(caminho: string): Promise<T> => {
    const resposta = await page.request.get(caminho, { headers: widget });
    expect(resposta.status(), await resposta.text()).toBe(200);
    return ((await resposta.json()) as { data: T }).data;
  };
  const mensagens = () => ler<Mensagem[]>('/v1/widgets/notifications/feed?page=0');
  return {
    sessao,
    mensagens,
    /** Sino's additions (docs/decisions/019): the archive and the snoozed messages. */
    arquivadas: () => ler<Mensagem[]>('/v1/widgets/notifications/archived?page=0'),
    adiadas: () => ler<Mensagem[]>('/v1/widgets/notifications/snoozed?page=0'),
    preferencias: () => ler<Preferencia[]>('/v1/widgets/preferences'),
    async marcarComoLida(id: string) {
      const resposta = await page.request.post('/v1/widgets/messages/markAs', {
        headers: widget,
        data: { messageId: id, mark: { read: true, seen: true } },
      });
      expect(resposta.status(), await resposta.text()).toBe(201);
    },
    /** Waits until Sino has `quantas` messages for the customer (the outbox sends them). */
    async esperarMensagens(quantas: number): Promise<Mensagem[]> {
      await expect.poll(async () => (await mensagens()).length).toBe(quantas);
      return mensagens();
    },
  };
}

export function fotografarComo(page: Page, nome: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  // Transitions finished (the popovers fade in).
  return page.screenshot({ path: `test-results/screenshots/${nome}.png`, animations: 'disabled' });
}

/** The vitrine's sources: a test-only page with Sino's widget as any host embeds it. */
export const PASTA_DA_VITRINE = fileURLToPath(new URL('./vitrine', import.meta.url));

/** Builds the vitrine into a new temporary folder (answered), workspace packages from source. */
export async function construirVitrine(): Promise<string> {
  const saida = mkdtempSync(join(tmpdir(), 'sino-vitrine-'));
  await build({
    root: PASTA_DA_VITRINE,
    base: '/vitrine/',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    // Workspace packages from their sources, like apps/web/vite.config.ts.
    resolve: { conditions: ['source', ...defaultClientConditions], dedupe: ['react'] },
    build: { outDir: saida, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
  });
  return saida;
}

/** Serves the vitrine built in `saida` under /vitrine/ on the e2e server's origin. */
export async function servirVitrine(page: Page, saida: string) {
  await page.route('**/vitrine/**', async (rota) => {
    const caminho = new URL(rota.request().url()).pathname.replace(/^\/vitrine\/?/, '');
    const arquivo = resolve(saida, caminho || 'index.html');
    if (relative(saida, arquivo).startsWith('..') || !existsSync(arquivo))
      return rota.fulfill({ status: 404, body: 'not found' });
    return rota.fulfill({ path: arquivo });
  });
}

/**
 * A new customer with `quantas` booking notifications, the second one read; answers the
 * vitrine's query string (the session, and `extra`).
 */
export async function clienteComAvisos(
  page: Page,
  nome: string,
  quantas: number,
  extra: Record<string, string> = {},
) {
  const cliente = await novoCliente(page, nome);
  await reservar(page, cliente.token, quantas);
  const api = await caixaPelaApi(page, cliente.token);
  const mensagens = await api.esperarMensagens(quantas);
  if (mensagens[1]) await api.marcarComoLida(mensagens[1]._id);
  const { applicationIdentifier, subscriberId, subscriberHash } = api.sessao;
  return new URLSearchParams({ applicationIdentifier, subscriberId, subscriberHash, ...extra });
}
