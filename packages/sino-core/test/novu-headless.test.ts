import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { HeadlessService, type IMessage, type IUserPreferenceSettings } from '@novu/headless';
import { jobs, messages } from '../src/db/schema.js';
import { startListeningSino, type ListeningSino } from './listening.js';
import { eventually } from './fixtures.js';

/**
 * The published `@novu/headless@0.24.2`, unchanged, in Node against a listening Sino: HTTP
 * through its `@novu/client`, realtime through its own socket.io-client 4.7. It needs no
 * browser globals: without `window` it keeps the session token in memory only. With
 * TEST_SINO_TOPOLOGY, against the server as many processes behind a balancer (listening.ts):
 * HTTP on the api nodes, the socket on a ws node, the steps on the workers.
 */
let t: ListeningSino;
let url: string;
const opened: HeadlessService[] = [];

beforeAll(async () => {
  t = await startListeningSino();
  url = t.url;
}, 300_000);
afterAll(async () => {
  // The service has no close: its socket is closed here so it does not try to reconnect.
  for (const h of opened)
    (h as unknown as { socket: { disconnect(): void } | null }).socket?.disconnect();
  await t.close();
}, 60_000);

/**
 * A headless service for the subscriber, with no retries so refusals surface at once. The
 * environment requires the subscriber's hash: the right one is given unless told otherwise
 * (`null`: none).
 */
function headless(
  subscriberId: string,
  subscriberHash: string | null = t.subscriberHash(subscriberId),
): HeadlessService {
  const h = new HeadlessService({
    applicationIdentifier: t.credentials.applicationIdentifier,
    subscriberId,
    backendUrl: url,
    socketUrl: url,
    ...(subscriberHash !== null && { subscriberHash }),
    config: { retry: 0 },
  });
  opened.push(h);
  return h;
}

interface Callbacks<T> {
  listener: () => void;
  onSuccess: (data: T) => void;
  onError: (error: unknown) => void;
}

/**
 * The first answer of a headless call given as callbacks (queries, mutations and the session
 * alike); a query's subscription is ended once it answered.
 */
async function answer<T>(start: (callbacks: Callbacks<T>) => unknown): Promise<T> {
  let stop: unknown;
  try {
    return await new Promise<T>((resolve, reject) => {
      stop = start({ listener: () => {}, onSuccess: resolve, onError: reject });
    });
  } finally {
    const unsubscribe = await stop;
    if (typeof unsubscribe === 'function') (unsubscribe as () => void)();
  }
}

async function trigger(name: string, to: string, payload: Record<string, unknown>, tx: string) {
  const r = await t.api('POST', '/v1/events/trigger', {
    body: { name, to, payload, transactionId: tx },
  });
  expect(r.json().data.status).toBe('processed');
}

const isOnline = async (subscriberId: string) =>
  (await t.api('GET', `/v1/subscribers/${subscriberId}`)).json().data?.isOnline === true;

/** The message as Sino (and Novu 0.24's API) sends it; the client's type omits some fields. */
type Message = IMessage & { transactionId: string };

interface Session {
  token: string;
  profile: { _id: string; firstName: string | null };
}

describe('@novu/headless 0.24.2 against Sino', () => {
  let h: HeadlessService;
  let workflowId: string;
  const unseen: number[] = [];
  const unread: number[] = [];
  const received: Message[] = [];

  beforeAll(async () => {
    const r = await t.api('POST', '/v1/workflows', {
      body: {
        name: 'Headless',
        identifier: 'headless',
        active: true,
        steps: [{ template: { type: 'in_app', content: 'Hello {{name}}' } }],
      },
    });
    workflowId = r.json().data._id as string;
  });

  it('initializes a session: the subscriber is created and its socket connects', async () => {
    h = headless('hl-ana');
    const session = await answer<Session>((c) => h.initializeSession(c));
    // Heard from the socket's first packet: Sino sends the counts when a socket connects.
    h.listenUnseenCountChange({ listener: (count) => unseen.push(count) });
    h.listenUnreadCountChange({ listener: (count) => unread.push(count) });
    h.listenNotificationReceive({ listener: (message) => received.push(message as Message) });
    expect(session.token.split('.')).toHaveLength(3);
    expect(session.profile).toMatchObject({ _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const subscriber = (await t.api('GET', '/v1/subscribers/hl-ana')).json().data;
    expect(subscriber._id).toBe(session.profile._id);
    // The socket (query token, websocket transport) marks the subscriber online.
    await eventually(() => isOnline('hl-ana'));
    await eventually(async () => unseen.length === 1 && unread.length === 1);
    expect([unseen, unread]).toEqual([[0], [0]]);
  });

  it('receives the new message and unseen_count_changed over the socket when triggered', async () => {
    await trigger('headless', 'hl-ana', { name: 'Ana' }, 'hl-1');
    await eventually(async () => unseen.length > 1 && received.length > 0);
    expect(unseen).toEqual([0, 1]);
    expect(unread).toEqual([0, 1]);
    expect(received).toEqual([
      expect.objectContaining({ content: 'Hello Ana', transactionId: 'hl-1', seen: false }),
    ]);
  });

  it('reads the feed and the counts', async () => {
    await trigger('headless', 'hl-ana', { name: 'again' }, 'hl-2');
    await eventually(async () => unseen.length === 3);
    expect(unseen).toEqual([0, 1, 2]);
    const page = await answer<{
      data: IMessage[];
      totalCount: number;
      hasMore: boolean;
      pageSize: number;
      page: number;
    }>((c) => h.fetchNotifications({ page: 0, query: { limit: 1 }, ...c }));
    // As in Novu 0.24, totalCount is the number of items on the page; hasMore tells the rest.
    expect(page).toMatchObject({ totalCount: 1, hasMore: true, pageSize: 1, page: 0 });
    expect(page.data.map((m) => m.content)).toEqual(['Hello again']);
    const both = await answer<{ data: IMessage[]; hasMore: boolean }>((c) =>
      h.fetchNotifications({ page: 0, ...c }),
    );
    expect(both.hasMore).toBe(false);
    expect(both.data.map((m) => m.content)).toEqual(['Hello again', 'Hello Ana']);
    expect(await answer((c) => h.fetchUnseenCount(c))).toEqual({ count: 2 });
    expect(await answer((c) => h.fetchUnreadCount(c))).toEqual({ count: 2 });
    const organization = await answer<{ _id: string }>((c) => h.fetchOrganization(c));
    expect(organization._id).toBe(t.credentials.organizationId);
  });

  it('marks a message read: stored seen and read, counts pushed over the socket', async () => {
    const page = await answer<{ data: IMessage[] }>((c) => h.fetchNotifications({ page: 0, ...c }));
    const newest = page.data[0]!;
    const marked = await answer<IMessage[]>((c) =>
      h.markNotificationsAsRead({ messageId: newest._id, ...c }),
    );
    expect(marked).toEqual([expect.objectContaining({ _id: newest._id, seen: true, read: true })]);
    const [row] = await t.db.select().from(messages).where(eq(messages.id, newest._id));
    expect(row).toMatchObject({ seen: true, read: true });
    await eventually(async () => unseen.length === 4 && unread.length === 4);
    expect(unseen.at(-1)).toBe(1);
    expect(unread.at(-1)).toBe(1);
    expect(await answer((c) => h.fetchUnseenCount(c))).toEqual({ count: 1 });
  });

  it('removes a message: gone from the feed, soft-deleted in the store', async () => {
    const before = await answer<{ data: IMessage[] }>((c) =>
      h.fetchNotifications({ page: 0, ...c }),
    );
    const oldest = before.data.at(-1)!;
    const removed = await answer<IMessage>((c) =>
      h.removeNotification({ messageId: oldest._id, ...c }),
    );
    expect(removed).toMatchObject({ _id: oldest._id });
    const after = await answer<{ data: IMessage[]; totalCount: number }>((c) =>
      h.fetchNotifications({ page: 0, ...c }),
    );
    expect(after.totalCount).toBe(1);
    expect(after.data.map((m) => m._id)).not.toContain(oldest._id);
    const [row] = await t.db.select().from(messages).where(eq(messages.id, oldest._id));
    expect(row?.deleted).toBe(true);
  });

  it('toggles a preference off: the next trigger skips the in-app step', async () => {
    // This suite's workflow: an installation's environment has others (Locadora's, on a cluster).
    const ours = (all: IUserPreferenceSettings[]) =>
      all.filter((s) => s.template._id === workflowId);
    const settings = ours(
      await answer<IUserPreferenceSettings[]>((c) => h.fetchUserPreferences(c)),
    );
    expect(settings).toEqual([
      expect.objectContaining({
        template: expect.objectContaining({ _id: workflowId, name: 'Headless' }),
        preference: expect.objectContaining({ enabled: true, channels: { in_app: true } }),
      }),
    ]);
    const updated = await answer<IUserPreferenceSettings>((c) =>
      h.updateUserPreferences({
        templateId: workflowId,
        channelType: 'in_app',
        checked: false,
        ...c,
      }),
    );
    expect(updated.preference.channels).toEqual({ in_app: false });
    const refetched = await answer<IUserPreferenceSettings[]>((c) => h.fetchUserPreferences(c));
    expect(ours(refetched)[0]!.preference.channels).toEqual({ in_app: false });

    const countsBefore = unseen.length;
    await trigger('headless', 'hl-ana', { name: 'muted' }, 'hl-muted');
    const [job] = await eventually(async () => {
      const rows = await t.db.select().from(jobs).where(eq(jobs.transactionId, 'hl-muted'));
      return rows[0]?.status === 'skipped' && rows;
    });
    expect(job!.status).toBe('skipped');
    expect(unseen.length).toBe(countsBefore);
    expect(received.map((m) => m.transactionId)).not.toContain('hl-muted');

    await answer((c) =>
      h.updateUserPreferences({
        templateId: workflowId,
        channelType: 'in_app',
        checked: true,
        ...c,
      }),
    );
    await trigger('headless', 'hl-ana', { name: 'back' }, 'hl-back');
    await eventually(async () => received.some((m) => m.transactionId === 'hl-back'));
  });

  it('a second subscriber does not see the first one’s messages or socket events', async () => {
    const other = headless('hl-bruno');
    await answer<Session>((c) => other.initializeSession(c));
    const theirs: number[] = [];
    other.listenUnseenCountChange({ listener: (count) => theirs.push(count) });
    await eventually(() => isOnline('hl-bruno'));
    await eventually(async () => theirs.length === 1);
    const feed = await answer<{ data: IMessage[]; totalCount: number }>((c) =>
      other.fetchNotifications({ page: 0, ...c }),
    );
    expect(feed.totalCount).toBe(0);
    const anaBefore = unseen.length;
    await trigger('headless', 'hl-bruno', { name: 'Bruno' }, 'hl-bruno-1');
    await eventually(async () => theirs.length === 2);
    expect(theirs).toEqual([0, 1]);
    expect(unseen.length).toBe(anaBefore);
  });
});

describe('@novu/headless 0.24.2 with HMAC enabled (as the environment has it)', () => {
  it('starts a session with the right subscriberHash', async () => {
    const hash = createHmac('sha256', t.credentials.apiKey).update('hl-secure').digest('hex');
    const h = headless('hl-secure', hash);
    const session = await answer<Session>((c) => h.initializeSession(c));
    expect(session.token).toEqual(expect.any(String));
    await eventually(() => isOnline('hl-secure'));
    expect(await answer((c) => h.fetchUnseenCount(c))).toEqual({ count: 0 });
  });

  it('is refused without a hash or with a wrong one, and nothing is created', async () => {
    // The client's query library logs each failed query to the console: expected here.
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    onTestFinished(() => log.mockRestore());
    for (const hash of [null, 'f'.repeat(64)]) {
      const h = headless('hl-intruder', hash);
      const error = (await answer((c) => h.initializeSession(c)).catch((e: unknown) => e)) as {
        response?: { status: number; data: { message: string } };
      };
      expect(error.response?.status).toBe(400);
      expect(error.response?.data.message).toBe('Please provide a valid HMAC hash');
      expect(() => h.fetchUnseenCount({ listener: () => {} })).toThrow(/not initialized/);
    }
    expect((await t.api('GET', '/v1/subscribers/hl-intruder')).statusCode).toBe(404);
  });
});
