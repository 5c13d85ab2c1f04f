import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  DEFAULT_FETCHING_STRATEGY,
  DEFAULT_STORE_ID,
  type FeedState,
  type ActionStatus,
  type ButtonType,
  type ChannelType,
  type InboxState,
  type MarkAs,
  type Message,
  type SinoInbox,
} from '@sino/js';
import { useSinoContext } from './context.js';
import {
  formatDate,
  interpolate,
  plural,
  relativeTime,
  type TranslationKey,
} from './i18n/index.js';

const noSubscription = () => () => {};

/** What hooks read before the provider's effect has built the client (first render). */
const idleState: InboxState = {
  session: { status: 'uninitialized', profile: null, error: null },
  socket: 'disconnected',
  activeStoreId: DEFAULT_STORE_ID,
  stores: {},
  unseenCount: 0,
  unreadCount: 0,
  organization: null,
  preferences: { status: 'idle', items: [], updating: [] },
  globalPreferences: { status: 'idle', items: [], updating: false },
  fetchingStrategy: { ...DEFAULT_FETCHING_STRATEGY },
};
const idleFeed = (storeId: string): FeedState => ({
  storeId,
  query: {},
  pages: [],
  notifications: [],
  hasMore: false,
  status: 'idle',
  loading: null,
  error: null,
  count: null,
});

/** The client; null on the first render, before the provider's effect has built it. */
export function useSinoInbox(): SinoInbox | null {
  return useSinoContext().inbox;
}

/** The inbox's whole immutable snapshot, re-rendering on every change. */
export function useInboxState(): InboxState {
  const { inbox } = useSinoContext();
  return useSyncExternalStore(
    inbox?.subscribe ?? noSubscription,
    inbox?.getSnapshot ?? (() => idleState),
    inbox?.getSnapshot ?? (() => idleState),
  );
}

/**
 * Binds a module-level action to the client once it exists (before that the call resolves to
 * undefined). Actions are module-level so the callback changes only with the client.
 */
function useAction<A extends unknown[], R>(
  run: (inbox: SinoInbox, ...args: A) => Promise<R>,
): (...args: A) => Promise<R | undefined> {
  const { inbox } = useSinoContext();
  return useCallback(
    (...args: A) => (inbox ? run(inbox, ...args) : Promise.resolve(undefined)),
    [inbox, run],
  );
}

type Ids = string | string[];
const actions = {
  markAs: (i: SinoInbox, ids: Ids, mark: MarkAs) => i.markAs(ids, mark),
  markAsRead: (i: SinoInbox, ids: Ids) => i.markAsRead(ids),
  markAsSeen: (i: SinoInbox, ids: Ids) => i.markAsSeen(ids),
  markAsUnread: (i: SinoInbox, ids: Ids) => i.markAsUnread(ids),
  markAllAsRead: (i: SinoInbox, feedIdentifier?: string) => i.markAllAsRead(feedIdentifier),
  markAllAsSeen: (i: SinoInbox, feedIdentifier?: string) => i.markAllAsSeen(feedIdentifier),
  markFetchedAsRead: (i: SinoInbox, storeId?: string) => i.markFetchedAsRead(storeId),
  markFetchedAsSeen: (i: SinoInbox, storeId?: string) => i.markFetchedAsSeen(storeId),
  remove: (i: SinoInbox, messageId: string) => i.remove(messageId),
  removeAll: (i: SinoInbox, feedIdentifier?: string) => i.removeAll(feedIdentifier),
  clickNotification: (i: SinoInbox, message: Pick<Message, '_id' | 'cta'>) =>
    i.clickNotification(message),
  clickAction: (
    i: SinoInbox,
    messageId: string,
    type: ButtonType,
    status?: ActionStatus,
    payload?: Record<string, unknown>,
  ) => i.clickAction(messageId, type, status, payload),
  updatePreference: (i: SinoInbox, templateId: string, channel: ChannelType, enabled: boolean) =>
    i.updatePreference(templateId, channel, enabled),
  fetchPreferences: (i: SinoInbox) => i.fetchPreferences(),
  fetchGlobalPreferences: (i: SinoInbox) => i.fetchGlobalPreferences(),
  updateGlobalPreferences: (i: SinoInbox, update: GlobalPreferencesUpdate) =>
    i.updateGlobalPreferences(update),
  initialize: (i: SinoInbox) => i.initialize(),
  refetchFeeds: (i: SinoInbox) => i.refetchFeeds(),
};

/** The spec's global update: channel-typed entries and/or the enabled flag. */
export interface GlobalPreferencesUpdate {
  enabled?: boolean;
  preferences?: { type: ChannelType; enabled: boolean }[];
}

export interface UseNotificationsResult {
  storeId: string;
  notifications: Message[];
  hasMore: boolean;
  /** `idle` until the first page is asked for (the session may still be starting). */
  status: FeedState['status'];
  /** First page loading. */
  isLoading: boolean;
  /** A later page loading (not a refetch of the loaded ones). */
  isFetchingNextPage: boolean;
  error: string | null;
  fetchNextPage: () => Promise<void>;
  refetch: () => Promise<void>;
  setActiveStore: (storeId: string) => void;
}

/** The feed of the active store (or of `storeId`), with paging. */
export function useNotifications(options: { storeId?: string } = {}): UseNotificationsResult {
  const { inbox } = useSinoContext();
  const state = useInboxState();
  const storeId = options.storeId ?? state.activeStoreId;
  const feed = state.stores[storeId] ?? idleFeed(storeId);
  const loading = feed.status === 'loading';
  const fetchNextPage = useCallback(
    async () => void (await inbox?.fetchNextPage(storeId)),
    [inbox, storeId],
  );
  const refetch = useCallback(
    async () => void (await inbox?.fetchNotifications(storeId)),
    [inbox, storeId],
  );
  const setActiveStore = useCallback((id: string) => inbox?.setActiveStore(id), [inbox]);
  return {
    storeId,
    notifications: feed.notifications,
    hasMore: feed.hasMore,
    status: feed.status,
    isLoading: loading && feed.pages.length === 0,
    isFetchingNextPage: loading && feed.loading === 'next',
    error: feed.error,
    fetchNextPage,
    refetch,
    setActiveStore,
  };
}

export function useUnseenCount(): number {
  return useInboxState().unseenCount;
}

export interface Counts {
  unseenCount: number;
  unreadCount: number;
  /** Tab counts per store, null until fetched. */
  stores: Record<string, number | null>;
}

export function useCounts(): Counts {
  const state = useInboxState();
  const stores = useMemo(
    () => Object.fromEntries(Object.values(state.stores).map((f) => [f.storeId, f.count])),
    [state.stores],
  );
  return { unseenCount: state.unseenCount, unreadCount: state.unreadCount, stores };
}

export function useMarkNotificationsAs() {
  return {
    markAs: useAction(actions.markAs),
    markAsRead: useAction(actions.markAsRead),
    markAsSeen: useAction(actions.markAsSeen),
    markAsUnread: useAction(actions.markAsUnread),
    markAllAsRead: useAction(actions.markAllAsRead),
    markAllAsSeen: useAction(actions.markAllAsSeen),
    markFetchedAsRead: useAction(actions.markFetchedAsRead),
    markFetchedAsSeen: useAction(actions.markFetchedAsSeen),
  };
}

export function useRemoveNotification() {
  return useAction(actions.remove);
}

export function useRemoveAllNotifications() {
  return useAction(actions.removeAll);
}

/** Item clicks (mark read, usage log) and action-button clicks. */
export function useActions() {
  return {
    clickNotification: useAction(actions.clickNotification),
    clickAction: useAction(actions.clickAction),
  };
}

/**
 * The subscriber's per-workflow preferences. Mounting it turns on fetching of user
 * preferences (the spec's preferences screen does so on mount).
 */
export function usePreferences() {
  const { inbox } = useSinoContext();
  const state = useInboxState();
  useEffect(() => {
    void inbox?.setFetchingStrategy({ fetchUserPreferences: true });
  }, [inbox]);
  const updatePreference = useAction(actions.updatePreference);
  const refetch = useAction(actions.fetchPreferences);
  return {
    preferences: state.preferences.items,
    status: state.preferences.status,
    isLoading: state.preferences.status === 'loading',
    /** Any update in flight: the UI disables every switch meanwhile. */
    isUpdating: state.preferences.updating.length > 0,
    updating: state.preferences.updating,
    updatePreference,
    refetch,
  };
}

/**
 * The subscriber's global preferences (all workflows at once: channels and the enabled flag).
 * Mounting it turns on fetching of global preferences (the spec's
 * `fetchUserGlobalPreferences`); `updateGlobalPreferences` sends the spec's global update and
 * the answer replaces the cached entry.
 */
export function useGlobalPreferences() {
  const { inbox } = useSinoContext();
  const state = useInboxState();
  useEffect(() => {
    void inbox?.setFetchingStrategy({ fetchUserGlobalPreferences: true });
  }, [inbox]);
  const updateGlobalPreferences = useAction(actions.updateGlobalPreferences);
  const refetch = useAction(actions.fetchGlobalPreferences);
  const { items, status, updating } = state.globalPreferences;
  return {
    globalPreferences: items,
    /** The first (and in practice only) entry's preference, null until fetched. */
    preference: items[0]?.preference ?? null,
    status,
    isLoading: status === 'loading',
    isUpdating: updating,
    updateGlobalPreferences,
    refetch,
  };
}

/** Session status, profile, socket status and organization; `logout` drops the session. */
export function useSession() {
  const { inbox } = useSinoContext();
  const state = useInboxState();
  const logout = useCallback(() => inbox?.logout(), [inbox]);
  const retry = useAction(actions.initialize);
  return {
    status: state.session.status,
    isInitialized: state.session.status === 'initialized',
    profile: state.session.profile,
    error: state.session.error,
    socket: state.socket,
    organization: state.organization,
    logout,
    /** Starts the session again (after a failed one); what the strategy asks for follows. */
    retry,
  };
}

/**
 * True while the realtime connection of the current session is down after having been up
 * (socket.io is retrying meanwhile): the UI says "reconnecting". A session that never
 * connected yet, or none at all, is not a lost connection.
 */
export function useConnectionLost(): boolean {
  const { session, socket } = useInboxState();
  const initialized = session.status === 'initialized';
  const [connectedOnce, setConnectedOnce] = useState(false);
  // Kept per session: a new session starts over (its first connect is not a reconnect).
  const next = initialized && (connectedOnce || socket === 'connected');
  if (next !== connectedOnce) setConnectedOnce(next);
  return next && socket !== 'connected';
}

/**
 * Calls `callback` with the unseen count each time it changes (not with the count it has at
 * mount, which the host already knows or is the 0 of "nothing loaded yet").
 */
export function useUnseenCountChanged(callback: ((count: number) => void) | undefined): void {
  const count = useUnseenCount();
  const latest = useRef(callback);
  const reported = useRef(count);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => {
    if (count === reported.current) return;
    reported.current = count;
    latest.current?.(count);
  }, [count]);
}

/** Every loaded page of every loaded store, again (a failed refetch's "Try again"). */
export function useRefetchFeeds() {
  return useAction(actions.refetchFeeds);
}

/** The active language's strings, with placeholders, plural forms and relative times. */
export function useTranslations() {
  const { translations: loaded } = useSinoContext();
  return useMemo(() => {
    const { lang, dir, translations } = loaded;
    return {
      lang,
      dir,
      translations,
      t: (key: TranslationKey, values: Record<string, string | number> = {}) =>
        interpolate(translations[key], values),
      plural: (key: 'bellUnseen' | 'newNotifications', count: number) =>
        plural(translations, lang, key, count),
      relativeTime: (date: Date | string | number, now: Date = new Date()) =>
        relativeTime(date, now, lang),
      /** The long date ("March 10, 2026" in English), for a timestamp's tooltip. */
      formatDate: (date: Date | string | number) => formatDate(date, lang),
    };
  }, [loaded]);
}
