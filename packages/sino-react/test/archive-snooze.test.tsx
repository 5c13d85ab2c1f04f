// @vitest-environment jsdom
import { act, cleanup, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@sino/js';
import {
  NotificationCenter,
  SinoProvider,
  itemMenuEntries,
  snoozeTimes,
  useArchive,
  useNotifications,
  useOutOfInbox,
  useSnooze,
  type SinoProviderProps,
} from '../src/index.js';
import { english, snoozedUntilText } from '../src/i18n/index.js';
import { articles, isOnline, renderInbox, until } from './render-inbox.js';
import { MemoryStorage, startSino, type SinoServer } from './sino-server.js';

/**
 * Archive and snooze (Sino's additions to Novu's widget API, docs/decisions/019) in the widget:
 * the items' menu entries, the header's "More actions" menu, the "Archived" and "Snoozed" views
 * and the hooks, against a listening Sino, in jsdom.
 */
let sino: SinoServer;
beforeAll(async () => {
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

const byContent = (text: string) => {
  const found = articles().find((a) => a.textContent?.includes(text));
  if (!found) throw new Error(`no item "${text}"`);
  return found;
};
const shortTime = (date: Date) =>
  new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(date);
const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

async function pick(user: ReturnType<typeof userEvent.setup>, item: HTMLElement, entry: string) {
  await user.click(within(item).getByRole('button', { name: 'Notification actions' }));
  await user.click(within(item).getByRole('menuitem', { name: entry }));
}

async function openFromHeader(user: ReturnType<typeof userEvent.setup>, entry: string) {
  await user.click(screen.getByRole('button', { name: 'More actions' }));
  await user.click(screen.getByRole('menuitem', { name: entry }));
}

describe('item menu entries', () => {
  it('adds "Archive", "Snooze for 1 hour" and "Snooze until tomorrow" between mark read/unread and "Remove message"', async () => {
    await sino.seed('a-entries', 1, { seen: true, read: true, content: 'Lida' });
    await sino.seed('a-entries', 1, { content: 'Nova' });
    const user = userEvent.setup();
    renderInbox(sino, 'a-entries', 'center');
    await waitFor(() => expect(articles()).toHaveLength(2));
    const entries = async (text: string) => {
      await user.click(
        within(byContent(text)).getByRole('button', { name: 'Notification actions' }),
      );
      const names = within(byContent(text))
        .getAllByRole('menuitem')
        .map((e) => e.textContent);
      await user.keyboard('{Escape}');
      return names;
    };
    expect(await entries('Nova')).toEqual([
      'Mark as read',
      'Archive',
      'Snooze for 1 hour',
      'Snooze until tomorrow',
      'Remove message',
    ]);
    expect(await entries('Lida')).toEqual([
      'Mark as unread',
      'Archive',
      'Snooze for 1 hour',
      'Snooze until tomorrow',
      'Remove message',
    ]);
  });

  it('hides them, and their header entries, with allowArchive or allowSnooze off; no "More actions" with both off', async () => {
    await sino.seed('a-allow', 1);
    const user = userEvent.setup();
    const headerEntries = async () => {
      await user.click(screen.getByRole('button', { name: 'More actions' }));
      const names = screen.getAllByRole('menuitem').map((e) => e.textContent);
      await user.keyboard('{Escape}');
      return names;
    };
    const itemEntries = async () => {
      await user.click(screen.getByRole('button', { name: 'Notification actions' }));
      const names = screen.getAllByRole('menuitem').map((e) => e.textContent);
      await user.keyboard('{Escape}');
      return names;
    };

    renderInbox(sino, 'a-allow', 'center', {}, { allowArchive: false });
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(await itemEntries()).toEqual([
      'Mark as read',
      'Snooze for 1 hour',
      'Snooze until tomorrow',
      'Remove message',
    ]);
    expect(await headerEntries()).toEqual(['Snoozed']);
    cleanup();

    renderInbox(sino, 'a-allow', 'center', {}, { allowSnooze: false });
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(await itemEntries()).toEqual(['Mark as read', 'Archive', 'Remove message']);
    expect(await headerEntries()).toEqual(['Archive read', 'Archived']);
    cleanup();

    renderInbox(sino, 'a-allow', 'center', {}, { allowArchive: false, allowSnooze: false });
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(await itemEntries()).toEqual(['Mark as read', 'Remove message']);
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Settings' })).toBeTruthy();
  });

  it('snoozes for one hour, or until 09:00 tomorrow in the local time zone, taken when picked', () => {
    const late = new Date(2026, 2, 7, 23, 30);
    expect(snoozeTimes(late)).toEqual({
      oneHour: new Date(2026, 2, 8, 0, 30),
      tomorrow: new Date(2026, 2, 8, 9, 0, 0, 0),
    });
    // The last day of a month.
    expect(snoozeTimes(new Date(2026, 0, 31, 8)).tomorrow).toEqual(new Date(2026, 1, 1, 9));
    const asked: Date[] = [];
    const message = { _id: 'm', seen: false, read: false } as Message;
    const entries = itemMenuEntries(
      message,
      {
        markAsRead: () => {},
        markAsUnread: () => {},
        remove: () => {},
        snooze: (until) => asked.push(until),
      },
      (key) => english.translations[key],
    );
    const before = Date.now();
    entries.find((e) => e.label === 'Snooze for 1 hour')!.onSelect();
    entries.find((e) => e.label === 'Snooze until tomorrow')!.onSelect();
    expect(asked[0]!.getTime() - before).toBeGreaterThanOrEqual(3600_000);
    expect(asked[0]!.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    expect(asked[1]).toEqual(
      new Date(tomorrow.getFullYear(), tomorrow.getMonth(), tomorrow.getDate(), 9),
    );
  });
});

describe('header menu', () => {
  it('is a menu button named "More actions" beside an unchanged header: "Archive read", "Archived", "Snoozed", with the item menu\'s keys', async () => {
    await sino.seed('a-header', 2);
    const user = userEvent.setup();
    renderInbox(sino, 'a-header', 'center', { i18n: 'pt-BR' });
    await waitFor(() => expect(articles()).toHaveLength(2));
    // Title, badge, mark all as read and the cog keep their roles and names.
    expect(screen.getByRole('heading', { name: 'Notificações' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('sino-header-badge').textContent).toBe('2'));
    expect(screen.getByRole('button', { name: 'Marcar todas como lidas' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Configurações' })).toBeTruthy();

    const button = screen.getByRole('button', { name: 'Mais ações' });
    expect(button.closest('.sino-header')).toBeTruthy();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.focus();
    await user.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'Mais ações' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    const entries = within(menu).getAllByRole('menuitem');
    expect(entries.map((e) => e.textContent)).toEqual(['Arquivar lidas', 'Arquivadas', 'Adiadas']);
    expect(document.activeElement).toBe(entries[0]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(entries[2]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(entries[0]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('host header', () => {
  it('gets archiveRead, openArchived and openSnoozed (not when disallowed), and focus comes back to its button', async () => {
    await sino.seed('a-host-header', 1, { seen: true, read: true, content: 'Lida' });
    await sino.seed('a-host-header', 1, { content: 'Nova' });
    const user = userEvent.setup();
    const header: NonNullable<Parameters<typeof renderInbox>[4]>['header'] = (h) => (
      <div>
        <h2 id={h.titleId}>Avisos</h2>
        {h.archiveRead && (
          <button type="button" onClick={h.archiveRead}>
            Arquivar lidas
          </button>
        )}
        {h.openArchived && (
          <button type="button" ref={h.moreActionsButtonRef} onClick={h.openArchived}>
            Ver arquivo
          </button>
        )}
        {h.openSnoozed && (
          <button type="button" onClick={h.openSnoozed}>
            Ver adiadas
          </button>
        )}
      </div>
    );
    renderInbox(sino, 'a-host-header', 'center', {}, { header });
    await waitFor(() => expect(articles()).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Arquivar lidas' }));
    await waitFor(() => expect(articles()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Ver arquivo' }));
    const archive = await screen.findByRole('feed', { name: 'Archived' });
    expect(within(archive).getAllByRole('article')[0]!.textContent).toContain('Lida');
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await screen.findByRole('heading', { name: 'Avisos' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Ver arquivo' }));
    await user.click(screen.getByRole('button', { name: 'Ver adiadas' }));
    await screen.findByText('Nothing snoozed');
    cleanup();

    renderInbox(sino, 'a-host-header', 'center', {}, { header, allowArchive: false });
    await screen.findByRole('heading', { name: 'Avisos' });
    expect(screen.queryByRole('button', { name: 'Arquivar lidas' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ver arquivo' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Ver adiadas' })).toBeTruthy();
  });
});

describe('archive, against Sino', () => {
  it('archives from the item menu: gone from the feed and the count, listed under "Archived"; "Move to inbox" brings it back', async () => {
    await sino.seed('a-archive', 3);
    const user = userEvent.setup();
    renderInbox(sino, 'a-archive', 'center');
    await waitFor(() => expect(articles()).toHaveLength(3));
    await waitFor(() => expect(screen.getByTestId('sino-header-badge').textContent).toBe('3'));

    // With the keyboard: the focus goes on to the next item once this one is gone.
    const middle = byContent('Message 2');
    within(middle).getByRole('button', { name: 'Notification actions' }).focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Archive');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(articles()).toHaveLength(2));
    expect(articles().map((a) => a.textContent)).not.toContain(
      expect.stringContaining('Message 2'),
    );
    await waitFor(() => expect(document.activeElement).toBe(byContent('Message 1')));
    await waitFor(() => expect(screen.getByTestId('sino-header-badge').textContent).toBe('2'));

    await openFromHeader(user, 'Archived');
    expect(screen.getByRole('heading', { name: 'Archived' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Back/ }));
    const archive = await screen.findByRole('feed', { name: 'Archived' });
    const archived = within(archive).getAllByRole('article');
    expect(archived).toHaveLength(1);
    expect(archived[0]!.textContent).toContain('Message 2');
    // The feed's item look: unread bar, time.
    expect(archived[0]!.classList.contains('sino-item--unread')).toBe(true);
    expect(archived[0]!.querySelector('time')).toBeTruthy();
    await user.click(within(archived[0]!).getByRole('button', { name: 'Notification actions' }));
    expect(
      within(archived[0]!)
        .getAllByRole('menuitem')
        .map((e) => e.textContent),
    ).toEqual(['Move to inbox', 'Remove message']);
    await user.click(within(archived[0]!).getByRole('menuitem', { name: 'Move to inbox' }));
    await screen.findByText('Nothing archived');
    // Focus stays in the view (its body), not lost to the page.
    await waitFor(() =>
      expect(document.activeElement?.classList.contains('sino-out-of-inbox')).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: /Back/ }));
    await screen.findByRole('heading', { name: 'Notifications' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'More actions' }));
    await waitFor(() => expect(articles()).toHaveLength(3));
    expect(byContent('Message 2').classList.contains('sino-item--unread')).toBe(true);
    await waitFor(() => expect(screen.getByTestId('sino-header-badge').textContent).toBe('3'));
  });

  it('"Archive read" archives every read message and keeps the unread; the archive removes for good', async () => {
    await sino.seed('a-archive-read', 2, { seen: true, read: true, content: 'Lida' });
    await sino.seed('a-archive-read', 2, { content: 'Nova' });
    const user = userEvent.setup();
    renderInbox(sino, 'a-archive-read', 'center');
    await waitFor(() => expect(articles()).toHaveLength(4));
    await openFromHeader(user, 'Archive read');
    await waitFor(() => expect(articles()).toHaveLength(2));
    expect(articles().every((a) => a.textContent?.includes('Nova'))).toBe(true);

    await openFromHeader(user, 'Archived');
    const archive = await screen.findByRole('feed', { name: 'Archived' });
    await waitFor(() => expect(within(archive).getAllByRole('article')).toHaveLength(2));
    const first = within(archive).getAllByRole('article')[0]!;
    expect(first.textContent).toContain('Lida');
    expect(first.classList.contains('sino-item--read')).toBe(true);
    await pick(user, first, 'Remove message');
    await waitFor(() => expect(within(archive).getAllByRole('article')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(articles()).toHaveLength(2));
  });
});

describe('snooze, against Sino', () => {
  it('snoozes for 1 hour and until tomorrow: gone from the feed, listed soonest first with their return times; "Show now" brings one back', async () => {
    await sino.seed('a-snooze', 3);
    const user = userEvent.setup();
    renderInbox(sino, 'a-snooze', 'center');
    await waitFor(() => expect(articles()).toHaveLength(3));

    await pick(user, byContent('Message 3'), 'Snooze until tomorrow');
    await waitFor(() => expect(articles()).toHaveLength(2));
    const before = new Date(Date.now() + 3600_000);
    await pick(user, byContent('Message 1'), 'Snooze for 1 hour');
    await waitFor(() => expect(articles()).toHaveLength(1));
    const after = new Date(Date.now() + 3600_000);
    expect(articles()[0]!.textContent).toContain('Message 2');

    await openFromHeader(user, 'Snoozed');
    expect(screen.getByRole('heading', { name: 'Snoozed' })).toBeTruthy();
    const snoozed = await screen.findByRole('feed', { name: 'Snoozed' });
    await waitFor(() => expect(within(snoozed).getAllByRole('article')).toHaveLength(2));
    const [soon, tomorrow] = within(snoozed).getAllByRole('article');
    expect(soon!.textContent).toContain('Message 1');
    expect(tomorrow!.textContent).toContain('Message 3');
    // 09:00 tomorrow, the local time; the note is part of the item's name.
    const note = (item: HTMLElement) => item.querySelector('.sino-item__note')?.textContent;
    expect(note(tomorrow!)).toBe(`Back tomorrow at ${shortTime(new Date(2026, 0, 1, 9))}`);
    expect(tomorrow!.getAttribute('aria-labelledby')).toContain('-note');
    // An hour from the click (the minute may have turned meanwhile).
    const day = (d: Date) => (sameDay(d, new Date()) ? 'today' : 'tomorrow');
    expect([before, after].map((d) => `Back ${day(d)} at ${shortTime(d)}`)).toContain(note(soon!));

    await pick(user, soon!, 'Show now');
    await waitFor(() => expect(within(snoozed).getAllByRole('article')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(articles()).toHaveLength(2));
    expect(byContent('Message 1')).toBeTruthy();
  });

  it('a short snooze comes back unread on its own, over the socket, and leaves the open "Snoozed" view', async () => {
    await sino.seed('a-wake', 2, { seen: true, read: true });
    const user = userEvent.setup();
    let snooze: ((id: string, until: Date) => Promise<unknown>) | undefined;
    function Snoozer() {
      snooze = useSnooze().snooze;
      return null;
    }
    render(
      <SinoProvider
        backendUrl={sino.url}
        applicationIdentifier={sino.applicationIdentifier}
        subscriberId="a-wake"
        subscriberHash={sino.subscriberHash('a-wake')}
        storage={new MemoryStorage()}
        logger={{ error: () => {} }}
      >
        <Snoozer />
        <NotificationCenter />
      </SinoProvider>,
    );
    await waitFor(() => expect(articles()).toHaveLength(2));
    // The socket must be up to hear the message come back.
    await until(() => isOnline(sino, 'a-wake'));
    const newest = articles()[0]!;
    const id = newest.getAttribute('data-notification-id')!;
    expect(newest.classList.contains('sino-item--read')).toBe(true);
    await act(async () => {
      await snooze!(id, new Date(Date.now() + 1500));
    });
    await waitFor(() => expect(articles()).toHaveLength(1));

    await openFromHeader(user, 'Snoozed');
    const snoozed = await screen.findByRole('feed', { name: 'Snoozed' });
    expect(within(snoozed).getAllByRole('article')).toHaveLength(1);
    expect(snoozed.querySelector('.sino-item__note')?.textContent).toMatch(
      /^Back (today|tomorrow) at /,
    );
    // Woken by Sino's queue: the counts change over the socket, the view reads itself again.
    await screen.findByText('Nothing snoozed', undefined, { timeout: 10_000 });

    await user.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(articles()).toHaveLength(2));
    const back = articles().find((a) => a.getAttribute('data-notification-id') === id)!;
    expect(back.classList.contains('sino-item--unread')).toBe(true);
    // Unseen again: the dot, and the badge counts it.
    expect(back.querySelector('.sino-item__dot')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('sino-header-badge').textContent).toBe('1'));
  });
});

describe('return time', () => {
  it('says when a snoozed message comes back in the active language, through Intl', () => {
    const now = new Date(2026, 2, 10, 14, 0);
    const pt = { backToday: 'Volta hoje às {time}', backTomorrow: 'Volta amanhã às {time}' };
    const t = { ...pt, backOn: 'Volta em {date}' };
    expect(snoozedUntilText(t, new Date(2026, 2, 10, 15, 30), now, 'pt-BR')).toBe(
      'Volta hoje às 15:30',
    );
    expect(snoozedUntilText(t, new Date(2026, 2, 11, 9), now, 'pt-BR')).toBe(
      'Volta amanhã às 09:00',
    );
    expect(snoozedUntilText(t, new Date(2026, 2, 20, 9), now, 'pt-BR')).toBe(
      'Volta em 20 de março de 2026 às 09:00',
    );
    expect(snoozedUntilText(english.translations, new Date(2026, 2, 11, 9), now, 'en')).toBe(
      `Back tomorrow at ${shortTime(new Date(2026, 2, 11, 9))}`,
    );
    expect(snoozedUntilText(t, 'not a date', now, 'pt-BR')).toBe('');
  });
});

describe('hooks', () => {
  type Props = Partial<SinoProviderProps> & { subscriberId: string };
  function renderWithSino<T>(hook: () => T, props: Props) {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <SinoProvider
        backendUrl={sino.url}
        applicationIdentifier={sino.applicationIdentifier}
        subscriberHash={sino.subscriberHash(props.subscriberId)}
        storage={new MemoryStorage()}
        logger={{ error: () => {} }}
        {...props}
      >
        {children}
      </SinoProvider>
    );
    return renderHook(hook, { wrapper });
  }

  it('useOutOfInbox pages the archive and the snoozed messages and is refetched after useArchive and useSnooze', async () => {
    await sino.seed('a-hooks', 12);
    const { result } = renderWithSino(
      () => ({
        feed: useNotifications(),
        archived: useOutOfInbox('archived'),
        snoozed: useOutOfInbox('snoozed'),
        ...useArchive(),
        ...useSnooze(),
      }),
      { subscriberId: 'a-hooks', initialFetchingStrategy: { fetchNotifications: true } },
    );
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(10));
    await waitFor(() => expect(result.current.archived.status).toBe('success'));
    expect(result.current.archived.notifications).toEqual([]);
    expect(result.current.archived.hasMore).toBe(false);

    // Eleven archived, one at a time from the top of the feed: a page of ten, then one more.
    for (let i = 0; i < 11; i++) {
      const top = result.current.feed.notifications[0]!._id;
      await act(async () => {
        await result.current.archive(top);
      });
      await waitFor(() => expect(result.current.feed.notifications[0]?._id).not.toBe(top));
    }
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(1));
    await waitFor(() => expect(result.current.archived.notifications).toHaveLength(10));
    expect(result.current.archived.hasMore).toBe(true);
    await act(() => result.current.archived.fetchNextPage());
    expect(result.current.archived.notifications).toHaveLength(11);
    expect(result.current.archived.hasMore).toBe(false);

    // Newest archived first; unarchived, it leaves the (refetched) pages.
    const last = result.current.archived.notifications[0]!._id;
    await act(async () => {
      await result.current.unarchive(last);
    });
    await waitFor(() => expect(result.current.archived.notifications).toHaveLength(10));
    expect(result.current.archived.notifications.map((m) => m._id)).not.toContain(last);
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(2));
    const more = result.current.feed.notifications.map((m) => m._id);

    const until = new Date(Date.now() + 3600_000);
    await act(async () => {
      await result.current.snooze(more[1]!, until);
    });
    await waitFor(() => expect(result.current.snoozed.notifications).toHaveLength(1));
    expect(result.current.snoozed.notifications[0]).toMatchObject({
      _id: more[1],
      snoozedUntil: until.toISOString(),
    });
    expect(result.current.feed.notifications.map((m) => m._id)).toEqual([more[0]]);
    await act(async () => {
      await result.current.unsnooze(more[1]!);
    });
    await waitFor(() => expect(result.current.snoozed.notifications).toEqual([]));
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(2));
  });
});

describe('item content', () => {
  it('gives the content its own direction: a Portuguese sentence keeps its punctuation inside an Arabic widget', async () => {
    await sino.seed('a-dir', 1, { content: 'Sua reserva LOC-000123 foi confirmada.' });
    renderInbox(sino, 'a-dir', 'center', { i18n: 'ar' });
    await waitFor(() => expect(articles()).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.sino')?.getAttribute('dir')).toBe('rtl'));
    const content = articles()[0]!.querySelector('.sino-item__content')!;
    expect(content.getAttribute('dir')).toBe('auto');
    expect(content.textContent).toBe('Sua reserva LOC-000123 foi confirmada.');
  });
});
