import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTcpProxy } from '@locadora/db/testing';
import { createSinoTestApp, listeningUrl, type SinoTestApp } from '../../sino-core/test/harness.js';
import {
  addFeed,
  insertMessages,
  subscriberRow,
  type SubscriberRow,
} from '../../sino-core/test/fixtures.js';
import { AUTH_TOKEN_STORAGE_KEY } from '../src/constants.js';
import { SinoInbox, type InboxOptions, type InboxState } from '../src/inbox.js';
import { SocketManager } from '../src/socket.js';
import type { TokenStorage } from '../src/types.js';

/**
 * `@sino/js` against a listening Sino (PGlite): real HTTP through `fetch`, real socket.io.
 * `fetch` is wrapped only to record the calls (and, for the retry tests, to fail some at the
 * network level before they reach the server).
 */
let t: SinoTestApp;
let url: string;
let workflowId: string;
const opened: SinoInbox[] = [];

beforeAll(async () => {
  t = await createSinoTestApp();
  url = await listeningUrl(t);
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'Inbox',
      identifier: 'inbox',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Hello {{name}}' } }],
    },
  });
  workflowId = r.json().data._id as string;
});
afterAll(async () => {
  for (const inbox of opened) inbox.dispose();
  await t.close();
});

interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

class MemoryStorage implements TokenStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

interface Harness {
  inbox: SinoInbox;
  calls: Call[];
  /** Paths of the recorded calls, without `/v1/widgets`. */
  paths(): string[];
  storage: MemoryStorage;
  window: EventTarget;
  events: { type: string; detail: unknown }[];
  errors: unknown[][];
  /** Fail the next `n` calls whose path ends with `suffix` before they reach the server. */
  failNext(suffix: string, n: number): void;
  /**
   * The last call to `method path`: debounced refetches may land between a call and its
   * assertion, so tests never rely on the very last call.
   */
  last(call: string): Call;
  /** The calls recorded after the last `method path` call. */
  after(call: string): string[];
}

function open(subscriberId: string, options: Partial<InboxOptions> = {}): Harness {
  const calls: Call[] = [];
  const failures = new Map<string, number>();
  const recordingFetch: typeof fetch = async (input, init) => {
    const target = new URL(String(input));
    const path = target.pathname.replace('/v1/widgets', '');
    calls.push({
      method: init?.method ?? 'GET',
      path,
      search: target.searchParams,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    for (const [suffix, left] of failures) {
      if (left > 0 && path.endsWith(suffix)) {
        failures.set(suffix, left - 1);
        throw new TypeError('fetch failed');
      }
    }
    return fetch(input, init);
  };
  const storage = new MemoryStorage();
  const window = new EventTarget();
  const events: Harness['events'] = [];
  for (const type of ['unseen_count_changed', 'unread_count_changed'])
    window.addEventListener(type, (e) => events.push({ type, detail: (e as CustomEvent).detail }));
  const errors: unknown[][] = [];
  const inbox = new SinoInbox({
    backendUrl: url,
    applicationIdentifier: t.credentials.applicationIdentifier,
    subscriberId,
    subscriberHash: t.subscriberHash(subscriberId),
    fetch: recordingFetch,
    storage,
    eventTarget: window,
    logger: { error: (...args) => errors.push(args) },
    retry: { baseDelayMs: 10, maxDelayMs: 40 },
    // Node.js 20 has no global WebSocket: the `ws` package, as a Node host would give it.
    WebSocket,
    ...options,
  });
  opened.push(inbox);
  return {
    inbox,
    calls,
    paths: () => calls.map((c) => `${c.method} ${c.path}`),
    storage,
    window,
    events,
    errors,
    failNext: (suffix, n) => failures.set(suffix, n),
    last(call) {
      const found = calls.findLast((c) => `${c.method} ${c.path}` === call);
      if (!found) throw new Error(`no call ${call}`);
      return found;
    },
    after(call) {
      const paths = calls.map((c) => `${c.method} ${c.path}`);
      return paths.slice(paths.lastIndexOf(call) + 1);
    },
  };
}

async function eventually<T>(check: () => Promise<T | false> | T | false, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const isOnline = async (subscriberId: string) =>
  (await t.api('GET', `/v1/subscribers/${subscriberId}`)).json().data?.isOnline === true;

async function trigger(to: string, name: string) {
  const r = await t.api('POST', '/v1/events/trigger', {
    body: { name: 'inbox', to, payload: { name } },
  });
  expect(r.json().data.status).toBe('processed');
}

/** A subscriber with a session opened once through the harness, and `n` inserted messages. */
async function subscriberWith(subscriberId: string, n: number, options = {}) {
  await t.session(subscriberId);
  const row = await subscriberRow(t, subscriberId);
  const inserted = await insertMessages(t.db, row, n, options);
  return { row, inserted };
}

const feed = (state: InboxState, storeId = 'default_store') => state.stores[storeId]!;

describe('session', () => {
  it('is not initialized without a subscriberId: no call is made', async () => {
    const h = open('', { subscriberId: '' });
    await h.inbox.initialize();
    expect(h.inbox.getSnapshot().session.status).toBe('uninitialized');
    expect(h.calls).toEqual([]);
  });

  it('initializes with hmacHash, keeps the token, connects the socket, fetches counts and organization only', async () => {
    const loaded: unknown[] = [];
    const h = open('s-ana', { onLoad: (data) => loaded.push(data) });
    const seen: InboxState[] = [];
    h.inbox.subscribe(() => seen.push(h.inbox.getSnapshot()));
    await h.inbox.initialize();

    const state = h.inbox.getSnapshot();
    expect(state.session.status).toBe('initialized');
    expect(seen.map((s) => s.session.status)).toContain('loading');
    expect(h.calls[0]).toMatchObject({
      method: 'POST',
      path: '/session/initialize',
      body: {
        applicationIdentifier: t.credentials.applicationIdentifier,
        subscriberId: 's-ana',
        hmacHash: t.subscriberHash('s-ana'),
      },
    });
    expect(h.storage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe(h.inbox.api.getToken());
    // Default strategy: unseen count and organization; no feed, no preferences.
    expect(h.paths().sort()).toEqual([
      'GET /notifications/unread',
      'GET /notifications/unseen',
      'GET /organization',
      'POST /session/initialize',
    ]);
    expect(h.calls.find((c) => c.path === '/notifications/unseen')!.search.get('limit')).toBe(
      '100',
    );
    expect(state.organization).toMatchObject({ name: 'Test organization' });
    expect(loaded).toEqual([{ organization: state.organization }]);
    await eventually(() => isOnline('s-ana'));
    await eventually(() => h.inbox.getSnapshot().socket === 'connected');
  });

  it('logs "Failed to initialize the session" with the message on a wrong hash, without retrying a 400', async () => {
    const h = open('s-wrong', { subscriberHash: 'f'.repeat(64) });
    await h.inbox.initialize();
    expect(h.inbox.getSnapshot().session).toMatchObject({
      status: 'error',
      error: 'Please provide a valid HMAC hash',
    });
    expect(h.errors).toEqual([
      ['Failed to initialize the session', 'Please provide a valid HMAC hash'],
    ]);
    expect(h.paths()).toEqual(['POST /session/initialize']);
  });

  it('re-initializes when subscriberId or subscriberHash change: the old socket is closed first', async () => {
    const h = open('s-first');
    await h.inbox.initialize();
    const firstProfile = h.inbox.getSnapshot().session.profile!;
    const firstToken = h.storage.getItem(AUTH_TOKEN_STORAGE_KEY);
    await eventually(() => isOnline('s-first'));

    // Same values: nothing happens.
    const before = h.calls.length;
    await h.inbox.update({ subscriberId: 's-first', subscriberHash: t.subscriberHash('s-first') });
    expect(h.calls.length).toBe(before);

    const statuses: string[] = [];
    h.inbox.subscribe(() => statuses.push(h.inbox.getSnapshot().session.status));
    await h.inbox.update({
      subscriberId: 's-second',
      subscriberHash: t.subscriberHash('s-second'),
    });
    // Each status once, in order (other changes, such as the socket's, repeat the same status).
    const steps = statuses.filter((s, i) => s !== statuses[i - 1]);
    expect(steps).toEqual(['initialized', 'uninitialized', 'loading', 'initialized']);
    const state = h.inbox.getSnapshot();
    expect(state.session.status).toBe('initialized');
    expect(state.session.profile!._id).not.toBe(firstProfile._id);
    expect(h.storage.getItem(AUTH_TOKEN_STORAGE_KEY)).not.toBe(firstToken);
    await eventually(() => isOnline('s-second'));
    await eventually(async () => !(await isOnline('s-first')));

    // A changed hash alone re-initializes too (here a wrong one: the session fails).
    await h.inbox.update({ subscriberHash: '0'.repeat(64) });
    expect(h.inbox.getSnapshot().session.status).toBe('error');
    expect(h.calls.filter((c) => c.path === '/session/initialize')).toHaveLength(3);
    await eventually(async () => !(await isOnline('s-second')));
  });

  it('logout closes the socket, removes the stored token and clears the data', async () => {
    await subscriberWith('s-logout', 1);
    const h = open('s-logout', { initialFetchingStrategy: { fetchNotifications: true } });
    await h.inbox.initialize();
    await eventually(() => isOnline('s-logout'));
    expect(feed(h.inbox.getSnapshot()).notifications).toHaveLength(1);
    h.inbox.logout();
    const state = h.inbox.getSnapshot();
    expect(state.session.status).toBe('uninitialized');
    expect(state.unseenCount).toBe(0);
    expect(state.organization).toBeNull();
    expect(feed(state).notifications).toEqual([]);
    expect(h.storage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    await expect(h.inbox.fetchNotifications()).rejects.toThrow('not initialized');
    await eventually(async () => !(await isOnline('s-logout')));
  });

  it('dispose closes the socket, removes the stored token and stops notifying', async () => {
    const h = open('s-dispose');
    await h.inbox.initialize();
    await eventually(() => isOnline('s-dispose'));
    expect(h.storage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeTruthy();
    let notified = 0;
    h.inbox.subscribe(() => notified++);
    h.inbox.dispose();
    expect(h.storage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    await eventually(async () => !(await isOnline('s-dispose')));
    const after = notified;
    await h.inbox.initialize();
    expect(notified).toBe(after);
  });
});

describe('fetching strategy', () => {
  it('fetches notifications and preferences on load when asked, nothing when turned off', async () => {
    await subscriberWith('f-all', 2);
    const h = open('f-all', {
      initialFetchingStrategy: {
        fetchNotifications: true,
        fetchUserPreferences: true,
        fetchUserGlobalPreferences: true,
        fetchOrganization: false,
        fetchUnseenCount: false,
      },
    });
    await h.inbox.initialize();
    expect(h.paths().sort()).toEqual([
      'GET /notifications/feed',
      'GET /preferences',
      'GET /preferences/global',
      'POST /session/initialize',
    ]);
    const state = h.inbox.getSnapshot();
    expect(feed(state).notifications).toHaveLength(2);
    expect(state.preferences.items.map((p) => p.template._id)).toContain(workflowId);
    expect(state.globalPreferences.items[0]!.preference.enabled).toBe(true);
  });

  it('turning a flag on later fetches at once (the preferences screen on mount)', async () => {
    const h = open('f-later');
    await h.inbox.initialize();
    expect(h.paths()).not.toContain('GET /preferences');
    await h.inbox.setFetchingStrategy({ fetchUserPreferences: true });
    expect(h.paths()).toContain('GET /preferences');
    expect(h.inbox.getSnapshot().preferences.status).toBe('success');
  });

  it('does not refetch on window focus', async () => {
    const h = open('f-focus');
    await h.inbox.initialize();
    const before = h.calls.length;
    h.window.dispatchEvent(new Event('focus'));
    h.window.dispatchEvent(new Event('visibilitychange'));
    await new Promise((r) => setTimeout(r, 200));
    expect(h.calls.length).toBe(before);
  });
});

describe('retries', () => {
  it('retries a query up to 3 times with back-off, then gives up', async () => {
    await subscriberWith('r-query', 3);
    const h = open('r-query');
    await h.inbox.initialize();
    const unseenCalls = () => h.calls.filter((c) => c.path === '/notifications/unseen').length;
    const start = unseenCalls();
    h.failNext('/notifications/unseen', 3);
    await h.inbox.fetchCounts();
    expect(unseenCalls() - start).toBe(4);
    expect(h.inbox.getSnapshot().unseenCount).toBe(3);

    h.failNext('/notifications/unseen', 4);
    await expect(h.inbox.fetchCounts()).rejects.toThrow('fetch failed');
    expect(unseenCalls() - start).toBe(8);
  });

  it('never retries a mutation', async () => {
    const { inserted } = await subscriberWith('r-mutation', 1);
    const h = open('r-mutation');
    await h.inbox.initialize();
    h.failNext('/messages/markAs', 1);
    await expect(h.inbox.markAsRead(inserted[0]!.id)).rejects.toThrow('fetch failed');
    expect(h.calls.filter((c) => c.path === '/messages/markAs')).toHaveLength(1);
  });
});

describe('feeds and stores', () => {
  it('pages from 0 and fetches the next page only while hasMore', async () => {
    await subscriberWith('p-ana', 15);
    const h = open('p-ana', { stores: [{ storeId: 'default_store', query: { limit: 10 } }] });
    await h.inbox.initialize();
    await h.inbox.fetchNotifications();
    let state = feed(h.inbox.getSnapshot());
    expect(state.notifications).toHaveLength(10);
    expect(state.hasMore).toBe(true);
    expect(h.last('GET /notifications/feed').search.get('page')).toBe('0');
    await h.inbox.fetchNextPage();
    state = feed(h.inbox.getSnapshot());
    expect(h.last('GET /notifications/feed').search.get('page')).toBe('1');
    expect(state.notifications).toHaveLength(15);
    expect(new Set(state.notifications.map((m) => m._id)).size).toBe(15);
    expect(state.hasMore).toBe(false);
    const before = h.calls.length;
    await h.inbox.fetchNextPage();
    expect(h.calls.length).toBe(before);
  });

  it('two next pages asked at once load pages 1 and 2, each once: no message twice, none skipped', async () => {
    await subscriberWith('p-twice', 25);
    const h = open('p-twice', { stores: [{ storeId: 'default_store', query: { limit: 10 } }] });
    await h.inbox.initialize();
    await h.inbox.fetchNotifications();
    const first = h.inbox.fetchNextPage();
    // The list says which load is running: a next page, not a reload of the shown ones.
    expect(feed(h.inbox.getSnapshot()).loading).toBe('next');
    await Promise.all([first, h.inbox.fetchNextPage()]);
    const state = feed(h.inbox.getSnapshot());
    expect(state.notifications).toHaveLength(25);
    expect(new Set(state.notifications.map((m) => m._id)).size).toBe(25);
    expect(state.hasMore).toBe(false);
    expect(state.loading).toBeNull();
    const pages = h.calls
      .filter((c) => c.path === '/notifications/feed')
      .map((c) => c.search.get('page'));
    expect(pages).toEqual(['0', '1', '2']);
  });

  it('a refetch while a next page loads keeps that page: it reads every loaded page once the next is in', async () => {
    await subscriberWith('p-refetch', 15);
    // Page 0 answers wait for the test (the refetch's), the rest go through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const h = open('p-refetch', {
      stores: [{ storeId: 'default_store', query: { limit: 10 } }],
      fetch: async (input, init) => {
        const page = new URL(String(input)).searchParams.get('page');
        if (holding && page === '0') await held;
        return fetch(input, init);
      },
    });
    await h.inbox.initialize();
    await h.inbox.fetchNotifications();
    holding = true;
    const next = h.inbox.fetchNextPage();
    const refetch = h.inbox.refetchFeeds();
    await next;
    release();
    await refetch;
    const state = feed(h.inbox.getSnapshot());
    expect(state.notifications).toHaveLength(15);
    expect(new Set(state.notifications.map((m) => m._id)).size).toBe(15);
    expect(state.pages.map((p) => p.page)).toEqual([0, 1]);
    expect(state.status).toBe('success');
  });

  it('keeps one feed per store with its own query, and per-store (tab) counts', async () => {
    await t.session('st-ana');
    const row = await subscriberRow(t, 'st-ana');
    const alerts = await addFeed(t.db, row.environmentId, 'st-alerts');
    const billing = await addFeed(t.db, row.environmentId, 'st-billing');
    const inAlerts = await insertMessages(t.db, row, 2, { feedId: alerts.id });
    await insertMessages(t.db, row, 3, { feedId: billing.id, payload: { kind: 'invoice' } });
    await insertMessages(t.db, row, 1, { feedId: billing.id, payload: { kind: 'receipt' } });
    const h = open('st-ana', {
      stores: [
        { storeId: 'alerts', query: { feedIdentifier: 'st-alerts' } },
        {
          storeId: 'invoices',
          query: { feedIdentifier: ['st-billing'], payload: { kind: 'invoice' } },
        },
      ],
    });
    await h.inbox.initialize();
    const state0 = h.inbox.getSnapshot();
    expect(state0.activeStoreId).toBe('alerts');
    expect(feed(state0, 'alerts').count).toBe(2);
    expect(feed(state0, 'invoices').count).toBe(4);
    await h.inbox.fetchNotifications('alerts');
    h.inbox.setActiveStore('invoices');
    await h.inbox.fetchNotifications();
    const state = h.inbox.getSnapshot();
    expect(feed(state, 'alerts').notifications).toHaveLength(2);
    expect(feed(state, 'invoices').notifications).toHaveLength(3);
    const invoiceCall = h.last('GET /notifications/feed');
    expect(invoiceCall.search.getAll('feedIdentifier[]')).toEqual(['st-billing']);
    expect(JSON.parse(atob(invoiceCall.search.get('payload')!))).toEqual({ kind: 'invoice' });
    expect(() => h.inbox.setActiveStore('nope')).toThrow('Unknown store "nope"');
    // A count event refetches the tab counts (and the loaded feeds).
    await eventually(() => h.inbox.getSnapshot().socket === 'connected');
    await h.inbox.api.markAs(
      inAlerts.map((m) => m.id),
      { seen: true },
    );
    await eventually(() => feed(h.inbox.getSnapshot(), 'alerts').count === 0);
    await eventually(() =>
      feed(h.inbox.getSnapshot(), 'alerts').notifications.every((m) => m.seen),
    );
    expect(feed(h.inbox.getSnapshot(), 'invoices').count).toBe(4);
  });
});

describe('messages (section 4 rules)', () => {
  let row: SubscriberRow;
  let h: Harness;
  let ids: string[];

  const message = (id: string) =>
    feed(h.inbox.getSnapshot()).notifications.find((m) => m._id === id)!;
  const flags = (id: string) => ({ seen: message(id).seen, read: message(id).read });

  /**
   * Removes every message and waits until the inbox has heard it: the socket's count events
   * (debounced) make it refetch its feeds, which must not land in the middle of a test.
   */
  async function clear() {
    await t.widget('DELETE', '/messages', { token: h.inbox.api.getToken() });
    await eventually(() => h.inbox.getSnapshot().unseenCount === 0);
    let seen = -1;
    await eventually(async () => {
      if (seen === h.calls.length) return true;
      seen = h.calls.length;
      await new Promise((r) => setTimeout(r, 300));
      return false;
    });
  }

  async function reset(n: number, options = {}) {
    await clear();
    ids = (await insertMessages(t.db, row, n, options)).map((m) => m.id);
    await h.inbox.fetchNotifications();
  }

  beforeAll(async () => {
    await t.session('m-ana');
    row = await subscriberRow(t, 'm-ana');
    h = open('m-ana');
    await h.inbox.initialize();
  });

  it('mark as read sets seen and read; as seen and as unread set seen and not read', async () => {
    await reset(3);
    await h.inbox.markAsRead(ids[0]!);
    expect(flags(ids[0]!)).toEqual({ seen: true, read: true });
    await h.inbox.markAsSeen(ids[1]!);
    expect(flags(ids[1]!)).toEqual({ seen: true, read: false });
    await h.inbox.markAsUnread(ids[0]!);
    expect(flags(ids[0]!)).toEqual({ seen: true, read: false });
    expect(h.last('POST /messages/markAs').body).toEqual({
      messageId: ids[0],
      mark: { seen: true, read: false },
    });
  });

  it('a mark with neither flag marks seen', async () => {
    await reset(1);
    await h.inbox.markAs(ids[0]!, {});
    expect(h.last('POST /messages/markAs').body).toEqual({
      messageId: ids[0],
      mark: { seen: true },
    });
    expect(flags(ids[0]!)).toEqual({ seen: true, read: false });
  });

  it('mark all read makes every loaded message read and seen', async () => {
    await reset(3, { seen: true });
    await h.inbox.markAllAsRead();
    expect(h.paths()).toContain('POST /messages/read');
    expect(ids.map(flags)).toEqual(Array(3).fill({ seen: true, read: true }));
  });

  it('mark all seen makes every loaded message seen and unread', async () => {
    await reset(2, { seen: true, read: true });
    await h.inbox.markAllAsSeen();
    expect(h.paths()).toContain('POST /messages/seen');
    expect(ids.map(flags)).toEqual(Array(2).fill({ seen: true, read: false }));
  });

  it('bulk mark fetched as read targets only the loaded unread messages', async () => {
    await reset(2);
    const [unread1, unread2] = ids;
    const [readOne] = (await insertMessages(t.db, row, 1, { seen: true, read: true })).map(
      (m) => m.id,
    );
    const [seenUnread] = (await insertMessages(t.db, row, 1, { seen: true, read: false })).map(
      (m) => m.id,
    );
    await h.inbox.fetchNotifications();
    const targeted = await h.inbox.markFetchedAsRead();
    expect(new Set(targeted)).toEqual(new Set([unread1, unread2, seenUnread]));
    expect(targeted).not.toContain(readOne);
    expect(h.last('POST /messages/markAs').body).toMatchObject({
      mark: { seen: true, read: true },
    });
    for (const id of targeted) expect(flags(id)).toEqual({ seen: true, read: true });
    // Nothing left: no call.
    const before = h.calls.length;
    expect(await h.inbox.markFetchedAsRead()).toEqual([]);
    expect(h.calls.length).toBe(before);
  });

  it('bulk marks of many loaded messages go 100 ids per request', async () => {
    h.inbox.setActiveStore('default_store');
    await clear();
    await insertMessages(t.db, row, 150);
    await h.inbox.fetchNotifications();
    // Pages of 10 (the server's default) up to all 150.
    while (feed(h.inbox.getSnapshot()).hasMore) await h.inbox.fetchNextPage();
    const before = h.calls.length;
    expect(await h.inbox.markFetchedAsRead()).toHaveLength(150);
    const marks = h.calls.slice(before).filter((c) => c.path === '/messages/markAs');
    expect(marks.map((c) => (c.body as { messageId: string[] }).messageId.length)).toEqual([
      100, 50,
    ]);
    expect(feed(h.inbox.getSnapshot()).notifications.every((m) => m.read && m.seen)).toBe(true);
  });

  it('bulk mark fetched as seen targets only loaded messages neither seen nor read', async () => {
    await reset(1);
    const [seenOnly] = (await insertMessages(t.db, row, 1, { seen: true })).map((m) => m.id);
    const [readOnly] = (await insertMessages(t.db, row, 1, { seen: false, read: true })).map(
      (m) => m.id,
    );
    await h.inbox.fetchNotifications();
    expect(await h.inbox.markFetchedAsSeen()).toEqual([ids[0]]);
    expect(h.last('POST /messages/markAs').body).toEqual({
      messageId: [ids[0]],
      mark: { seen: true, read: false },
    });
    expect(flags(ids[0]!)).toEqual({ seen: true, read: false });
    expect(flags(seenOnly!).seen).toBe(true);
    expect(flags(readOnly!)).toEqual({ seen: false, read: true });
  });

  it('remove and remove all refetch the feed', async () => {
    await reset(3);
    await h.inbox.remove(ids[0]!);
    expect(h.after(`DELETE /messages/${ids[0]}`)).toContain('GET /notifications/feed');
    expect(feed(h.inbox.getSnapshot()).notifications.map((m) => m._id)).toEqual(ids.slice(1));
    await h.inbox.removeAll();
    expect(h.after('DELETE /messages')).toContain('GET /notifications/feed');
    expect(feed(h.inbox.getSnapshot()).notifications).toEqual([]);
  });

  /** The subscriber's feed as the server has it. */
  const onServer = async () =>
    (
      (await t.widget('GET', '/notifications/feed', { token: h.inbox.api.getToken() })).json() as {
        data: { _id: string }[];
      }
    ).data.map((m) => m._id);
  const listed = () => feed(h.inbox.getSnapshot()).notifications.map((m) => m._id);

  it('a removal staged for undo leaves the feed and the counts at once and sends nothing; undo puts it back in its place', async () => {
    await reset(3);
    await h.inbox.fetchCounts();
    expect(h.inbox.getSnapshot()).toMatchObject({ unseenCount: 3, unreadCount: 3 });
    const callsBefore = h.calls.length;
    h.inbox.stageRemoval(message(ids[1]!));
    expect(listed()).toEqual([ids[0], ids[2]]);
    expect(h.inbox.getSnapshot()).toMatchObject({ unseenCount: 2, unreadCount: 2 });
    // A refetch meanwhile (a count event, another tab) does not bring it back.
    await h.inbox.fetchNotifications();
    expect(listed()).toEqual([ids[0], ids[2]]);
    expect(
      h
        .paths()
        .slice(callsBefore)
        .filter((p) => !p.startsWith('GET')),
    ).toEqual([]);
    expect(await onServer()).toEqual(ids);

    expect(h.inbox.undoRemoval(ids[1]!)).toBe(true);
    expect(listed()).toEqual(ids);
    expect(h.inbox.getSnapshot()).toMatchObject({ unseenCount: 3, unreadCount: 3 });
    expect(h.inbox.undoRemoval(ids[1]!)).toBe(false);
    expect(await onServer()).toEqual(ids);
  });

  it('a staged removal is sent by commitRemoval, or when the client goes first (the page closed)', async () => {
    await reset(2);
    h.inbox.stageRemoval(message(ids[0]!));
    await h.inbox.commitRemoval(ids[0]!);
    expect(h.last(`DELETE /messages/${ids[0]}`)).toBeDefined();
    expect(await onServer()).toEqual([ids[1]]);
    expect(h.inbox.undoRemoval(ids[0]!)).toBe(false);

    // Another tab of the same subscriber removes the other one and is closed at once.
    const other = open('m-ana');
    await other.inbox.initialize();
    await other.inbox.fetchNotifications();
    other.inbox.stageRemoval(feed(other.inbox.getSnapshot()).notifications[0]!);
    other.inbox.dispose();
    expect(other.last('POST /messages/bulk/delete').body).toEqual({ messageIds: [ids[1]] });
    await eventually(async () => (await onServer()).length === 0);
  });

  it('archive takes a message out of the feed at once; unarchive and archive-read (Sino only)', async () => {
    await reset(3);
    await h.inbox.archive(ids[1]!);
    expect(h.last(`POST /messages/${ids[1]}/archive`)).toBeDefined();
    expect(feed(h.inbox.getSnapshot()).notifications.map((m) => m._id)).toEqual([ids[0], ids[2]]);
    const archive = await h.inbox.fetchOutOfInbox('archived');
    expect(archive.data.map((m) => m._id)).toEqual([ids[1]]);
    expect(archive.data[0]!.archivedAt).toEqual(expect.any(String));
    await eventually(() => h.inbox.getSnapshot().unseenCount === 2);

    await h.inbox.unarchive(ids[1]!);
    expect(feed(h.inbox.getSnapshot()).notifications.map((m) => m._id)).toEqual(ids);

    await h.inbox.markAsRead([ids[0]!, ids[2]!]);
    expect(await h.inbox.archiveRead()).toBe(2);
    expect(h.last('POST /messages/archive-read').body).toEqual({});
    expect(feed(h.inbox.getSnapshot()).notifications.map((m) => m._id)).toEqual([ids[1]]);
  });

  it('snooze hides a message until its time; it comes back unread over the socket (Sino only)', async () => {
    await reset(2, { seen: true, read: true });
    const until = new Date(Date.now() + 1_500);
    await h.inbox.snooze(ids[0]!, until);
    expect(h.last(`POST /messages/${ids[0]}/snooze`).body).toEqual({
      until: until.toISOString(),
    });
    expect(feed(h.inbox.getSnapshot()).notifications.map((m) => m._id)).toEqual([ids[1]]);
    const snoozed = await h.inbox.fetchOutOfInbox('snoozed');
    expect(snoozed.data.map((m) => [m._id, m.snoozedUntil])).toEqual([
      [ids[0], until.toISOString()],
    ]);
    // Back by itself: the socket's counts make the inbox refetch its feed.
    await eventually(() => h.inbox.getSnapshot().unreadCount === 1, 10_000);
    await eventually(() => feed(h.inbox.getSnapshot()).notifications.length === 2);
    expect(flags(ids[0]!)).toEqual({ seen: false, read: false });

    await h.inbox.snooze(ids[1]!, new Date(Date.now() + 60_000));
    await h.inbox.unsnooze(ids[1]!);
    expect(feed(h.inbox.getSnapshot()).notifications.map((m) => m._id)).toEqual(ids);
    expect(flags(ids[1]!)).toEqual({ seen: true, read: true });
  });

  it('clicking a notification marks it read and logs the click', async () => {
    await reset(1, { cta: { type: 'redirect', data: { url: '/reservas/1' } } });
    await h.inbox.clickNotification(message(ids[0]!));
    expect(flags(ids[0]!)).toEqual({ seen: true, read: true });
    expect(h.calls.find((c) => c.path === '/usage/log')!.body).toEqual({
      name: '[Widget] - Notification Click',
      payload: { notificationId: ids[0], hasCta: true },
    });
    expect(t.logs.some((l) => l.includes('[Widget] - Notification Click'))).toBe(true);
  });

  it('an action click stores its status and replaces the loaded copy', async () => {
    await reset(1, {
      cta: {
        type: 'redirect',
        data: {},
        action: { status: 'pending', buttons: [{ type: 'primary', content: 'Confirm' }] },
      },
    });
    await h.inbox.clickAction(ids[0]!, 'primary', 'done', { answer: 'yes' });
    expect(h.last(`POST /messages/${ids[0]}/actions/primary`).body).toEqual({
      executedType: 'primary',
      status: 'done',
      payload: { answer: 'yes' },
    });
    expect(message(ids[0]!).cta!.action).toMatchObject({
      status: 'done',
      result: { type: 'primary', payload: { answer: 'yes' } },
    });
  });
});

describe('realtime', () => {
  it('keeps one socket: connecting again closes the earlier socket first', async () => {
    const [tokenA, tokenB] = [await t.session('so-a'), await t.session('so-b')];
    const statuses: string[] = [];
    const socket = new SocketManager(
      url,
      {
        onStatus: (s) => statuses.push(s),
        onNotificationReceived: () => {},
        onUnseenCountChanged: () => {},
        onUnreadCountChanged: () => {},
        onReconnected: () => {},
      },
      { error: () => {} },
      undefined,
      WebSocket,
    );
    try {
      socket.connect(tokenA);
      await eventually(() => isOnline('so-a'));
      socket.connect(tokenB);
      await eventually(() => isOnline('so-b'));
      await eventually(async () => !(await isOnline('so-a')));
      expect(statuses).toContain('disconnected');
    } finally {
      socket.disconnect();
    }
    await eventually(async () => !(await isOnline('so-b')));
  });

  it('after a reconnect, reads the counts and the loaded page again: what came meanwhile shows', async () => {
    const { port } = new URL(url);
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(port) });
    try {
      await subscriberWith('rt-away', 1);
      const h = open('rt-away', {
        socketUrl: proxy.urlFor(url),
        initialFetchingStrategy: { fetchNotifications: true },
      });
      await h.inbox.initialize();
      await eventually(() => h.inbox.getSnapshot().socket === 'connected');
      expect(h.inbox.getSnapshot().unseenCount).toBe(1);

      // The socket's connection is cut (its node went away); a notification comes meanwhile,
      // its socket events heard by nobody.
      await proxy.refuse();
      await eventually(() => h.inbox.getSnapshot().socket === 'disconnected');
      await trigger('rt-away', 'meanwhile');
      await proxy.resume();

      await eventually(() => h.inbox.getSnapshot().socket === 'connected');
      await eventually(() => h.inbox.getSnapshot().unseenCount === 2);
      await eventually(() =>
        feed(h.inbox.getSnapshot()).notifications.some((n) => n.content === 'Hello meanwhile'),
      );
      expect(h.after('POST /session/initialize')).toEqual(
        expect.arrayContaining(['GET /notifications/unseen', 'GET /notifications/feed']),
      );
    } finally {
      await proxy.close();
    }
  });

  it('logs a refused connection with its message', async () => {
    const logged: unknown[][] = [];
    const socket = new SocketManager(
      url,
      {
        onStatus: () => {},
        onNotificationReceived: () => {},
        onUnseenCountChanged: () => {},
        onUnreadCountChanged: () => {},
        onReconnected: () => {},
      },
      { error: (...args) => logged.push(args) },
      undefined,
      WebSocket,
    );
    try {
      socket.connect('not-a-token');
      await eventually(() => logged.length > 0);
      expect(logged[0]).toEqual(['Unauthorized']);
    } finally {
      socket.disconnect();
    }
  });

  it('debounces count events: one browser event with the last count, counts set, feed refetched', async () => {
    const { inserted } = await subscriberWith('rt-ana', 3);
    const received: string[] = [];
    const h = open('rt-ana', {
      socketEventDebounceMs: 500,
      initialFetchingStrategy: { fetchNotifications: true },
      onNotificationReceived: (m) => received.push(m.content),
    });
    await h.inbox.initialize();
    await eventually(() => h.inbox.getSnapshot().socket === 'connected');
    expect(h.inbox.getSnapshot().unseenCount).toBe(3);

    // Three marks at once: three pairs of count events within a few milliseconds.
    await Promise.all(inserted.map((m) => h.inbox.api.markAs(m.id, { seen: true, read: true })));
    await eventually(() => h.events.length >= 2);
    await new Promise((r) => setTimeout(r, 800));
    expect(h.events).toEqual(
      expect.arrayContaining([
        { type: 'unseen_count_changed', detail: 0 },
        { type: 'unread_count_changed', detail: 0 },
      ]),
    );
    expect(h.events).toHaveLength(2);
    const state = h.inbox.getSnapshot();
    expect(state.unseenCount).toBe(0);
    expect(state.unreadCount).toBe(0);
    // The feed was refetched: the loaded copies say read, though the store never marked them.
    await eventually(() => feed(h.inbox.getSnapshot()).notifications.every((m) => m.read));

    // A new notification: received, counted, and in the feed after the refetch.
    await trigger('rt-ana', 'Bia');
    await eventually(() => h.inbox.getSnapshot().unseenCount === 1);
    await eventually(() =>
      feed(h.inbox.getSnapshot()).notifications.some((m) => m.content === 'Hello Bia'),
    );
    expect(received).toEqual(['Hello Bia']);
    expect(h.events.slice(2)).toEqual(
      expect.arrayContaining([{ type: 'unseen_count_changed', detail: 1 }]),
    );
  });
});

describe('preferences', () => {
  it('a channel toggle is optimistic, then replaced by the answer; all switches wait meanwhile', async () => {
    const h = open('pr-ana', { initialFetchingStrategy: { fetchUserPreferences: true } });
    await h.inbox.initialize();
    const entry = () =>
      h.inbox.getSnapshot().preferences.items.find((p) => p.template._id === workflowId)!;
    expect(entry().preference.channels.in_app).toBe(true);

    const pending = h.inbox.updatePreference(workflowId, 'in_app', false);
    expect(entry().preference.channels.in_app).toBe(false);
    expect(h.inbox.getSnapshot().preferences.updating).toEqual([workflowId]);
    await pending;
    expect(h.inbox.getSnapshot().preferences.updating).toEqual([]);
    expect(h.last(`PATCH /preferences/${workflowId}`)).toMatchObject({
      body: { channel: { type: 'in_app', enabled: false } },
    });
    expect(entry().preference.channels.in_app).toBe(false);
    const server = (await t.widget('GET', '/preferences', { token: h.inbox.api.getToken() })).json()
      .data as { template: { _id: string }; preference: { channels: { in_app: boolean } } }[];
    expect(server.find((p) => p.template._id === workflowId)!.preference.channels.in_app).toBe(
      false,
    );
  });

  it('a failed toggle reverts silently to the opposite value', async () => {
    const h = open('pr-fail', { initialFetchingStrategy: { fetchUserPreferences: true } });
    await h.inbox.initialize();
    h.failNext(`/preferences/${workflowId}`, 1);
    await expect(h.inbox.updatePreference(workflowId, 'in_app', false)).resolves.toBeUndefined();
    const entry = h.inbox
      .getSnapshot()
      .preferences.items.find((p) => p.template._id === workflowId)!;
    expect(entry.preference.channels.in_app).toBe(true);
    expect(h.errors).toEqual([]);
  });

  it('updates global preferences with the channel list and enabled flag', async () => {
    const h = open('pr-global', { initialFetchingStrategy: { fetchUserGlobalPreferences: true } });
    await h.inbox.initialize();
    await h.inbox.updateGlobalPreferences({
      enabled: true,
      preferences: [{ type: 'email', enabled: false }],
    });
    expect(h.last('PATCH /preferences')).toMatchObject({
      body: { enabled: true, preferences: [{ type: 'email', enabled: false }] },
    });
    expect(h.inbox.getSnapshot().globalPreferences.items[0]!.preference.channels.email).toBe(false);
  });
});
