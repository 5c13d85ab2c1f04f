import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { apart, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';
import {
  clearMessages,
  insertMessages,
  messageRow,
  subscriberRow,
  type SubscriberRow,
} from './fixtures.js';

// Sino's additions to the widget API (not in Novu 0.24): archive and snooze.

let t: SinoTestApp;
let ana: SubscriberRow;
let anaToken: string;
let bruno: SubscriberRow;
let brunoToken: string;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createSinoTestApp();
  anaToken = await t.session('ana', { firstName: 'Ana' });
  ana = await subscriberRow(t, 'ana');
  brunoToken = await t.session('bruno');
  bruno = await subscriberRow(t, 'bruno');
  url = await listeningUrl(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  await clearMessages(t.db, ana);
  await clearMessages(t.db, bruno);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

const asAna = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { body?: unknown; query?: Record<string, string> } = {},
) => t.widget(method, path, { token: anaToken, ...options });

const contents = async (path: string) =>
  (await asAna('GET', path)).json<{ data: { content: string }[] }>().data.map((m) => m.content);
const count = async (kind: 'unseen' | 'unread') =>
  (await asAna('GET', `/notifications/${kind}`)).json<{ data: { count: number } }>().data.count;
const inAMoment = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A widget socket that records every event it receives. */
async function connect(token: string) {
  const events: [string, unknown][] = [];
  // The counts Sino sends a socket that connects are socket.test.ts's: not asked for here.
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token, countsOnConnect: false },
  });
  sockets.push(socket);
  socket.onAny((event: string, data: unknown) => events.push([event, data]));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return events;
}

describe('authentication and ownership', () => {
  it.each([
    ['GET', '/notifications/archived'],
    ['GET', '/notifications/snoozed'],
    ['POST', '/messages/0123456789abcdef01234567/archive'],
    ['POST', '/messages/0123456789abcdef01234567/unarchive'],
    ['POST', '/messages/archive-read'],
    ['POST', '/messages/0123456789abcdef01234567/snooze'],
    ['POST', '/messages/0123456789abcdef01234567/unsnooze'],
  ] as const)('%s %s answers 401 without a token', async (method, path) => {
    const r = await t.widget(method, path, { body: method === 'POST' ? {} : undefined });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it("answers 404 for another subscriber's message and changes nothing", async () => {
    const [brunos] = await insertMessages(t.db, bruno, 1);
    for (const path of ['archive', 'unarchive', 'snooze', 'unsnooze']) {
      const r = await asAna('POST', `/messages/${brunos!.id}/${path}`, {
        body: path === 'snooze' ? { until: inAMoment(60_000) } : undefined,
      });
      expect(r.statusCode, path).toBe(404);
      expect(r.json().message).toMatch(/^Could not find a (snoozed )?message with id /);
    }
    expect(await messageRow(t.db, brunos!.id)).toMatchObject({
      archivedAt: null,
      snoozedUntil: null,
    });
    const brunosFeed = await t.widget('GET', '/notifications/feed', { token: brunoToken });
    expect(brunosFeed.json().data).toHaveLength(1);
  });
});

describe('archive', () => {
  it('takes a message out of the feed and the counts into the archive, and back', async () => {
    const [m3, m2] = await insertMessages(t.db, ana, 3);
    const events = await connect(anaToken);

    const r = await asAna('POST', `/messages/${m2!.id}/archive`);
    expect(r.statusCode).toBe(201);
    expect(r.json().data).toMatchObject({ _id: m2!.id, archivedAt: expect.any(String) });
    expect(await contents('/notifications/feed')).toEqual(['Message 3', 'Message 1']);
    expect(await count('unseen')).toBe(2);
    expect(await count('unread')).toBe(2);
    expect(await contents('/notifications/archived')).toEqual(['Message 2']);
    await vi.waitFor(() =>
      expect(events).toEqual([
        ['unseen_count_changed', { unseenCount: 2, hasMore: false }],
        ['unread_count_changed', { unreadCount: 2, hasMore: false }],
      ]),
    );

    // Archived last is listed first.
    await asAna('POST', `/messages/${m3!.id}/archive`);
    expect(await contents('/notifications/archived')).toEqual(['Message 3', 'Message 2']);

    const back = await asAna('POST', `/messages/${m2!.id}/unarchive`);
    expect(back.statusCode).toBe(201);
    expect(back.json().data).not.toHaveProperty('archivedAt');
    expect(await contents('/notifications/feed')).toEqual(['Message 2', 'Message 1']);
    expect(await contents('/notifications/archived')).toEqual(['Message 3']);
    expect(await count('unseen')).toBe(2);
  });

  it('archives every read message and nothing else; mark-all leaves the archive alone', async () => {
    await insertMessages(t.db, ana, 2, { read: true, seen: true, content: 'lida' });
    await insertMessages(t.db, ana, 1, { content: 'nova' });
    const r = await asAna('POST', '/messages/archive-read', { body: {} });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({ data: 2 });
    expect(await contents('/notifications/feed')).toEqual(['nova']);
    expect(await contents('/notifications/archived')).toEqual(['lida', 'lida']);

    // Marking all unread touches the inbox only: the archive stays read.
    await t.api('POST', '/v1/subscribers/ana/messages/mark-all', { body: { markAs: 'unread' } });
    expect(await count('unread')).toBe(1);
    const archived = await asAna('GET', '/notifications/archived');
    expect(archived.json().data.every((m: { read: boolean }) => m.read)).toBe(true);
  });

  it('pages the archive like the feed', async () => {
    const rows = await insertMessages(t.db, ana, 3);
    for (const row of rows.reverse()) await asAna('POST', `/messages/${row.id}/archive`);
    const first = await asAna('GET', '/notifications/archived', { query: { limit: '2' } });
    expect(first.json()).toMatchObject({ hasMore: true, pageSize: 2, page: 0, totalCount: 2 });
    const second = await asAna('GET', '/notifications/archived', {
      query: { limit: '2', page: '1' },
    });
    expect(second.json()).toMatchObject({ hasMore: false, page: 1, totalCount: 1 });
    const bad = await asAna('GET', '/notifications/archived', { query: { limit: '0' } });
    expect(bad.statusCode).toBe(400);
  });

  it('leaves the Novu document untouched for messages in the inbox', async () => {
    await insertMessages(t.db, ana, 1);
    const [doc] = (await asAna('GET', '/notifications/feed')).json().data;
    expect(doc).not.toHaveProperty('archivedAt');
    expect(doc).not.toHaveProperty('snoozedUntil');
  });
});

describe('snooze', () => {
  it.each([
    [{}, 'until should not be empty'],
    [{ until: 'amanhã' }, 'until must be an ISO 8601 date-time, e.g. 2026-12-01T09:00:00Z'],
    [{ until: '2020-01-01T00:00:00Z' }, 'until must be a time in the future'],
    [{ until: '2099-01-01T00:00:00Z' }, 'until must be at most 365 days ahead'],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const [m] = await insertMessages(t.db, ana, 1);
    const r = await asAna('POST', `/messages/${m!.id}/snooze`, { body });
    expect(r.statusCode).toBe(400);
    expect([r.json().message].flat()).toEqual([message]);
    expect(await messageRow(t.db, m!.id)).toMatchObject({ snoozedUntil: null });
    expect(await contents('/notifications/feed')).toEqual(['Message 1']);
  });

  it('hides a read message until its time, then brings it back unseen and unread, pushed like a new one', async () => {
    const [m] = await insertMessages(t.db, ana, 1, { seen: true, read: true });
    const events = await connect(anaToken);
    const until = inAMoment(1_500);
    const r = await asAna('POST', `/messages/${m!.id}/snooze`, { body: { until } });
    expect(r.statusCode).toBe(201);
    expect(r.json().data).toMatchObject({ _id: m!.id, snoozedUntil: until });
    expect(await contents('/notifications/feed')).toEqual([]);
    expect(await contents('/notifications/snoozed')).toEqual(['Message 1']);

    await vi.waitFor(
      async () => expect(await contents('/notifications/feed')).toEqual(['Message 1']),
      { timeout: 10_000, interval: 100 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(new Date(until).getTime());
    expect(await messageRow(t.db, m!.id)).toMatchObject({
      seen: false,
      read: false,
      snoozedUntil: null,
    });
    expect(await contents('/notifications/snoozed')).toEqual([]);
    expect(await count('unread')).toBe(1);
    await vi.waitFor(() =>
      expect(events.map(([name]) => name)).toEqual(
        expect.arrayContaining([
          'notification_received',
          'unseen_count_changed',
          'unread_count_changed',
        ]),
      ),
    );
    const received = events.find(([name]) => name === 'notification_received');
    expect(received![1]).toMatchObject({ message: { _id: m!.id, seen: false, read: false } });
  });

  it('a later snooze replaces an earlier one: the first time passes and nothing comes back', async () => {
    const [m] = await insertMessages(t.db, ana, 1);
    await asAna('POST', `/messages/${m!.id}/snooze`, { body: { until: inAMoment(500) } });
    const later = inAMoment(60_000);
    await asAna('POST', `/messages/${m!.id}/snooze`, { body: { until: later } });
    // The first job runs (due after 500 ms) and finds its snooze replaced.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await messageRow(t.db, m!.id)).toMatchObject({ snoozedUntil: new Date(later) });
    expect(await contents('/notifications/feed')).toEqual([]);
  });

  it('a snoozed message that is deleted or unsnoozed is not brought back again', async () => {
    const [a, b] = await insertMessages(t.db, ana, 2, { seen: true, read: true });
    for (const m of [a, b])
      await asAna('POST', `/messages/${m!.id}/snooze`, { body: { until: inAMoment(500) } });
    expect((await asAna('DELETE', `/messages/${a!.id}`)).statusCode).toBe(200);
    const now = await asAna('POST', `/messages/${b!.id}/unsnooze`);
    expect(now.statusCode).toBe(201);
    // Back as it was: still read.
    expect(await contents('/notifications/feed')).toEqual(['Message 1']);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await messageRow(t.db, b!.id)).toMatchObject({ read: true, snoozedUntil: null });
    expect(await messageRow(t.db, a!.id)).toMatchObject({ deleted: true });
    expect(await count('unread')).toBe(0);
    // Unsnoozing what is not snoozed is a 404.
    expect((await asAna('POST', `/messages/${b!.id}/unsnooze`)).statusCode).toBe(404);
  });

  it('a wake-up run before its time (another clock) waits for the rest', async ({ skip }) => {
    skip(apart, "one process only: runs the app's wake-up at a time of the test's choosing");
    const [m] = await insertMessages(t.db, ana, 1, { seen: true, read: true });
    const until = inAMoment(1_200);
    // Snoozed with no job of its own: only the early run's follow-up can bring it back.
    await t.app.sino.messages.repository.snooze(
      { environmentId: ana.environmentId, subscriberId: ana.id },
      m!.id,
      new Date(until),
    );
    // What the worker does with a job delivered early.
    await t.app.sino.messages.wakeSnoozed({ kind: 'wake-snoozed', messageId: m!.id, until });
    expect(await messageRow(t.db, m!.id)).toMatchObject({ snoozedUntil: new Date(until) });
    await vi.waitFor(
      async () => expect(await messageRow(t.db, m!.id)).toMatchObject({ snoozedUntil: null }),
      { timeout: 10_000, interval: 100 },
    );
    expect(await count('unread')).toBe(1);
  });

  it('archiving a snoozed message ends the snooze; it stays archived', async () => {
    const [m] = await insertMessages(t.db, ana, 1, { seen: true, read: true });
    await asAna('POST', `/messages/${m!.id}/snooze`, { body: { until: inAMoment(500) } });
    await asAna('POST', `/messages/${m!.id}/archive`);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await contents('/notifications/archived')).toEqual(['Message 1']);
    expect(await contents('/notifications/feed')).toEqual([]);
    expect(await count('unread')).toBe(0);
  });
});
