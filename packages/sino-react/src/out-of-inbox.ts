import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { FIRST_PAGE, type FeedPage, type LoadStatus, type Message, type SinoInbox } from '@sino/js';
import { useSinoContext } from './context.js';
import { useInboxState } from './hooks.js';

/**
 * Sino's additions to Novu's widget API (docs/decisions/019): archive and snooze. Their hooks
 * live here; the messages out of the inbox (the archive, the snoozed ones) are not kept in the
 * client's store, so each `useOutOfInbox` keeps its own pages and is told of every change made
 * through these hooks.
 */

export type OutOfInboxKind = 'archived' | 'snoozed';

// Per client: the out-of-inbox lists to refetch after an archive or snooze change.
const listeners = new WeakMap<SinoInbox, Set<() => Promise<void>>>();

function listen(inbox: SinoInbox, listener: () => Promise<void>): () => void {
  const set = listeners.get(inbox) ?? new Set();
  listeners.set(inbox, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** Refetches every mounted list of the client; a failed refetch stays in its list's state. */
async function changed(inbox: SinoInbox): Promise<void> {
  await Promise.allSettled([...(listeners.get(inbox) ?? [])].map((refetch) => refetch()));
}

/**
 * A change of what is out of the inbox: the mounted lists are refetched, success or not, before
 * the action resolves (so a view shows the change when it does).
 */
async function outOfInboxChange<R>(inbox: SinoInbox, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } finally {
    await changed(inbox);
  }
}

const actions = {
  archive: (i: SinoInbox, messageId: string) => outOfInboxChange(i, () => i.archive(messageId)),
  unarchive: (i: SinoInbox, messageId: string) => outOfInboxChange(i, () => i.unarchive(messageId)),
  archiveRead: (i: SinoInbox, feedIdentifier?: string) =>
    outOfInboxChange(i, () => i.archiveRead(feedIdentifier)),
  snooze: (i: SinoInbox, messageId: string, until: Date) =>
    outOfInboxChange(i, () => i.snooze(messageId, until)),
  unsnooze: (i: SinoInbox, messageId: string) => outOfInboxChange(i, () => i.unsnooze(messageId)),
  remove: (i: SinoInbox, messageId: string) => outOfInboxChange(i, () => i.remove(messageId)),
};

/** Binds an action to the client once it exists (before that it resolves to undefined). */
function useAction<A extends unknown[], R>(
  run: (inbox: SinoInbox, ...args: A) => Promise<R>,
): (...args: A) => Promise<R | undefined> {
  const { inbox } = useSinoContext();
  return useCallback(
    (...args: A) => (inbox ? run(inbox, ...args) : Promise.resolve(undefined)),
    [inbox, run],
  );
}

/**
 * Archive (Sino only): `archive(id)` takes a message out of the feed and the counts into the
 * archive, `unarchive(id)` brings it back, `archiveRead(feedIdentifier?)` archives every read
 * message of the inbox (answers how many). The feeds and every mounted `useOutOfInbox` are
 * refetched.
 */
export function useArchive() {
  return {
    archive: useAction(actions.archive),
    unarchive: useAction(actions.unarchive),
    archiveRead: useAction(actions.archiveRead),
  };
}

/**
 * Snooze (Sino only): `snooze(id, until)` takes a message out of the feed until `until` (a
 * `Date` in the future, at most 365 days ahead), when it comes back unseen and unread over the
 * socket; `unsnooze(id)` brings it back now. The feeds and every mounted `useOutOfInbox` are
 * refetched.
 */
export function useSnooze() {
  return {
    snooze: useAction(actions.snooze),
    unsnooze: useAction(actions.unsnooze),
  };
}

/** Removes a message and refetches the feeds and the mounted out-of-inbox lists. */
export function useRemoveOutOfInbox() {
  return useAction(actions.remove);
}

interface OutOfInboxSnapshot {
  pages: FeedPage[];
  notifications: Message[];
  hasMore: boolean;
  status: LoadStatus;
  /** What the running or last failed load was: the first pages, or the next one. */
  loading: 'pages' | 'next' | null;
  error: string | null;
}

const idle: OutOfInboxSnapshot = {
  pages: [],
  notifications: [],
  hasMore: false,
  status: 'idle',
  loading: null,
  error: null,
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The pages of one out-of-inbox list of one session. Loads run one after another; refetches
 * asked for while one runs coalesce into one more.
 */
class OutOfInboxList {
  private state: OutOfInboxSnapshot = idle;
  private readonly subscribers = new Set<() => void>();
  private queue: Promise<void> = Promise.resolve();
  private refetchQueued: Promise<void> | null = null;
  private counts: string | null = null;

  constructor(
    private readonly inbox: SinoInbox,
    private readonly which: OutOfInboxKind,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  };

  getSnapshot = (): OutOfInboxSnapshot => this.state;

  /** Every loaded page (at least the first), again. */
  refetch = (): Promise<void> => {
    this.refetchQueued ??= this.enqueue(() => {
      this.refetchQueued = null;
      const count = Math.max(1, this.state.pages.length);
      return this.load(
        'pages',
        Array.from({ length: count }, (_, i) => FIRST_PAGE + i),
      );
    });
    return this.refetchQueued;
  };

  /** The next page, only while the last one said `hasMore`. */
  fetchNextPage = (): Promise<void> =>
    this.enqueue(() => {
      if (this.state.pages.length === 0) return this.load('pages', [FIRST_PAGE]);
      if (!this.state.hasMore) return Promise.resolve();
      return this.load('next', [FIRST_PAGE + this.state.pages.length]);
    });

  /** The inbox's counts changed (a snooze ended, say): a loaded list is read again. */
  countsChanged(counts: string): void {
    const before = this.counts;
    this.counts = counts;
    if (before !== null && before !== counts && this.state.status !== 'idle')
      void this.refetch().catch(() => undefined);
  }

  private enqueue(run: () => Promise<void>): Promise<void> {
    const next = this.queue.then(run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(kind: 'pages' | 'next', pageNumbers: number[]): Promise<void> {
    this.set({ status: 'loading', loading: kind, error: null });
    try {
      const pages = await Promise.all(
        pageNumbers.map((page) => this.inbox.fetchOutOfInbox(this.which, page)),
      );
      const all = kind === 'next' ? [...this.state.pages, ...pages] : pages;
      this.set({
        pages: all,
        notifications: all.flatMap((p) => p.data),
        hasMore: all[all.length - 1]?.hasMore ?? false,
        status: 'success',
        loading: null,
        error: null,
      });
    } catch (error) {
      this.set({ status: 'error', loading: kind, error: messageOf(error) });
      throw error;
    }
  }

  private set(patch: Partial<OutOfInboxSnapshot>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.subscribers]) listener();
  }
}

export interface UseOutOfInboxResult {
  which: OutOfInboxKind;
  notifications: Message[];
  pages: FeedPage[];
  hasMore: boolean;
  /** `idle` until the session is up and the first page is asked for. */
  status: LoadStatus;
  /** The first page loading (a refetch keeps the loaded pages shown). */
  isLoading: boolean;
  /** A later page loading. */
  isFetchingNextPage: boolean;
  error: string | null;
  /** The failed load was a later page (the list is still shown). */
  nextPageFailed: boolean;
  fetchNextPage: () => Promise<void>;
  refetch: () => Promise<void>;
}

const noSubscription = () => () => {};
const idleSnapshot = () => idle;
const nothing = () => Promise.resolve();

/**
 * The archive (`'archived'`, newest archived first) or the snoozed messages (`'snoozed'`,
 * soonest back first), in pages of the feed's shape, loaded at mount once the session is up.
 * Refetched after any change made through `useArchive`, `useSnooze` or the widget's menus,
 * and when the inbox's counts change (a snooze that ends on its own).
 */
export function useOutOfInbox(which: OutOfInboxKind): UseOutOfInboxResult {
  const { inbox } = useSinoContext();
  const { session, unseenCount, unreadCount } = useInboxState();
  // One list per client, kind and session: a new session (another subscriber) starts over.
  const profile = session.status === 'initialized' ? session.profile : null;
  const list = useMemo(
    () => (inbox && profile ? new OutOfInboxList(inbox, which) : null),
    [inbox, which, profile],
  );
  const state = useSyncExternalStore(
    list?.subscribe ?? noSubscription,
    list?.getSnapshot ?? idleSnapshot,
    list?.getSnapshot ?? idleSnapshot,
  );
  useEffect(() => {
    if (!inbox || !list) return;
    if (list.getSnapshot().status === 'idle') void list.refetch().catch(() => undefined);
    return listen(inbox, list.refetch);
  }, [inbox, list]);
  useEffect(() => {
    list?.countsChanged(`${unseenCount}:${unreadCount}`);
  }, [list, unseenCount, unreadCount]);
  return {
    which,
    notifications: state.notifications,
    pages: state.pages,
    hasMore: state.hasMore,
    status: state.status,
    isLoading: state.status === 'loading' && state.pages.length === 0,
    isFetchingNextPage: state.status === 'loading' && state.loading === 'next',
    error: state.error,
    nextPageFailed: state.status === 'error' && state.loading === 'next',
    fetchNextPage: list?.fetchNextPage ?? nothing,
    refetch: list?.refetch ?? nothing,
  };
}
