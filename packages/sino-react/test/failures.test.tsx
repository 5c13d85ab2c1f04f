// @vitest-environment jsdom
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { articles, isOnline, renderInbox, until } from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/**
 * What the widget shows when Sino fails it: a load refused with 503 or a Sino that cannot be
 * reached (after the client's retries), and a realtime connection that drops and comes back.
 * The failures are real: a local server answering 503, a port where nothing listens, a TCP
 * proxy cut and restored between the widget and Sino's socket.
 */
let sino: SinoServer;
let unavailable: Server;
let unavailableUrl: string;
let unavailableHits: string[] = [];
let closedPortUrl: string;

beforeAll(async () => {
  sino = await startSino();
  unavailable = createHttpServer((request, response) => {
    unavailableHits.push(`${request.method} ${new URL(request.url!, 'http://x').pathname}`);
    response.writeHead(503, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ statusCode: 503, message: 'Service Unavailable', error: 'Unavailable' }),
    );
  });
  await new Promise<void>((resolve) => unavailable.listen(0, '127.0.0.1', resolve));
  unavailableUrl = `http://127.0.0.1:${(unavailable.address() as { port: number }).port}`;
  // A port that was just free: nothing listens there.
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPortUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await new Promise((resolve) => unavailable.close(resolve));
  await sino.close();
});
afterEach(() => {
  cleanup();
  unavailableHits = [];
});

/**
 * A `fetch` for the provider that sends the widget calls matching `failing()` to another
 * origin (the 503 server, or the closed port) and the others to Sino; the failing ones are
 * counted by the caller's predicate.
 */
function routedFetch(failing: (method: string, path: string) => string | null): typeof fetch {
  return (input, init) => {
    const url = new URL(String(input));
    const elsewhere = failing(init?.method ?? 'GET', url.pathname + url.search);
    return fetch(elsewhere ? `${elsewhere}${url.pathname}${url.search}` : url, init);
  };
}

const fast = { retries: 1, baseDelayMs: 10, maxDelayMs: 20 };

describe('a feed that fails to load', () => {
  it('shows the error in the active language with "Try again" (not the empty state) after the retries, and retries', async () => {
    await sino.seed('f-503', 2);
    const user = userEvent.setup();
    let down = true;
    renderInbox(sino, 'f-503', 'center', {
      i18n: 'pt-BR',
      retry: fast,
      fetch: routedFetch((method, path) =>
        down && path.startsWith('/v1/widgets/notifications/feed') ? unavailableUrl : null,
      ),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Não foi possível carregar as notificações.');
    // The first try and the client's one retry, both answered 503.
    expect(unavailableHits).toEqual([
      'GET /v1/widgets/notifications/feed',
      'GET /v1/widgets/notifications/feed',
    ]);
    expect(screen.queryByText('Nada de novo por aqui ainda')).toBeNull();
    expect(document.querySelector('.sino-loader')).toBeNull();

    down = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    // Focus stays inside the widget while the button goes away.
    expect(document.activeElement?.classList.contains('sino-center__body')).toBe(true);
    await waitFor(() => expect(articles()).toHaveLength(2));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when Sino cannot be reached at all (the session fails), and starts over when it is back', async () => {
    await sino.seed('f-unreachable', 1);
    const user = userEvent.setup();
    let down = true;
    const tried: string[] = [];
    renderInbox(sino, 'f-unreachable', 'center', {
      retry: fast,
      fetch: routedFetch((method, path) => {
        if (!down) return null;
        tried.push(`${method} ${path}`);
        return closedPortUrl;
      }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not load notifications.');
    expect(tried).toEqual([
      'POST /v1/widgets/session/initialize',
      'POST /v1/widgets/session/initialize',
    ]);
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the list when a later page fails, says so below it, and "Try again" asks for that page', async () => {
    await sino.seed('f-next', 15);
    const user = userEvent.setup();
    let down = false;
    renderInbox(sino, 'f-next', 'center', {
      retry: fast,
      fetch: routedFetch((method, path) =>
        down && path.includes('/notifications/feed') && path.includes('page=1')
          ? unavailableUrl
          : null,
      ),
    });
    await waitFor(() => expect(articles()).toHaveLength(10));
    down = true;
    const area = document.querySelector<HTMLElement>('.sino-list')!;
    Object.defineProperty(area, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(area, 'clientHeight', { configurable: true, value: 400 });
    area.scrollTop = 600;
    fireEvent.scroll(area, { timeStamp: 10_000 });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not load notifications.');
    expect(alert.closest('.sino-list')).toBe(area);
    expect(articles()).toHaveLength(10);
    expect(unavailableHits).toHaveLength(2);

    down = false;
    await user.click(within(area).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(articles()).toHaveLength(15));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('preferences that fail to load', () => {
  it('show their error with "Try again" instead of the empty state, and load on retry', async () => {
    const created = await sino.api('POST', '/v1/workflows', {
      name: 'Multas',
      identifier: 'multas',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Nova multa' } }],
    });
    expect(created.status).toBe(201);
    await sino.seed('f-prefs', 0);
    const user = userEvent.setup();
    let down = true;
    renderInbox(sino, 'f-prefs', 'center', {
      i18n: 'pt-BR',
      retry: fast,
      fetch: routedFetch((method, path) =>
        down && path === '/v1/widgets/preferences' ? unavailableUrl : null,
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Configurações' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Não foi possível carregar as configurações.');
    expect(unavailableHits).toEqual(['GET /v1/widgets/preferences', 'GET /v1/widgets/preferences']);
    expect(
      screen.queryByText('Ainda não há configurações de notificação para gerenciar'),
    ).toBeNull();
    down = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await screen.findByRole('button', { name: /^Multas/ });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

/** A TCP proxy to Sino that can be cut (every connection closed, new ones refused) and restored. */
async function socketProxy(target: string) {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let cut = false;
  const server = createTcpServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    cut() {
      cut = true;
      for (const s of open) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of open) s.destroy();
        server.close(resolve);
      }),
  };
}

describe('connection notice', () => {
  it('says "reconnecting" politely while the socket is down after having been up, and goes when it is back', async () => {
    await sino.seed('f-socket', 1);
    const proxy = await socketProxy(sino.url);
    try {
      renderInbox(sino, 'f-socket', 'center', { i18n: 'pt-BR', socketUrl: proxy.url });
      await waitFor(() => expect(articles()).toHaveLength(1));
      const notice = document.querySelector<HTMLElement>('.sino-connection')!;
      expect(notice.getAttribute('role')).toBe('status');
      // Connecting for the first time is not a lost connection.
      expect(notice.textContent).toBe('');
      await until(() => isOnline(sino, 'f-socket'));
      expect(notice.textContent).toBe('');

      proxy.cut();
      await waitFor(() => expect(notice.textContent).toBe('Conexão perdida. Reconectando…'));
      expect(notice.classList.contains('sino-connection--lost')).toBe(true);
      await until(async () => !(await isOnline(sino, 'f-socket')));

      // socket.io tries again on its own (1 s, randomized by half, doubling).
      proxy.restore();
      await waitFor(() => expect(notice.textContent).toBe(''), { timeout: 10_000 });
      expect(notice.classList.contains('sino-connection--lost')).toBe(false);
      await until(() => isOnline(sino, 'f-socket'));
    } finally {
      cleanup();
      await proxy.close();
    }
  });
});
