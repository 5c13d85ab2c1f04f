// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Page from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/**
 * The popover's lazily loaded panel, "closing marks the fetched notifications seen" (spec
 * section 4), the preferences' switches keeping focus while a save is in flight, and host text
 * in its own direction; against a listening Sino, in jsdom.
 */
let sino: SinoServer;
let articles: typeof Page.articles;
let renderInbox: typeof Page.renderInbox;
beforeAll(async () => {
  // The inbox's modules afresh for this file, as a new page loads them: test files share
  // their worker's modules (decision 043), and an earlier file may have loaded the lazily
  // loaded panel already. For the whole file, so that the panel's own late import and the
  // provider around it come from the same modules.
  vi.resetModules();
  ({ articles, renderInbox } = await import('./render-inbox.js'));
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

/** The real fetch, counting the requests whose method and URL match. */
function countingFetch(method: string, path: string) {
  const seen: string[] = [];
  const counted: typeof fetch = (input, init) => {
    if (init?.method === method && String(input).includes(path)) seen.push(String(input));
    return fetch(input, init);
  };
  return { fetch: counted, seen };
}

/** The first control Tab reaches inside `container` (enabled buttons, links, tab stops). */
const firstControl = (container: HTMLElement) =>
  [
    ...container.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])',
    ),
  ][0];

// First in this file: the panel's chunk is loaded once per page (as soon as the bell is
// drawn), so only an opening quicker than that shows the loader.
describe('popover: opened before the panel is in', () => {
  it('opens on the spec loader, focus waiting on the dialog, then on its first control once loaded', async () => {
    await sino.seed('f-lazy', 1);
    const user = userEvent.setup();
    // What the dialog holds each time the page changes, until the panel is in.
    const states: { loader: boolean; panel: boolean; focusOnDialog: boolean }[] = [];
    const observer = new MutationObserver(() => {
      const dialog = document.querySelector('[role="dialog"]');
      if (dialog)
        states.push({
          loader: dialog.querySelector('.sino-loader[role="status"]') !== null,
          panel: dialog.querySelector('.sino-center') !== null,
          focusOnDialog: document.activeElement === dialog,
        });
    });
    observer.observe(document.body, { subtree: true, childList: true });
    renderInbox(sino, 'f-lazy', 'popover');
    // In the same task as the bell's first drawing (its click, as Enter gives): the panel's
    // chunk, asked for as the bell was drawn, cannot be in yet.
    const bell = screen.getByRole('button', { name: 'Notifications' });
    bell.focus();
    fireEvent.click(bell);
    const dialog = screen.getByRole('dialog', { name: 'Notification inbox' });
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    await screen.findByRole('button', { name: 'Notifications, 1 unseen' }, { timeout: 10_000 });
    await within(dialog).findByRole('button', { name: 'Settings' });
    observer.disconnect();
    expect(states[0]).toEqual({ loader: true, panel: false, focusOnDialog: true });
    // Once the panel is in, focus moves to its first control, in its header: "Mark all as
    // read" if the first page (loaded with the bell) is in, "More actions" while it is not.
    await waitFor(() => expect(document.activeElement?.closest('.sino-header')).not.toBeNull());
    const first = document.activeElement!;
    expect([
      within(dialog).getByRole('button', { name: 'Mark all as read' }),
      within(dialog).getByRole('button', { name: 'More actions' }),
    ]).toContain(first);
    await waitFor(() => expect(within(dialog).getAllByRole('article')).toHaveLength(1));
    // The list arriving leaves it there.
    expect(document.activeElement).toBe(first);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell);
    // The chunk is in: the next opening draws the panel at once, focus on its first control.
    await user.keyboard('{Enter}');
    const again = screen.getByRole('dialog', { name: 'Notification inbox' });
    expect(again.querySelector('.sino-center')).not.toBeNull();
    expect(document.activeElement).toBe(firstControl(again));
    expect(document.activeElement?.closest('.sino-header')).not.toBeNull();
  });
});

describe('popover: closing marks the fetched notifications seen', () => {
  it('on Escape: the unseen count drops to 0, the messages stay unread', async () => {
    await sino.seed('f-seen', 2);
    await sino.seed('f-seen', 1, { seen: true, read: true, content: 'Already read' });
    const marks = countingFetch('POST', '/messages/markAs');
    const user = userEvent.setup();
    renderInbox(sino, 'f-seen', 'popover', { fetch: marks.fetch });
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unseen' });
    await user.click(bell);
    await waitFor(() => expect(articles()).toHaveLength(3));
    expect(marks.seen).toHaveLength(0);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // The server's count event brings the bell down.
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications'), {
      timeout: 8000,
    });
    expect(screen.queryByTestId('sino-bell-badge')).toBeNull();
    expect(marks.seen).toHaveLength(1);

    // As the server now has them: seen (no dot), still unread.
    cleanup();
    renderInbox(sino, 'f-seen', 'center');
    await waitFor(() => expect(articles()).toHaveLength(3));
    const messages = articles().filter((a) => !a.textContent?.includes('Already read'));
    expect(messages).toHaveLength(2);
    for (const article of messages) {
      expect(article.classList.contains('sino-item--unread')).toBe(true);
      expect(article.querySelector('.sino-item__dot')).toBeNull();
    }
  });

  it('on the bell toggle too', async () => {
    await sino.seed('f-seen-bell', 1);
    const user = userEvent.setup();
    renderInbox(sino, 'f-seen-bell', 'popover');
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unseen' });
    await user.click(bell);
    await waitFor(() => expect(articles()).toHaveLength(1));
    await user.click(bell);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications'), {
      timeout: 8000,
    });
  });

  it('sends nothing when no loaded notification is unseen (here on a click outside)', async () => {
    await sino.seed('f-seen-none', 2, { seen: true, read: false });
    const marks = countingFetch('POST', '/messages/markAs');
    const user = userEvent.setup();
    renderInbox(sino, 'f-seen-none', 'popover', { fetch: marks.fetch });
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    await waitFor(() => expect(articles()).toHaveLength(2));
    await user.click(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(marks.seen).toHaveLength(0);
  });
});

describe('preferences', () => {
  let created = false;
  async function workflow() {
    if (created) return;
    created = true;
    const r = await sino.api('POST', '/v1/workflows', {
      name: 'Car returned (v2).',
      identifier: 'car-returned',
      active: true,
      steps: [
        { template: { type: 'in_app', content: 'Returned' } },
        { template: { type: 'email', subject: 'Returned', content: 'Returned' } },
      ],
    });
    expect(r.status).toBe(201);
  }

  it('a switch toggled with Space keeps focus while the save is in flight, and ignores a second Space meanwhile', async () => {
    await workflow();
    await sino.seed('f-prefs-focus', 0);
    // The real fetch, the preference's save held until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const saves: string[] = [];
    const user = userEvent.setup();
    renderInbox(sino, 'f-prefs-focus', 'popover', {
      fetch: async (input, init) => {
        if (init?.method === 'PATCH' && String(input).includes('/preferences/')) {
          saves.push(String(input));
          await held;
        }
        return fetch(input, init);
      },
    });
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await user.click(bell);
    const dialog = screen.getByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Settings' }));
    await user.click(await within(dialog).findByRole('button', { name: /^Car returned/ }));
    const email = within(dialog).getByRole('switch', { name: 'Email for Car returned (v2).' });
    const inApp = within(dialog).getByRole('switch', { name: 'In-app for Car returned (v2).' });
    expect(email.getAttribute('aria-checked')).toBe('true');

    email.focus();
    await user.keyboard(' ');
    // Saving: every switch says it is disabled, and focus has not moved.
    expect(email.getAttribute('aria-checked')).toBe('false');
    expect(email.getAttribute('aria-disabled')).toBe('true');
    expect(inApp.getAttribute('aria-disabled')).toBe('true');
    expect(email.hasAttribute('disabled')).toBe(false);
    expect(document.activeElement).toBe(email);
    // A second Space during the save changes nothing and sends nothing.
    await user.keyboard(' ');
    await user.click(inApp);
    expect(email.getAttribute('aria-checked')).toBe('false');
    expect(inApp.getAttribute('aria-checked')).toBe('true');
    expect(saves).toHaveLength(1);
    email.focus();

    release();
    const panel = within(dialog).getByRole('region', { name: /^Car returned/ });
    expect((await within(panel).findByRole('status')).textContent).toBe('✓ Saved');
    expect(email.getAttribute('aria-checked')).toBe('false');
    expect(email.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(email);
    expect(saves).toHaveLength(1);
    // Focus never left the dialog: Escape still closes it.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell);
  });

  it('writes the host-provided workflow name in its own direction (dir="auto") inside an Arabic widget', async () => {
    await workflow();
    await sino.seed('f-prefs-rtl', 0);
    const user = userEvent.setup();
    renderInbox(sino, 'f-prefs-rtl', 'center', { i18n: 'ar' });
    await waitFor(() => expect(document.querySelector('.sino')?.getAttribute('dir')).toBe('rtl'));
    await user.click(document.querySelector<HTMLElement>('.sino-header__settings')!);
    const trigger = await screen.findByRole('button', { name: /Car returned/ });
    const name = trigger.querySelector('.sino-accordion__name')!;
    expect(name.textContent).toBe('Car returned (v2).');
    expect(name.getAttribute('dir')).toBe('auto');
  });
});
