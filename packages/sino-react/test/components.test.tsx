// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationCenterProps, SinoProviderProps } from '../src/index.js';
import { renderInbox as renderOnSino, type InboxUi } from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/** The styled components against a listening Sino, in jsdom, driven as a user would. */
let sino: SinoServer;
beforeAll(async () => {
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

/** The shared `renderInbox` on this file's Sino. */
const renderInbox = (
  subscriberId: string,
  ui: InboxUi,
  props: Partial<SinoProviderProps> = {},
  center: NotificationCenterProps = {},
) => renderOnSino(sino, subscriberId, ui, props, center);

const articles = () => within(screen.getByRole('feed')).queryAllByRole('article');

describe('bell', () => {
  it('is labelled "Notifications" in English with nothing unseen, and shows no badge', async () => {
    await sino.seed('c-bell-zero', 0);
    renderInbox('c-bell-zero', 'bell');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy());
    expect(screen.queryByTestId('sino-bell-badge')).toBeNull();
  });

  it('says the unseen count in pt-BR and shows it on the badge', async () => {
    await sino.seed('c-bell-pt', 3);
    renderInbox('c-bell-pt', 'bell', { i18n: 'pt-BR' });
    const bell = await screen.findByRole('button', { name: 'Notificações, 3 não vistas' });
    expect(within(bell).getByTestId('sino-bell-badge').textContent).toBe('3');
  });

  it('says the count in Arabic', async () => {
    await sino.seed('c-bell-ar', 2);
    renderInbox('c-bell-ar', 'bell', { i18n: 'ar' });
    const two = new Intl.NumberFormat('ar').format(2);
    await screen.findByRole('button', { name: `الإشعارات، غير المشاهَدة: ${two}` });
  });

  it("shows '99+' above 99 (the server counts up to 100)", async () => {
    await sino.seed('c-bell-many', 120);
    renderInbox('c-bell-many', 'bell');
    const bell = await screen.findByRole('button', { name: 'Notifications, 100 unseen' });
    expect(within(bell).getByTestId('sino-bell-badge').textContent).toBe('99+');
  });
});

describe('popover', () => {
  it('opens a labelled dialog, traps Tab inside, closes on Escape and gives focus back to the bell', async () => {
    await sino.seed('c-popover', 2);
    const user = userEvent.setup();
    renderInbox('c-popover', 'popover', { i18n: 'pt-BR' });
    const bell = await screen.findByRole('button', { name: 'Notificações, 2 não vistas' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    await user.click(bell);
    const dialog = screen.getByRole('dialog', { name: 'Caixa de notificações' });
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await waitFor(() => expect(within(dialog).getAllByRole('article')).toHaveLength(2));

    // Tab order inside: mark all as read, "More actions", the cog, then each item and its menu
    // button, then the footer's link; it wraps both ways.
    const markAll = within(dialog).getByRole('button', { name: 'Marcar todas como lidas' });
    const lastMenu = within(dialog).getAllByRole('button', { name: 'Ações da notificação' })[1]!;
    const last = within(dialog).getByRole('link', {
      name: 'Desenvolvido por Sino (abre em uma nova aba)',
    });
    markAll.focus();
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Mais ações' }));
    for (let i = 0; i < 5; i++) await user.tab();
    expect(document.activeElement).toBe(lastMenu);
    await user.tab();
    expect(document.activeElement).toBe(last);
    await user.tab();
    expect(document.activeElement).toBe(markAll);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(last);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell);
    expect(bell.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on a click outside', async () => {
    await sino.seed('c-outside', 1);
    const user = userEvent.setup();
    renderInbox('c-outside', 'popover');
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unseen' }));
    expect(screen.getByRole('dialog', { name: 'Notification inbox' })).toBeTruthy();
    await user.click(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('header', () => {
  it('shows the badge and disables "mark all as read" once nothing is unread', async () => {
    await sino.seed('c-header', 2);
    const user = userEvent.setup();
    renderInbox('c-header', 'center');
    await waitFor(() => expect(articles()).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('sino-header-badge').textContent).toBe('2'));
    const markAll = screen.getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement;
    expect(markAll.disabled).toBe(false);
    await user.click(markAll);
    await waitFor(() => expect(markAll.disabled).toBe(true));
    expect(articles().every((a) => a.classList.contains('sino-item--read'))).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('sino-header-badge')).toBeNull());
  });

  it('shows the cog with showUserPreferences and reports its click', async () => {
    await sino.seed('c-cog', 0);
    let clicked = 0;
    renderInbox(
      'c-cog',
      'center',
      {},
      { showUserPreferences: true, onSettingsClick: () => clicked++ },
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Settings' }));
    expect(clicked).toBe(1);
  });
});

describe('list', () => {
  it('is a WAI-ARIA feed of articles with their position; Page Down and Page Up move between them', async () => {
    await sino.seed('c-feed', 3);
    const user = userEvent.setup();
    renderInbox('c-feed', 'center');
    await waitFor(() => expect(articles()).toHaveLength(3));
    const feed = screen.getByRole('feed', { name: 'Notifications' });
    expect(feed.getAttribute('aria-busy')).toBe('false');
    const items = articles();
    expect(items.map((a) => a.getAttribute('aria-posinset'))).toEqual(['1', '2', '3']);
    expect(items.map((a) => a.getAttribute('aria-setsize'))).toEqual(['3', '3', '3']);
    expect(items[0]!.textContent).toContain('Message 3');
    items[0]!.focus();
    await user.keyboard('{PageDown}');
    expect(document.activeElement).toBe(items[1]);
    await user.keyboard('{PageDown}{PageDown}');
    expect(document.activeElement).toBe(items[2]);
    await user.keyboard('{PageUp}');
    expect(document.activeElement).toBe(items[1]);
  });

  it('asks for the next page when scrolled past 80 % while more exist, not before', async () => {
    await sino.seed('c-scroll', 15);
    renderInbox('c-scroll', 'center');
    await waitFor(() => expect(articles()).toHaveLength(10));
    expect(articles()[0]!.getAttribute('aria-setsize')).toBe('-1');
    const area = document.querySelector<HTMLElement>('.sino-list')!;
    // jsdom lays nothing out: the scroll metrics are given.
    Object.defineProperty(area, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(area, 'clientHeight', { configurable: true, value: 400 });
    area.scrollTop = 300; // 70 %
    fireEvent.scroll(area, { timeStamp: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(articles()).toHaveLength(10);
    area.scrollTop = 420; // 82 %
    fireEvent.scroll(area, { timeStamp: 20_000 });
    await waitFor(() => expect(articles()).toHaveLength(15));
    expect(articles()[0]!.getAttribute('aria-setsize')).toBe('15');
    expect(screen.getByRole('feed').getAttribute('aria-busy')).toBe('false');
  });

  it('sanitises the HTML content: formatting stays, scripts and handlers go', async () => {
    await sino.seed('c-html', 1, {
      content:
        '<b>Reserva</b> <img src="x" onerror="window.hacked = 1"><script>window.hacked = 2</script><a href="javascript:window.hacked = 3">link</a>',
    });
    renderInbox('c-html', 'center');
    await waitFor(() => expect(articles()).toHaveLength(1));
    const content = articles()[0]!.querySelector('.sino-item__content')!;
    expect(content.querySelector('b')?.textContent).toBe('Reserva');
    expect(content.querySelector('script')).toBeNull();
    expect(content.querySelector('img')?.hasAttribute('onerror')).toBe(false);
    expect(content.querySelector('a')?.getAttribute('href')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('marks unread items (bar, bold, "unread" said) and shows the dot only while unseen; a click reads', async () => {
    const [unseen] = await sino.seed('c-visual', 1, { seen: false, read: false });
    await sino.seed('c-visual', 1, { seen: true, read: false, content: 'Seen, unread' });
    await sino.seed('c-visual', 1, { seen: true, read: true, content: 'Read' });
    const user = userEvent.setup();
    const urls: string[] = [];
    renderInbox('c-visual', 'center', {}, { onUrlChange: (u) => urls.push(u) });
    await waitFor(() => expect(articles()).toHaveLength(3));
    const byContent = (text: string) => articles().find((a) => a.textContent?.includes(text))!;
    const states = articles().map((a) => ({
      unread: a.classList.contains('sino-item--unread'),
      said: a.querySelector('.sino-visually-hidden')?.textContent ?? null,
      dot: a.querySelector('.sino-item__dot') !== null,
      id: a.getAttribute('data-notification-id'),
    }));
    expect(states.find((s) => s.id === unseen!._id)).toMatchObject({
      unread: true,
      said: 'Unread: ',
      dot: true,
    });
    expect(byContent('Seen, unread').classList.contains('sino-item--unread')).toBe(true);
    expect(byContent('Seen, unread').querySelector('.sino-item__dot')).toBeNull();
    expect(byContent('Read').classList.contains('sino-item--read')).toBe(true);
    expect(byContent('Read').querySelector('.sino-visually-hidden')).toBeNull();

    await user.click(byContent('Message 1'));
    await waitFor(() =>
      expect(byContent('Message 1').classList.contains('sino-item--read')).toBe(true),
    );
    expect(byContent('Message 1').querySelector('.sino-item__dot')).toBeNull();
    expect(urls).toEqual([]);
  });

  it('writes relative times in the active language', async () => {
    await sino.seed('c-time', 1);
    renderInbox('c-time', 'center', { i18n: 'pt-BR' });
    await waitFor(() => expect(articles()).toHaveLength(1));
    await waitFor(() =>
      expect(articles()[0]!.querySelector('time')?.textContent).toBe('há 1 hora'),
    );
  });
});

describe('item menu and actions', () => {
  it('is a menu button: opens on click with focus on its first entry, arrows move, Escape returns focus', async () => {
    await sino.seed('c-menu', 2);
    const user = userEvent.setup();
    renderInbox('c-menu', 'center', { i18n: 'pt-BR' });
    await waitFor(() => expect(articles()).toHaveLength(2));
    await screen.findAllByRole('button', { name: 'Ações da notificação' });
    const first = () => articles()[0]!;
    const button = within(first()).getByRole('button', { name: 'Ações da notificação' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    await user.click(button);
    const menu = within(first()).getByRole('menu');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    const entries = within(menu).getAllByRole('menuitem');
    expect(entries.map((e) => e.textContent)).toEqual([
      'Marcar como lida',
      'Arquivar',
      'Adiar por 1 hora',
      'Adiar até amanhã',
      'Remover mensagem',
    ]);
    expect(document.activeElement).toBe(entries[0]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(entries[1]);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(entries[4]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(entries[0]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(entries[4]);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(entries[0]);
    await user.keyboard('{Escape}');
    expect(within(first()).queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    // The menu's clicks are not the item's: it is still unread.
    expect(first().classList.contains('sino-item--unread')).toBe(true);
  });

  it('marks read, then unread, and removes, from the menu', async () => {
    const [newest] = await sino.seed('c-menu-do', 2);
    const user = userEvent.setup();
    renderInbox('c-menu-do', 'center');
    await waitFor(() => expect(articles()).toHaveLength(2));
    const item = () => articles().find((a) => a.dataset.notificationId === newest!._id);
    const choose = async (entry: string) => {
      await user.click(within(item()!).getByRole('button', { name: 'Notification actions' }));
      await user.click(within(item()!).getByRole('menuitem', { name: entry }));
    };
    await choose('Mark as read');
    await waitFor(() => expect(item()!.classList.contains('sino-item--read')).toBe(true));
    await choose('Mark as unread');
    await waitFor(() => expect(item()!.classList.contains('sino-item--unread')).toBe(true));
    await choose('Remove message');
    await waitFor(() => expect(item()).toBeUndefined());
    expect(articles()).toHaveLength(1);
  });

  it('has no menu when allowedNotificationActions is off', async () => {
    await sino.seed('c-no-menu', 1);
    renderInbox('c-no-menu', 'center', {}, { allowedNotificationActions: false });
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Notification actions' })).toBeNull();
  });

  it('shows action buttons until the action is done, then the result block; a redirect item click changes the URL', async () => {
    await sino.seed('c-actions', 1, {
      content: 'Aceita a troca de carro?',
      cta: {
        type: 'redirect',
        data: { url: '/locacoes/7' },
        action: {
          status: 'pending',
          buttons: [
            { type: 'primary', content: 'Aceitar' },
            { type: 'secondary', content: 'Recusar' },
          ],
        },
      },
    });
    const user = userEvent.setup();
    const clicks: unknown[][] = [];
    const urls: string[] = [];
    renderInbox(
      'c-actions',
      'center',
      {},
      {
        onActionClick: (...args) => clicks.push(args),
        onUrlChange: (url) => urls.push(url),
        actionsResultBlock: (n) => <p>Resposta: {n.cta?.action?.result?.type}</p>,
      },
    );
    await waitFor(() => expect(articles()).toHaveLength(1));
    const accept = screen.getByRole('button', { name: 'Aceitar' });
    expect(screen.getByRole('button', { name: 'Recusar' })).toBeTruthy();
    await user.click(accept);
    await screen.findByText('Resposta: primary');
    expect(screen.queryByRole('button', { name: 'Aceitar' })).toBeNull();
    expect(clicks).toEqual([
      [
        'reservation-booked',
        'primary',
        expect.objectContaining({ content: 'Aceita a troca de carro?' }),
      ],
    ]);
    expect(urls).toEqual([]);
    await user.click(articles()[0]!);
    expect(urls).toEqual(['/locacoes/7']);
    await waitFor(() => expect(articles()[0]!.classList.contains('sino-item--read')).toBe(true));
  });
});

describe('preferences view', () => {
  let created = false;
  async function workflows() {
    if (created) return;
    created = true;
    for (const body of [
      {
        name: 'Devolução',
        identifier: 'devolucao',
        active: true,
        steps: [
          { template: { type: 'in_app', content: 'Devolva o carro' } },
          { template: { type: 'email', subject: 'Devolução', content: 'Devolva o carro' } },
        ],
      },
      {
        name: 'Segurança',
        identifier: 'seguranca',
        active: true,
        critical: true,
        steps: [{ template: { type: 'in_app', content: 'Alerta' } }],
      },
    ]) {
      expect((await sino.api('POST', '/v1/workflows', body)).status).toBe(201);
    }
  }

  it('opens from the cog: accordion per visible workflow, switches per channel, optimistic, "Saved" for 1.5 s, back to the cog', async () => {
    await workflows();
    await sino.seed('c-prefs', 0);
    const user = userEvent.setup();
    renderInbox('c-prefs', 'center', { i18n: 'pt-BR' });
    const cog = await screen.findByRole('button', { name: 'Configurações' });
    await user.click(cog);
    expect(screen.getByRole('heading', { name: 'Configurações' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Voltar/ }));

    const trigger = await screen.findByRole('button', { name: /^Devolução/ });
    // Critical workflows are not listed.
    expect(screen.queryByRole('button', { name: /^Segurança/ })).toBeNull();
    expect(trigger.textContent).toContain('No aplicativo, E-mail');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    await user.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: /^Devolução/ });
    const email = within(panel).getByRole('switch', { name: 'E-mail para Devolução' });
    const inApp = within(panel).getByRole('switch', { name: 'No aplicativo para Devolução' });
    expect(email.getAttribute('aria-checked')).toBe('true');
    // A divider, then per channel a row with its icon (decorative), its label and its switch.
    expect(panel.firstElementChild?.tagName).toBe('HR');
    const rows = [...panel.querySelectorAll('.sino-channel')];
    expect(rows.map((r) => r.querySelector('svg')?.getAttribute('data-channel')).sort()).toEqual([
      'email',
      'in_app',
    ]);
    expect(rows.every((r) => r.querySelector('svg')?.getAttribute('aria-hidden') === 'true')).toBe(
      true,
    );

    await user.click(email);
    // Optimistic, and every switch waits for the answer; the saving row has its overlay.
    expect(email.getAttribute('aria-checked')).toBe('false');
    expect(inApp.getAttribute('aria-disabled')).toBe('true');
    const savingRow = email.closest('.sino-channel')!;
    expect(savingRow.getAttribute('aria-busy')).toBe('true');
    expect(savingRow.querySelector('.sino-channel__overlay')).toBeTruthy();
    expect(inApp.closest('.sino-channel')!.querySelector('.sino-channel__overlay')).toBeNull();
    const saved = await within(panel).findByRole('status');
    const shown = Date.now();
    expect(saved.textContent).toBe('✓ Salvo');
    expect(inApp.getAttribute('aria-disabled')).toBeNull();
    expect(trigger.textContent).toContain('No aplicativo');
    expect(trigger.textContent).not.toContain('E-mail');
    await waitFor(() => expect(within(panel).queryByRole('status')).toBeNull(), {
      timeout: 3000,
    });
    // 1.5 s (found up to one 50 ms poll after it appeared).
    expect(Date.now() - shown).toBeGreaterThanOrEqual(1400);

    await user.click(screen.getByRole('button', { name: /Voltar/ }));
    await screen.findByRole('heading', { name: 'Notificações' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Configurações' }));
  });

  it('opens accordion items independently; each item is valued by its template id', async () => {
    await workflows();
    const created = await sino.api('POST', '/v1/workflows', {
      name: 'Revisão',
      identifier: 'revisao',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Revise o carro' } }],
    });
    const revisaoId = ((await created.json()) as { data: { _id: string } }).data._id;
    await sino.seed('c-accordion', 0);
    const user = userEvent.setup();
    renderInbox('c-accordion', 'center');
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    const devolucao = await screen.findByRole('button', { name: /^Devolução/ });
    const revisao = screen.getByRole('button', { name: /^Revisão/ });
    expect(revisao.closest('section')!.getAttribute('data-value')).toBe(revisaoId);
    await user.click(devolucao);
    await user.click(revisao);
    expect(devolucao.getAttribute('aria-expanded')).toBe('true');
    expect(revisao.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('region')).toHaveLength(2);
    await user.click(devolucao);
    expect(devolucao.getAttribute('aria-expanded')).toBe('false');
    expect(revisao.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region', { name: /^Revisão/ })).toBeTruthy();
  });

  it('puts a switch back, without "Saved", when the save fails', async () => {
    await workflows();
    await sino.seed('c-prefs-fail', 0);
    const user = userEvent.setup();
    renderInbox(
      'c-prefs-fail',
      'center',
      {
        fetch: (input, init) =>
          init?.method === 'PATCH' && String(input).includes('/preferences/')
            ? Promise.reject(new TypeError('fetch failed'))
            : fetch(input, init),
      },
      {},
    );
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    await user.click(await screen.findByRole('button', { name: /^Devolução/ }));
    const inApp = screen.getByRole('switch', { name: 'In-app for Devolução' });
    await user.click(inApp);
    await waitFor(() => expect(inApp.getAttribute('aria-disabled')).toBeNull());
    expect(inApp.getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByText(/Saved/)).toBeNull();
  });

  it('shows its empty state when no workflow is visible, and hides the cog with showUserPreferences off', async () => {
    await workflows();
    await sino.seed('c-prefs-empty', 0);
    const user = userEvent.setup();
    renderInbox('c-prefs-empty', 'center', {}, { preferenceFilter: () => false });
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    await screen.findByText('No notification settings to manage yet');
    cleanup();
    renderInbox('c-prefs-empty', 'center', {}, { showUserPreferences: false });
    await screen.findByRole('heading', { name: 'Notifications' });
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
  });
});

describe('tabs', () => {
  it('switch stores with their own query and count; Arrow keys and Home/End move; no header badge', async () => {
    const feed = await sino.api('POST', '/v1/feeds', { name: 'alertas' });
    expect(feed.status).toBe(201);
    const feedId = ((await feed.json()) as { data: { _id: string } }).data._id;
    await sino.seed('c-tabs', 2);
    await sino.seed('c-tabs', 3, { feedId, content: 'Alerta' });
    const user = userEvent.setup();
    const clicked: string[] = [];
    renderInbox(
      'c-tabs',
      'center',
      {
        stores: [
          { storeId: 'default_store' },
          { storeId: 'alertas', query: { feedIdentifier: 'alertas' } },
        ],
      },
      {
        tabs: [
          { name: 'Tudo', storeId: 'default_store' },
          { name: 'Alertas', storeId: 'alertas' },
        ],
        onTabClick: (tab) => clicked.push(tab.storeId),
      },
    );
    // Counts arrive after the session: waited for.
    const all = await screen.findByRole('tab', { name: 'Tudo 5' }, { timeout: 5000 });
    const alerts = await screen.findByRole('tab', { name: 'Alertas 3' });
    expect(all.getAttribute('aria-selected')).toBe('true');
    expect(alerts.getAttribute('tabIndex')).toBe('-1');
    await waitFor(() => expect(articles()).toHaveLength(5));
    expect(screen.getByRole('tabpanel', { name: 'Tudo 5' })).toBeTruthy();
    expect(screen.queryByTestId('sino-header-badge')).toBeNull();

    await user.click(alerts);
    expect(alerts.getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(articles()).toHaveLength(3));
    expect(articles().every((a) => a.textContent?.includes('Alerta'))).toBe(true);
    expect(clicked).toEqual(['alertas']);

    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(all);
    expect(all.getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(articles()).toHaveLength(5));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(alerts);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(all);
  });
});

describe('states', () => {
  it('shows the loader until the first page, then the empty state in the active language', async () => {
    await sino.seed('c-empty', 0);
    renderInbox('c-empty', 'center', { i18n: 'pt-BR' });
    // First render: no page yet (English shows until pt-BR is loaded).
    const loader = screen.getByText('Loading…').closest('.sino-loader');
    expect(loader?.getAttribute('role')).toBe('status');
    await screen.findByText('Nada de novo por aqui ainda');
    expect(document.querySelector('.sino-loader')).toBeNull();
    expect(document.querySelector('.sino')?.getAttribute('lang')).toBe('pt-BR');
  });

  it('sets dir="rtl" on the root in Arabic', async () => {
    await sino.seed('c-rtl', 0);
    renderInbox('c-rtl', 'center', { i18n: 'ar' });
    await screen.findByText('لا جديد هنا حتى الآن');
    expect(document.querySelector('.sino')?.getAttribute('dir')).toBe('rtl');
  });
});

describe('live region', () => {
  it('politely announces notifications that arrive over the socket, not the first load', async () => {
    const created = await sino.api('POST', '/v1/workflows', {
      name: 'Chegada',
      identifier: 'chegada',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Carro pronto' } }],
    });
    expect(created.status).toBe(201);
    await sino.seed('c-live', 1);
    renderInbox('c-live', 'center', { i18n: 'pt-BR' });
    await waitFor(() => expect(articles()).toHaveLength(1));
    const region = document.querySelector('[aria-live="polite"]')!;
    expect(region.textContent).toBe('');
    await waitFor(() => expect(document.querySelector('.sino-center')).toBeTruthy());
    // The socket must be up before the trigger, or its event is missed.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 300));
    });
    const r = await sino.api('POST', '/v1/events/trigger', { name: 'chegada', to: 'c-live' });
    expect(r.status).toBe(201);
    await waitFor(() => expect(articles()).toHaveLength(2), { timeout: 8000 });
    expect(region.textContent).toBe('1 nova notificação');
  });
});

describe('section 9 sizes and timings, as rendered', () => {
  it('header 55 px, loader at least 300 px, empty state at least 350 px, light theme by default', async () => {
    await sino.seed('c-sizes-empty', 0);
    renderInbox('c-sizes-empty', 'center');
    const loader = document.querySelector<HTMLElement>('.sino-loader')!;
    expect(loader.style.minHeight).toBe('300px');
    const empty = (await screen.findByText('Nothing new to see here yet')).closest<HTMLElement>(
      '.sino-empty',
    )!;
    expect(empty.style.minHeight).toBe('350px');
    expect(document.querySelector<HTMLElement>('.sino-header')!.style.height).toBe('55px');
    expect(document.querySelector('.sino')!.classList.contains('sino--light')).toBe(true);
  });

  it('list 400 px high, action buttons 30 px, long dates on hover', async () => {
    await sino.seed('c-sizes-list', 1, {
      cta: {
        type: 'redirect',
        data: {},
        action: { status: 'pending', buttons: [{ type: 'primary', content: 'Ver' }] },
      },
    });
    const user = userEvent.setup();
    renderInbox('c-sizes-list', 'popover');
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unseen' }));
    // (The popover's 8 px below the bell is measured in a browser: e2e/sino-posicao.spec.ts.)
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(document.querySelector<HTMLElement>('.sino-list')!.style.height).toBe('400px');
    expect(screen.getByRole('button', { name: 'Ver' }).style.height).toBe('30px');
    // The timestamp's tooltip: the default date format, 'MMMM D, YYYY'.
    const time = articles()[0]!.querySelector('time')!;
    expect(time.getAttribute('title')).toMatch(
      /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}$/,
    );
  });

  it('preferences: scroll area 400 px, rows at least 65 px, empty state at least 400 px', async () => {
    const created = await sino.api('POST', '/v1/workflows', {
      name: 'Pagamento',
      identifier: 'pagamento',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Pago' } }],
    });
    expect(created.status).toBe(201);
    await sino.seed('c-sizes-prefs', 0);
    const user = userEvent.setup();
    renderInbox('c-sizes-prefs', 'center');
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    const trigger = await screen.findByRole('button', { name: /^Pagamento/ });
    expect(trigger.style.minHeight).toBe('65px');
    expect(document.querySelector<HTMLElement>('.sino-preferences')!.style.height).toBe('400px');
    cleanup();
    renderInbox('c-sizes-prefs', 'center', {}, { preferenceFilter: () => false });
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    const empty = (await screen.findByText('No notification settings to manage yet')).closest(
      '.sino-empty',
    ) as HTMLElement;
    expect(empty.style.minHeight).toBe('400px');
  });

  it('the item menu closes 100 ms after the pointer leaves it, not before', async () => {
    await sino.seed('c-menu-delay', 1);
    const user = userEvent.setup();
    renderInbox('c-menu-delay', 'center');
    await waitFor(() => expect(articles()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Notification actions' }));
    const menuBox = articles()[0]!.querySelector('.sino-item-menu')!;
    expect(screen.getByRole('menu')).toBeTruthy();
    const left = Date.now();
    fireEvent.mouseLeave(menuBox);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getByRole('menu')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(Date.now() - left).toBeGreaterThanOrEqual(100);
    // Coming back within the delay keeps it open.
    await user.click(screen.getByRole('button', { name: 'Notification actions' }));
    fireEvent.mouseLeave(menuBox);
    fireEvent.mouseEnter(menuBox);
    await act(() => new Promise((r) => setTimeout(r, 200)));
    expect(screen.getByRole('menu')).toBeTruthy();
  });

  it('checks the scroll position at most every 150 ms, a scroll inside that time when it is up, and shows the scrollbar until 600 ms after scrolling', async () => {
    await sino.seed('c-throttle', 15);
    const pages: string[] = [];
    renderInbox('c-throttle', 'center', {
      fetch: (input, init) => {
        const url = new URL(String(input));
        if (url.pathname.endsWith('/notifications/feed')) pages.push(url.searchParams.get('page')!);
        return fetch(input, init);
      },
    });
    await waitFor(() => expect(articles()).toHaveLength(10));
    const area = document.querySelector<HTMLElement>('.sino-list')!;
    Object.defineProperty(area, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(area, 'clientHeight', { configurable: true, value: 400 });
    expect(area.classList.contains('sino-list--scrolling')).toBe(false);
    area.scrollTop = 100;
    fireEvent.scroll(area, { timeStamp: 50_000 });
    const scrolled = Date.now();
    expect(area.classList.contains('sino-list--scrolling')).toBe(true);
    // 50 and 100 ms later, past 80 %: inside the 150 ms, not checked at once…
    area.scrollTop = 500;
    fireEvent.scroll(area, { timeStamp: 50_050 });
    fireEvent.scroll(area, { timeStamp: 50_100 });
    expect(pages).toEqual(['0']);
    // …but once they are up (the place where scrolling stopped), and once only.
    await waitFor(() => expect(articles()).toHaveLength(15));
    expect(pages).toEqual(['0', '1']);
    // The scrollbar stays while scrolling goes on…
    fireEvent.scroll(area, { timeStamp: 50_400 });
    expect(area.classList.contains('sino-list--scrolling')).toBe(true);
    await waitFor(() => expect(area.classList.contains('sino-list--scrolling')).toBe(false));
    expect(Date.now() - scrolled).toBeGreaterThanOrEqual(600);
    // Nothing more to load: no further page is asked for.
    expect(pages).toEqual(['0', '1']);
  });
});
