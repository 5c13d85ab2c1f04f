// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@sino/js';
import { SYSTEM_ICON_NAMES, poweredByText, safeImageUrl } from '../src/index.js';
import { articles, renderInbox, until } from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/**
 * The footer, the actors' avatars and icons, and every host callback and slot of the spec's
 * section 2, against a listening Sino, in jsdom.
 */
let sino: SinoServer;
beforeAll(async () => {
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

describe('footer', () => {
  it('says "Powered by Sino" as one link to the provider, opening in a new tab without a handle on the page', async () => {
    await sino.seed('s-footer', 0);
    renderInbox(sino, 's-footer', 'center');
    const link = await screen.findByRole('link', { name: 'Powered by Sino (opens in a new tab)' });
    // By default the Sino the widget talks to.
    expect(link.getAttribute('href')).toBe(sino.url);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.closest('.sino-footer')).toBeTruthy();
    cleanup();

    renderInbox(sino, 's-footer', 'center', {}, { poweredByUrl: 'https://sino.example.org/' });
    const custom = await screen.findByRole('link', { name: /^Powered by Sino/ });
    expect(custom.getAttribute('href')).toBe('https://sino.example.org/');
  });

  it('joins the label and the name as each language writes it', () => {
    expect(poweredByText('Powered by')).toBe('Powered by Sino');
    expect(poweredByText('技术支持：')).toBe('技术支持：Sino');
    expect(poweredByText('Kunikwe amandla ngu-')).toBe('Kunikwe amandla ngu-Sino');
  });

  it("is replaced by the host's footer in both views, or by nothing", async () => {
    await sino.seed('s-footer-host', 0);
    const user = userEvent.setup();
    renderInbox(sino, 's-footer-host', 'center', {}, { footer: () => <p>Locadora ajuda</p> });
    await screen.findByText('Locadora ajuda');
    expect(screen.queryByRole('link', { name: /Sino/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    await screen.findByRole('heading', { name: 'Settings' });
    expect(screen.getByText('Locadora ajuda')).toBeTruthy();
    cleanup();

    renderInbox(sino, 's-footer-host', 'center', {}, { footer: () => null });
    await screen.findByText('Nothing new to see here yet');
    expect(document.querySelector('.sino-footer')).toBeNull();
  });
});

describe('actor avatars and icons', () => {
  const avatarOf = (text: string) => {
    const article = articles().find((a) => a.textContent?.includes(text));
    if (!article) throw new Error(`no item "${text}"`);
    return article.querySelector<HTMLElement>('.sino-avatar');
  };

  it('draws each system icon inline, 40 px, coloured per icon, hidden from screen readers', async () => {
    for (const name of SYSTEM_ICON_NAMES)
      await sino.seed('s-icons', 1, {
        content: `Ícone ${name}`,
        actor: { type: 'system_icon', data: name },
      });
    await sino.seed('s-icons', 1, {
      content: 'Ícone desconhecido',
      actor: { type: 'system_icon', data: 'rocket' },
    });
    await sino.seed('s-icons', 1, { content: 'Sem ator', actor: { type: 'none', data: null } });
    renderInbox(sino, 's-icons', 'center', {
      stores: [{ storeId: 'default_store', query: { limit: 20 } }],
    });
    await waitFor(() => expect(articles()).toHaveLength(8));
    for (const name of SYSTEM_ICON_NAMES) {
      const avatar = avatarOf(`Ícone ${name}`)!;
      expect(avatar.classList.contains(`sino-avatar--${name}`)).toBe(true);
      expect(avatar.getAttribute('aria-hidden')).toBe('true');
      expect(avatar.querySelector(`svg[data-icon="${name}"] path`)).toBeTruthy();
      expect(avatar.style.width).toBe('40px');
      expect(avatar.style.height).toBe('40px');
      expect(avatar.closest('article')!.classList.contains('sino-item--with-avatar')).toBe(true);
    }
    // Drawn by us: no picture is fetched for an icon.
    expect(document.querySelector('.sino-list img')).toBeNull();
    expect(avatarOf('Ícone desconhecido')!.classList.contains('sino-avatar--generic')).toBe(true);
    expect(avatarOf('Sem ator')).toBeNull();
    const plain = articles().find((a) => a.textContent?.includes('Sem ator'))!;
    expect(plain.classList.contains('sino-item--with-avatar')).toBe(false);
    // The icon adds nothing to the item's name.
    expect(
      screen.getByRole('article', { name: /^Unread: ?Ícone warning$/ }).querySelector('svg'),
    ).toBeTruthy();
  });

  it("shows a user actor's avatar the feed gives (decorative), and the generic avatar when it fails to load", async () => {
    const workflow = await sino.api('POST', '/v1/workflows', {
      name: 'Vistoria',
      identifier: 'vistoria-pronta',
      active: true,
      steps: [
        {
          template: {
            type: 'in_app',
            content: 'A vistoria do seu carro foi concluída',
            actor: { type: 'user' },
          },
        },
      ],
    });
    expect(workflow.status).toBe(201);
    const avatar = 'https://fotos.example/vistoriadora.png';
    await sino.seed('s-actor', 0);
    const trigger = await sino.api('POST', '/v1/events/trigger', {
      name: 'vistoria-pronta',
      to: 's-actor',
      actor: { subscriberId: 's-vistoriadora', avatar },
    });
    expect(trigger.status).toBe(201);
    await until(async () => {
      const r = await sino.api('GET', '/v1/subscribers/s-actor/notifications/feed');
      return ((await r.json()) as { data: unknown[] }).data.length === 1;
    });
    // The host allows the pictures' origin (none but the page's own by default).
    renderInbox(sino, 's-actor', 'center', { allowedImageOrigins: ['https://fotos.example'] });
    await waitFor(() => expect(articles()).toHaveLength(1));
    const img = articles()[0]!.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(avatar);
    expect(img.getAttribute('alt')).toBe('');
    expect(img.getAttribute('width')).toBe('40');
    expect(img.getAttribute('referrerpolicy')).toBe('no-referrer');
    // An <img alt=""> is presentational: the article is named by its text alone.
    expect(
      screen.getByRole('article', { name: /^Unread: ?A vistoria do seu carro foi concluída$/ }),
    ).toBeTruthy();

    // The picture's host fails it: the generic avatar takes its place.
    fireEvent.error(img);
    expect(articles()[0]!.querySelector('img')).toBeNull();
    const generic = articles()[0]!.querySelector('.sino-avatar--generic')!;
    expect(generic.getAttribute('aria-hidden')).toBe('true');
  });

  it('shows a custom system image, and the generic avatar for a user without one or an unsafe URL', async () => {
    await sino.seed('s-custom', 1, {
      content: 'Logo da Locadora',
      actor: { type: 'system_custom', data: 'https://cdn.example/locadora.png' },
    });
    await sino.seed('s-custom', 1, { content: 'Sem foto', actor: { type: 'user', data: null } });
    await sino.seed('s-custom', 1, {
      content: 'Endereço inseguro',
      actor: { type: 'system_custom', data: 'javascript:alert(1)' },
    });
    renderInbox(sino, 's-custom', 'center', { allowedImageOrigins: ['https://cdn.example'] });
    await waitFor(() => expect(articles()).toHaveLength(3));
    const byText = (text: string) => articles().find((a) => a.textContent?.includes(text))!;
    expect(byText('Logo da Locadora').querySelector('img')?.getAttribute('src')).toBe(
      'https://cdn.example/locadora.png',
    );
    expect(byText('Sem foto').querySelector('.sino-avatar--generic')).toBeTruthy();
    expect(byText('Endereço inseguro').querySelector('img')).toBeNull();
    expect(byText('Endereço inseguro').querySelector('.sino-avatar--generic')).toBeTruthy();
  });

  it('loads no avatar from an origin the host did not allow: the generic avatar shows instead', async () => {
    await sino.seed('s-avatar-origin', 1, {
      content: 'Logo de fora',
      actor: { type: 'system_custom', data: 'https://cdn.example/locadora.png' },
    });
    await sino.seed('s-avatar-origin', 1, {
      content: 'Logo da casa',
      actor: { type: 'system_custom', data: '/logo.png' },
    });
    renderInbox(sino, 's-avatar-origin', 'center');
    await waitFor(() => expect(articles()).toHaveLength(2));
    const byText = (text: string) => articles().find((a) => a.textContent?.includes(text))!;
    expect(byText('Logo de fora').querySelector('img')).toBeNull();
    expect(byText('Logo de fora').querySelector('.sino-avatar--generic')).toBeTruthy();
    // The page's own origin needs no permission.
    expect(byText('Logo da casa').querySelector('img')?.getAttribute('src')).toBe('/logo.png');
  });

  it('loads pictures only from http(s), relative paths and inline images', () => {
    expect(safeImageUrl('https://a.example/p.png')).toBe('https://a.example/p.png');
    expect(safeImageUrl('/avatars/1.png')).toBe('/avatars/1.png');
    expect(safeImageUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>', '', null])
      expect(safeImageUrl(bad)).toBeNull();
  });
});

describe('host slots and callbacks', () => {
  it('header: the host draws it with the unseen count, mark all as read and the settings toggle', async () => {
    await sino.seed('s-header', 2);
    const user = userEvent.setup();
    renderInbox(
      sino,
      's-header',
      'center',
      {},
      {
        header: (h) => (
          <div className="locadora-cabecalho">
            <h2 id={h.titleId}>Avisos: {h.unseenCount}</h2>
            <button type="button" disabled={!h.hasUnread} onClick={h.markAllAsRead}>
              Ler tudo
            </button>
            {h.showUserPreferences && (
              <button type="button" ref={h.settingsButtonRef} onClick={h.openSettings}>
                Ajustes
              </button>
            )}
          </div>
        ),
      },
    );
    await screen.findByRole('heading', { name: 'Avisos: 2' });
    // The built-in header is gone.
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    await waitFor(() => expect(articles()).toHaveLength(2));
    const readAll = screen.getByRole('button', { name: 'Ler tudo' }) as HTMLButtonElement;
    await user.click(readAll);
    await waitFor(() => expect(readAll.disabled).toBe(true));
    expect(articles().every((a) => a.classList.contains('sino-item--read'))).toBe(true);
    await screen.findByRole('heading', { name: 'Avisos: 0' });

    const settings = screen.getByRole('button', { name: 'Ajustes' });
    await user.click(settings);
    // The settings view keeps its own header, back button first.
    await screen.findByRole('heading', { name: 'Settings' });
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await screen.findByRole('heading', { name: 'Avisos: 0' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Ajustes' }));
  });

  it('listItem: the host draws the inside, the feed article (position, size, name, keys) stays around it', async () => {
    await sino.seed('s-item', 2, { cta: { type: 'redirect', data: { url: '/reservas/9' } } });
    const user = userEvent.setup();
    const clicked: string[] = [];
    const urls: string[] = [];
    renderInbox(
      sino,
      's-item',
      'center',
      {},
      {
        onNotificationClick: (n) => clicked.push(n.content),
        onUrlChange: (url) => urls.push(url),
        listItem: (item) => (
          <div className="locadora-aviso">
            <p>
              {item.unread ? 'Nova' : 'Lida'} — {item.notification.content}
            </p>
            <button type="button" onClick={item.unread ? item.markAsRead : item.markAsUnread}>
              {item.unread ? 'Ler' : 'Desler'}
            </button>
            <button type="button" onClick={item.remove}>
              Apagar
            </button>
            {item.menu}
          </div>
        ),
      },
    );
    await waitFor(() => expect(articles()).toHaveLength(2));
    const item = (text: string) => screen.getByRole('article', { name: new RegExp(text) });
    const newest = item('Message 2');
    expect(newest.getAttribute('aria-label')).toBe('Unread: Message 2');
    expect(newest.getAttribute('aria-posinset')).toBe('1');
    expect(articles().map((a) => a.getAttribute('aria-setsize'))).toEqual(['2', '2']);
    expect(newest.classList.contains('sino-item-slot')).toBe(true);
    expect(newest.querySelector('.sino-item__content')).toBeNull();
    // The built-in menu is there to place (allowedNotificationActions is on).
    expect(within(newest).getByRole('button', { name: 'Notification actions' })).toBeTruthy();

    // The host's own buttons are not the item's click.
    await user.click(within(newest).getByRole('button', { name: 'Ler' }));
    await within(item('Message 2')).findByText('Lida — Message 2');
    expect(item('Message 2').getAttribute('aria-label')).toBe('Message 2');
    expect(clicked).toEqual([]);
    // Anywhere else is: read, then the URL and the click handler.
    await user.click(within(item('Message 1')).getByText('Nova — Message 1'));
    expect(urls).toEqual(['/reservas/9']);
    expect(clicked).toEqual(['Message 1']);
    await within(item('Message 1')).findByText('Lida — Message 1');
    // Enter on the article is the same click; Page Up moves to the previous article.
    item('Message 1').focus();
    await user.keyboard('{Enter}');
    expect(clicked).toEqual(['Message 1', 'Message 1']);
    await user.keyboard('{PageUp}');
    expect(document.activeElement).toBe(item('Message 2'));

    await user.click(within(item('Message 2')).getByRole('button', { name: 'Apagar' }));
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(articles()[0]!.getAttribute('aria-setsize')).toBe('1');
  });

  it('listItem: actions go through onAction, and no menu without allowedNotificationActions', async () => {
    await sino.seed('s-item-action', 1, {
      content: 'Confirma a devolução?',
      cta: {
        type: 'redirect',
        data: {},
        action: { status: 'pending', buttons: [{ type: 'primary', content: 'Sim' }] },
      },
    });
    const user = userEvent.setup();
    const actions: unknown[][] = [];
    renderInbox(
      sino,
      's-item-action',
      'center',
      {},
      {
        allowedNotificationActions: false,
        onActionClick: (...args) => actions.push(args),
        listItem: (item) => (
          <div>
            <p>{item.notification.content}</p>
            {item.notification.cta?.action?.status === 'done' ? (
              <p>Respondido</p>
            ) : (
              <button type="button" onClick={() => item.onAction('primary')}>
                Responder sim
              </button>
            )}
            <p>{item.allowedNotificationActions ? 'com menu' : 'sem menu'}</p>
            {item.menu}
          </div>
        ),
      },
    );
    await waitFor(() => expect(articles()).toHaveLength(1));
    expect(screen.getByText('sem menu')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Notification actions' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Responder sim' }));
    await screen.findByText('Respondido');
    expect(actions).toEqual([
      [
        'reservation-booked',
        'primary',
        expect.objectContaining({ content: 'Confirma a devolução?' }),
      ],
    ]);
  });

  it('emptyState: the host replaces the empty state', async () => {
    await sino.seed('s-empty-host', 0);
    renderInbox(sino, 's-empty-host', 'center', {}, { emptyState: <p>Nenhum aviso por ora</p> });
    await screen.findByText('Nenhum aviso por ora');
    expect(screen.queryByText('Nothing new to see here yet')).toBeNull();
  });

  it('a redirect item calls onUrlChange with its URL and onNotificationClick with the notification', async () => {
    const [seeded] = await sino.seed('s-redirect', 1, {
      cta: { type: 'redirect', data: { url: '/locacoes/3' } },
    });
    const user = userEvent.setup();
    const calls: string[] = [];
    let clicked: Message | undefined;
    renderInbox(
      sino,
      's-redirect',
      'center',
      {},
      {
        onUrlChange: (url) => calls.push(`url ${url}`),
        onNotificationClick: (n) => {
          calls.push('click');
          clicked = n;
        },
      },
    );
    await waitFor(() => expect(articles()).toHaveLength(1));
    await user.click(articles()[0]!);
    expect(calls).toEqual(['url /locacoes/3', 'click']);
    expect(clicked).toMatchObject({ _id: seeded!._id, cta: { data: { url: '/locacoes/3' } } });
  });

  it('onUnseenCountChanged on the popover is told each change, also while it is closed', async () => {
    await sino.seed('s-unseen', 2);
    const user = userEvent.setup();
    const counts: number[] = [];
    renderInbox(
      sino,
      's-unseen',
      'popover',
      {},
      { onUnseenCountChanged: (count) => counts.push(count) },
    );
    await waitFor(() => expect(counts).toEqual([2]));
    await user.click(screen.getByRole('button', { name: 'Notifications, 2 unseen' }));
    await waitFor(() => expect(articles()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(counts).toEqual([2, 0]));
    // Closing and opening again (the panel remounts) tells nothing new.
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    await act(() => new Promise((r) => setTimeout(r, 200)));
    expect(counts).toEqual([2, 0]);
  });

  it('onUnseenCountChanged on the notification center is told each change', async () => {
    const [one] = await sino.seed('s-unseen-center', 3);
    const user = userEvent.setup();
    const counts: number[] = [];
    renderInbox(
      sino,
      's-unseen-center',
      'center',
      {},
      { onUnseenCountChanged: (count) => counts.push(count) },
    );
    await waitFor(() => expect(counts).toEqual([3]));
    await waitFor(() => expect(articles()).toHaveLength(3));
    await user.click(articles().find((a) => a.dataset.notificationId === one!._id)!);
    await waitFor(() => expect(counts).toEqual([3, 2]));
  });
});
