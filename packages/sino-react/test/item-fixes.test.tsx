// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UNDO_REMOVAL_MS } from '../src/components/undo-removal.js';
import { articles, renderInbox, until } from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/**
 * Issue 17, 13 (c), (d), (h) and (l), against a listening Sino in jsdom: an actor's picture
 * survives marks and actions, an action shows its result and reads the item, a critical
 * notification stands apart, and a removal can be undone.
 */
let sino: SinoServer;
beforeAll(async () => {
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

// A 1x1 PNG: an inline picture loads under the default image policy.
const PICTURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The subscriber's feed as Sino has it (server API). */
async function onServer(subscriberId: string) {
  const r = await sino.api('GET', `/v1/subscribers/${subscriberId}/notifications/feed`);
  return ((await r.json()) as { data: { _id: string; read: boolean; seen: boolean }[] }).data;
}

/** An actor subscriber with a picture; answers its internal `_id`. */
async function actorWithPicture(subscriberId: string): Promise<string> {
  await sino.seed(subscriberId, 0);
  const put = await sino.api('PUT', `/v1/subscribers/${subscriberId}`, { avatar: PICTURE });
  expect(put.status).toBe(200);
  const r = await sino.api('GET', `/v1/subscribers/${subscriberId}`);
  return ((await r.json()) as { data: { _id: string } }).data._id;
}

async function workflow(identifier: string, critical: boolean): Promise<string> {
  const r = await sino.api('POST', '/v1/workflows', {
    name: identifier,
    identifier,
    active: true,
    critical,
    steps: [{ template: { type: 'in_app', content: 'x' } }],
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { data: { _id: string } }).data._id;
}

const menu = async (user: ReturnType<typeof userEvent.setup>, item: HTMLElement, entry: string) => {
  await user.click(within(item).getByRole('button', { name: 'Notification actions' }));
  await user.click(within(item).getByRole('menuitem', { name: entry }));
};

/** Waits for the list to show `n` items (a first load on a busy machine may take seconds). */
const listed = (n: number) =>
  waitFor(() => expect(articles()).toHaveLength(n), { timeout: 10_000 });

const buttons = (extra: object = {}) => ({
  type: 'redirect' as const,
  data: {},
  action: {
    status: 'pending' as const,
    buttons: [
      { type: 'primary' as const, content: 'Approve', ...extra },
      { type: 'secondary' as const, content: 'Decline' },
    ],
  },
});

describe("(c) a user actor's picture", () => {
  it('stays after a mark as read, a mark as unread and an action', async () => {
    const actor = await actorWithPicture('i-actor');
    await sino.seed('i-avatar', 1, {
      content: 'Bruno asked to swap cars',
      actor: { type: 'user', data: null },
      actorSubscriberId: actor,
      cta: buttons(),
    });
    const user = userEvent.setup();
    renderInbox(sino, 'i-avatar', 'center');
    await listed(1);
    const item = () => articles()[0]!;
    const picture = () => item().querySelector('img.sino-avatar--image')?.getAttribute('src');
    expect(picture()).toBe(PICTURE);

    await menu(user, item(), 'Mark as read');
    await waitFor(() => expect(item().classList.contains('sino-item--read')).toBe(true));
    expect(picture()).toBe(PICTURE);
    expect(item().querySelector('.sino-avatar--generic')).toBeNull();
    await menu(user, item(), 'Mark as unread');
    await waitFor(() => expect(item().classList.contains('sino-item--unread')).toBe(true));
    expect(picture()).toBe(PICTURE);

    await user.click(within(item()).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(item().querySelector('.sino-actions__result')).toBeTruthy());
    expect(picture()).toBe(PICTURE);
  });
});

describe('(d) an action button', () => {
  it("shows the action's result where the buttons were, reads the item, and keeps the keyboard's focus", async () => {
    await sino.seed('i-action', 1, {
      content: 'Swap to a Sedan?',
      cta: buttons({ resultContent: 'Approved' }),
    });
    const user = userEvent.setup();
    const clicks: string[] = [];
    renderInbox(
      sino,
      'i-action',
      'center',
      {},
      { onActionClick: (_id, type) => clicks.push(type) },
    );
    await listed(1);
    const item = () => articles()[0]!;
    expect(item().classList.contains('sino-item--unread')).toBe(true);
    within(item()).getByRole('button', { name: 'Approve' }).focus();
    await user.keyboard('{Enter}');

    // The clicked button's result, after a check and "Done:" for screen readers.
    const result = await waitFor(() => {
      const found = item().querySelector<HTMLElement>('.sino-actions__result');
      expect(found).toBeTruthy();
      return found!;
    });
    expect(result.textContent).toBe('Done: Approved');
    expect(result.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(within(item()).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(item()).queryByRole('button', { name: 'Decline' })).toBeNull();
    expect(document.activeElement).toBe(result);
    // Read, here and on the server, and told once.
    await waitFor(() => expect(item().classList.contains('sino-item--read')).toBe(true));
    expect((await onServer('i-action'))[0]).toMatchObject({ read: true, seen: true });
    expect(clicks).toEqual(['primary']);
  });

  it("without a result text, says the clicked button's own label", async () => {
    await sino.seed('i-action-label', 1, { content: 'Keep the booking?', cta: buttons() });
    const user = userEvent.setup();
    renderInbox(sino, 'i-action-label', 'center', { i18n: 'pt-BR' });
    await listed(1);
    await user.click(within(articles()[0]!).getByRole('button', { name: 'Decline' }));
    await waitFor(() =>
      expect(articles()[0]!.querySelector('.sino-actions__result')?.textContent).toBe(
        'Concluído: Decline',
      ),
    );
  });
});

describe('(h) a critical notification', () => {
  it('stands apart with an icon and a word (part of its accessible name), not colour alone', async () => {
    const fine = await workflow('i-multa', true);
    const booking = await workflow('i-reserva', false);
    await sino.seed('i-critical', 1, { content: 'Booking confirmed', workflowId: booking });
    await sino.seed('i-critical', 1, { content: 'A fine was registered', workflowId: fine });
    renderInbox(sino, 'i-critical', 'center');
    await listed(2);
    const [critical, plain] = articles();
    expect(critical!.classList.contains('sino-item--critical')).toBe(true);
    expect(plain!.classList.contains('sino-item--critical')).toBe(false);
    expect(
      screen.getByRole('article', { name: /^Unread: ?Important: ?A fine was registered$/ }),
    ).toBe(critical);
    expect(screen.getByRole('article', { name: /^Unread: ?Booking confirmed$/ })).toBe(plain);
    const mark = critical!.querySelector('.sino-item__critical')!;
    // Seen as an icon and the word; said once, first, by the item's name.
    expect(mark.textContent).toBe('Important');
    expect(mark.querySelector('svg')).toBeTruthy();
    expect(mark.getAttribute('aria-hidden')).toBe('true');
    expect(plain!.querySelector('.sino-item__critical')).toBeNull();
  });

  it('in the active language, and for a host-drawn item too', async () => {
    const fine = await workflow('i-multa-pt', true);
    await sino.seed('i-critical-pt', 1, { content: 'Multa registrada', workflowId: fine });
    renderInbox(sino, 'i-critical-pt', 'center', { i18n: 'pt-BR' });
    await waitFor(() =>
      expect(screen.getByRole('article', { name: /Importante: ?Multa registrada$/ })).toBeTruthy(),
    );
    cleanup();
    renderInbox(
      sino,
      'i-critical-pt',
      'center',
      { i18n: 'pt-BR' },
      { listItem: (item) => <p>{item.notification.content}</p> },
    );
    await screen.findByRole('article', { name: 'Não lida: Importante: Multa registrada' });
  });
});

describe('(l) remove, with undo', () => {
  it('takes the item out at once and offers "Undo", which puts it back in its place; nothing reached the server', async () => {
    const seeded = await sino.seed('i-undo', 3);
    const user = userEvent.setup();
    renderInbox(sino, 'i-undo', 'center');
    await listed(3);
    const ids = () => articles().map((a) => a.dataset.notificationId);
    const order = ids();
    const middle = articles()[1]!;
    await menu(user, middle, 'Remove message');

    expect(ids()).toEqual([order[0], order[2]]);
    // A polite live region (role status), always in the page.
    const note = document.querySelector<HTMLElement>('.sino-undo')!;
    expect(note.getAttribute('role')).toBe('status');
    await waitFor(() => expect(within(note).getByText('Message removed')).toBeTruthy());
    // Focus went on to the next item.
    await waitFor(() => expect(document.activeElement).toBe(articles()[1]));
    expect((await onServer('i-undo')).map((m) => m._id).sort()).toEqual(
      seeded.map((m) => m._id).sort(),
    );

    await user.click(within(note).getByRole('button', { name: 'Undo' }));
    expect(ids()).toEqual(order);
    await waitFor(() => expect(document.activeElement).toBe(articles()[1]));
    expect(within(note).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(await onServer('i-undo')).toHaveLength(3);
  });

  it('is offered while the pointer is on it; then, its time up, the server removes the item', async () => {
    await sino.seed('i-undo-time', 2);
    const user = userEvent.setup();
    renderInbox(sino, 'i-undo-time', 'center');
    await listed(2);
    const gone = articles()[0]!.dataset.notificationId!;
    await menu(user, articles()[0]!, 'Remove message');
    const undo = await screen.findByRole('button', { name: 'Undo' });
    fireEvent.mouseEnter(undo.parentElement!);
    await new Promise((r) => setTimeout(r, UNDO_REMOVAL_MS + 500));
    expect(screen.getByRole('button', { name: 'Undo' })).toBe(undo);
    expect(await onServer('i-undo-time')).toHaveLength(2);

    fireEvent.mouseLeave(undo.parentElement!);
    await until(async () => (await onServer('i-undo-time')).length === 1, UNDO_REMOVAL_MS + 4000);
    expect((await onServer('i-undo-time')).map((m) => m._id)).not.toContain(gone);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
    expect(articles()).toHaveLength(1);
  }, 40_000);

  it('is final when the inbox closes, when another item is removed, or when the page is hidden', async () => {
    await sino.seed('i-undo-final', 4);
    const user = userEvent.setup();
    renderInbox(sino, 'i-undo-final', 'center');
    await listed(4);
    // Another removal makes the first final.
    await menu(user, articles()[0]!, 'Remove message');
    await menu(user, articles()[0]!, 'Remove message');
    await until(async () => (await onServer('i-undo-final')).length === 3);
    expect(screen.getAllByRole('button', { name: 'Undo' })).toHaveLength(1);
    // The inbox closes (unmounts): the second is removed too.
    cleanup();
    await until(async () => (await onServer('i-undo-final')).length === 2);

    // The page is hidden (closed, or left) with a removal pending.
    renderInbox(sino, 'i-undo-final', 'center');
    await listed(2);
    await menu(user, articles()[0]!, 'Remove message');
    window.dispatchEvent(new Event('pagehide'));
    await until(async () => (await onServer('i-undo-final')).length === 1);
  });
});
