// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Page from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/**
 * Issue 17's inbox defects that need no layout (the popover's and menus' places, the header's
 * line and touch screens are measured in a browser, e2e/sino-posicao.spec.ts): the infinite
 * scroll that stalled after two quick scrolls, the first opening that showed only a loader,
 * and the preferences rows (no chevron, a blank line once their channel was off). Against a
 * listening Sino, in jsdom. First in this file: the panel's chunk is not loaded yet.
 */
let sino: SinoServer;
let articles: typeof Page.articles;
let isOnline: typeof Page.isOnline;
let renderInbox: typeof Page.renderInbox;
let until: typeof Page.until;
beforeAll(async () => {
  // The inbox's modules afresh for this file, as a new page loads them: test files share
  // their worker's modules (decision 043), and an earlier file may have loaded the lazily
  // loaded panel already. For the whole file, so that the panel's own late import and the
  // provider around it come from the same modules.
  vi.resetModules();
  ({ articles, isOnline, renderInbox, until } = await import('./render-inbox.js'));
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

/** Waits longer than testing-library's 1 s: Sino answers slowly on a busy machine. */
const slowly = { timeout: 10_000 };

/** A workflow with one in-app step ("Multa"), made once. */
let created = false;
async function workflow() {
  if (created) return;
  created = true;
  const r = await sino.api('POST', '/v1/workflows', {
    name: 'Multa recebida',
    identifier: 'multa-recebida',
    active: true,
    steps: [{ template: { type: 'in_app', content: 'Multa' } }],
  });
  expect(r.status).toBe(201);
}

/** The real fetch, recording the feed pages asked for and answered. */
function feedWatch(hold?: (page: string) => Promise<void> | undefined) {
  const asked: string[] = [];
  const answered: string[] = [];
  const watched: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const page = url.pathname.endsWith('/notifications/feed') && url.searchParams.get('page');
    if (!page) return fetch(input, init);
    asked.push(page);
    await hold?.(page);
    const answer = await fetch(input, init);
    answered.push(page);
    return answer;
  };
  return { fetch: watched, asked, answered };
}

describe('the first opening', () => {
  it('shows the list at once: the bell loads the first page and the panel ahead, and no loader is ever drawn', async () => {
    await sino.seed('i-ahead', 3);
    const feed = feedWatch();
    renderInbox(sino, 'i-ahead', 'popover', { fetch: feed.fetch });
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unseen' }, slowly);
    // Nobody opened anything: the first page is asked for and in.
    await waitFor(() => expect(feed.answered).toEqual(['0']), slowly);
    // The panel's chunk, fetched when the browser is idle.
    await act(() => new Promise((r) => setTimeout(r, 500)));
    let loaderSeen = false;
    const observer = new MutationObserver(() => {
      if (document.querySelector('[role="dialog"] .sino-loader')) loaderSeen = true;
    });
    observer.observe(document.body, { subtree: true, childList: true });
    fireEvent.click(bell);
    const dialog = screen.getByRole('dialog', { name: 'Notification inbox' });
    expect(within(dialog).getAllByRole('article')).toHaveLength(3);
    await act(() => new Promise((r) => setTimeout(r, 100)));
    observer.disconnect();
    expect(loaderSeen).toBe(false);
    expect(dialog.querySelector('.sino-loader')).toBeNull();
    // One request for it, none more on opening.
    expect(feed.asked).toEqual(['0']);
  });
});

describe('infinite scroll', () => {
  it('two quick scrolls to the end: the page loads with a spinner, and the one after it follows without another scroll', async () => {
    await sino.seed('i-scroll', 30);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const feed = feedWatch((page) => (page === '1' ? held : undefined));
    renderInbox(sino, 'i-scroll', 'center', { fetch: feed.fetch });
    await waitFor(() => expect(articles()).toHaveLength(10), slowly);
    const area = document.querySelector<HTMLElement>('.sino-list')!;
    // jsdom lays nothing out: the scroll metrics are given (the end stays in sight).
    Object.defineProperty(area, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(area, 'clientHeight', { configurable: true, value: 400 });
    // Halfway, then at once to the end (inside the 150 ms), and the scrolling stops there.
    area.scrollTop = 100;
    fireEvent.scroll(area, { timeStamp: 10_000 });
    area.scrollTop = 600;
    fireEvent.scroll(area, { timeStamp: 10_050 });
    // The end is checked when the 150 ms are up: page 1 loads, a spinner says so.
    await waitFor(() => expect(feed.asked).toEqual(['0', '1']), slowly);
    const more = document.querySelector('.sino-list__more')!;
    expect(more.getAttribute('role')).toBe('status');
    expect(more.querySelector('.sino-loader__spinner')).not.toBeNull();
    expect(more.textContent).toBe('Loading more…');
    expect(screen.getByRole('feed').getAttribute('aria-busy')).toBe('true');
    // The second scroll to the end, while it loads.
    fireEvent.scroll(area, { timeStamp: 10_400 });
    release();
    // Page 1 in, the end still in sight: page 2 follows, with no scroll event after.
    await waitFor(() => expect(articles()).toHaveLength(30), slowly);
    expect(feed.asked).toEqual(['0', '1', '2']);
    expect(new Set(articles().map((a) => a.getAttribute('data-notification-id'))).size).toBe(30);
    expect(articles()[0]!.getAttribute('aria-setsize')).toBe('30');
    expect(document.querySelector('.sino-list__more')).toBeNull();
    expect(screen.getByRole('feed').getAttribute('aria-busy')).toBe('false');
  });

  it('a refetch of the shown pages (a count event) shows no next-page spinner', async () => {
    await workflow();
    await sino.seed('i-refetch', 12);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const feed = feedWatch(() => (holding ? held : undefined));
    renderInbox(sino, 'i-refetch', 'center', { fetch: feed.fetch });
    await waitFor(() => expect(articles()).toHaveLength(10), slowly);
    await until(() => isOnline(sino, 'i-refetch'));
    holding = true;
    // A new message: its count event refetches the loaded page, held here.
    const r = await sino.api('POST', '/v1/events/trigger', {
      name: 'multa-recebida',
      to: 'i-refetch',
      payload: {},
    });
    expect(r.status).toBe(201);
    await waitFor(() => expect(feed.asked).toEqual(['0', '0']), slowly);
    expect(screen.getByRole('feed').getAttribute('aria-busy')).toBe('false');
    expect(document.querySelector('.sino-list__more')).toBeNull();
    release();
    await waitFor(() => expect(articles()[0]!.textContent).toContain('Multa'), slowly);
  });
});

describe('preferences rows', () => {
  it('each row has a chevron (decorative), down while closed, up while open', async () => {
    await workflow();
    await sino.seed('i-chevron', 0);
    const user = userEvent.setup();
    renderInbox(sino, 'i-chevron', 'center');
    await user.click(await screen.findByRole('button', { name: 'Settings' }, slowly));
    const trigger = await screen.findByRole('button', { name: /^Multa recebida/ }, slowly);
    const chevron = trigger.querySelector('svg.sino-accordion__chevron');
    expect(chevron).not.toBeNull();
    expect(chevron!.getAttribute('aria-hidden')).toBe('true');
    // The last thing in the row, after its text (the styles turn it with aria-expanded).
    expect(trigger.lastElementChild).toBe(chevron);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    await user.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
  });

  it('a row whose channel is switched off says "Off" on its second line, not a blank', async () => {
    await workflow();
    await sino.seed('i-off', 0);
    const user = userEvent.setup();
    renderInbox(sino, 'i-off', 'center', { i18n: 'pt-BR' });
    await user.click(await screen.findByRole('button', { name: 'Configurações' }, slowly));
    const trigger = await screen.findByRole('button', { name: /^Multa recebida/ }, slowly);
    const summary = trigger.querySelector('.sino-accordion__channels')!;
    expect(summary.textContent).toBe('No aplicativo');
    await user.click(trigger);
    const inApp = screen.getByRole('switch', { name: 'No aplicativo para Multa recebida' });
    await user.click(inApp);
    await waitFor(() => expect(inApp.getAttribute('aria-disabled')).toBeNull(), slowly);
    expect(inApp.getAttribute('aria-checked')).toBe('false');
    expect(summary.textContent).toBe('Desativado');
    // Back on: the channel is listed again.
    await user.click(inApp);
    await waitFor(() => expect(summary.textContent).toBe('No aplicativo'), slowly);
  });
});
