import {
  AUTH_TOKEN_STORAGE_KEY,
  DEFAULT_FETCHING_STRATEGY,
  DEFAULT_STORE_ID,
  FIRST_PAGE,
  MUTATION_RETRIES,
  NOTIFICATION_CLICK_EVENT,
  QUERY_RETRIES,
  RETRY_BASE_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  UNREAD_COUNT_CHANGED_EVENT,
  UNSEEN_COUNT_CHANGED_EVENT,
} from './constants.js';
import { WidgetApi } from './http.js';
import { withRetries, type RetryPolicy } from './retry.js';
import { SocketManager, type SocketStatus } from './socket.js';
import type { WebSocketConstructor } from './socket-io.js';
import type {
  ActionStatus,
  ButtonType,
  ChannelType,
  EventSink,
  FeedPage,
  FetchingStrategy,
  GlobalPreference,
  Logger,
  MarkAs,
  Message,
  Organization,
  PreferenceEntry,
  SessionProfile,
  StoreConfig,
  StoreQuery,
  TokenStorage,
} from './types.js';

export type LoadStatus = 'idle' | 'loading' | 'success' | 'error';

export interface FeedState {
  storeId: string;
  query: StoreQuery;
  /** Loaded pages, in order; `notifications` is their messages. */
  pages: FeedPage[];
  notifications: Message[];
  hasMore: boolean;
  status: LoadStatus;
  /**
   * Which load is running (or, with status `error`, failed): the first page(s), a first load
   * or a refetch (`pages`), or the next page (`next`); null otherwise.
   */
  loading: 'pages' | 'next' | null;
  error: string | null;
  /** The store's tab count (messages its query selects, unseen by default), once fetched. */
  count: number | null;
}

export interface InboxState {
  session: {
    status: 'uninitialized' | 'loading' | 'initialized' | 'error';
    profile: SessionProfile | null;
    error: string | null;
  };
  socket: SocketStatus;
  activeStoreId: string;
  stores: Readonly<Record<string, FeedState>>;
  unseenCount: number;
  unreadCount: number;
  organization: Organization | null;
  preferences: {
    status: LoadStatus;
    items: PreferenceEntry[];
    /** Template ids whose update is in flight (the UI disables every switch meanwhile). */
    updating: string[];
  };
  globalPreferences: { status: LoadStatus; items: GlobalPreference[]; updating: boolean };
  fetchingStrategy: FetchingStrategy;
}

export interface SubscriberIdentity {
  applicationIdentifier?: string | undefined;
  subscriberId?: string | undefined;
  /** Required by environments with HMAC on: hex HMAC-SHA256 of subscriberId keyed by the API key. */
  subscriberHash?: string | undefined;
}

export interface InboxOptions extends SubscriberIdentity {
  /** Sino's origin; `/v1` is added. */
  backendUrl: string;
  /** Socket origin; the backend's by default. */
  socketUrl?: string;
  /** Feeds split into named stores, each with its query; one `default_store` by default. */
  stores?: StoreConfig[];
  initialFetchingStrategy?: Partial<FetchingStrategy>;
  /** Called with the organization once it is fetched. */
  onLoad?: (data: { organization: Organization }) => void;
  onNotificationReceived?: (message: Message) => void;
  onUnseenCountChanged?: (count: number) => void;
  onUnreadCountChanged?: (count: number) => void;
  /** `fetch` to use; the global one by default. */
  fetch?: typeof fetch;
  /** `WebSocket` to use; the global one by default (give `ws`'s on Node.js before 22). */
  WebSocket?: WebSocketConstructor;
  /** Where the token is kept; `localStorage` when there is one. `null`: nowhere. */
  storage?: TokenStorage | null;
  /** Where count events are dispatched; `window` when there is one. `null`: nowhere. */
  eventTarget?: EventSink | null;
  logger?: Logger;
  /** Debounce of the socket's count events (100 ms). */
  socketEventDebounceMs?: number;
  /** Query retries (3, from 1 s doubling up to 30 s); mutations are never retried. */
  retry?: Partial<RetryPolicy>;
}

type Listener = () => void;

/** A store's load: its first page, every page it has loaded, or its next page. */
type FeedLoadKey = 'first' | 'loaded' | 'next';

/** Ids per bulk mark request (the server takes up to 1000). */
const MARK_CHUNK = 100;
/** Ids per bulk delete request (the server's limit). */
const REMOVE_CHUNK = 100;

/**
 * A loaded message updated from a mutation's answer: the answer's fields win, and what the
 * loaded copy had that the answer lacks stays (a server answering without the feed's joins
 * would otherwise turn a user actor's picture into the silhouette after a mark).
 */
export function mergeAnswer(loaded: Message, answer: Message): Message {
  const keepPicture =
    answer.actor?.type === 'user' &&
    !answer.actor.data &&
    loaded.actor?.type === 'user' &&
    Boolean(loaded.actor.data);
  return { ...loaded, ...answer, ...(keepPicture && { actor: loaded.actor }) };
}

/** Unread: `read` is false when the message has the field, otherwise `seen` is false. */
export function isUnread(message: Pick<Message, 'seen' | 'read'>): boolean {
  return typeof message.read === 'boolean' ? !message.read : !message.seen;
}

/**
 * A subscriber's inbox: session, socket, feeds per store, counts, organization and
 * preferences, as one immutable snapshot (`subscribe`/`getSnapshot`, for React's
 * `useSyncExternalStore` or anything else). Nothing refetches on window focus.
 */
export class SinoInbox {
  readonly api: WidgetApi;
  private state: InboxState;
  private identity: Required<Pick<SubscriberIdentity, 'applicationIdentifier' | 'subscriberId'>> &
    Pick<SubscriberIdentity, 'subscriberHash'>;
  private readonly listeners = new Set<Listener>();
  private readonly socket: SocketManager;
  private readonly storeConfigs: StoreConfig[];
  private readonly storage: TokenStorage | null;
  private readonly eventTarget: EventSink | null;
  private readonly logger: Logger;
  private readonly queryRetry: RetryPolicy;
  private readonly mutationRetry: RetryPolicy;
  /** Bumped whenever the session is dropped: answers of an earlier session are ignored. */
  private generation = 0;
  private disposed = false;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /**
   * Messages removed with a chance to undo (`stageRemoval`): out of the loaded feeds and the
   * counts at once, removed on the server by `commitRemoval` (or when the page is hidden, or
   * the session ends); `undoRemoval` brings them back where they were.
   */
  private readonly staged = new Map<string, Message>();
  private readonly onPageHide = () => this.flushRemovals();
  /** Per store, the last load queued (see `queueLoad`). */
  private feedLoads = new Map<string, { key: FeedLoadKey; done: Promise<void> }>();
  private feedRefetch: { running: Promise<void>; again: boolean } | null = null;

  constructor(private readonly options: InboxOptions) {
    this.api = new WidgetApi(options.backendUrl, options.fetch);
    this.identity = {
      applicationIdentifier: options.applicationIdentifier ?? '',
      subscriberId: options.subscriberId ?? '',
      subscriberHash: options.subscriberHash,
    };
    this.storeConfigs =
      options.stores && options.stores.length > 0
        ? options.stores
        : [{ storeId: DEFAULT_STORE_ID, query: {} }];
    this.storage = options.storage === undefined ? browserStorage() : options.storage;
    this.eventTarget = options.eventTarget === undefined ? browserWindow() : options.eventTarget;
    this.logger = options.logger ?? console;
    const retry = {
      baseDelayMs: options.retry?.baseDelayMs ?? RETRY_BASE_DELAY_MS,
      maxDelayMs: options.retry?.maxDelayMs ?? RETRY_MAX_DELAY_MS,
    };
    this.queryRetry = { retries: options.retry?.retries ?? QUERY_RETRIES, ...retry };
    this.mutationRetry = { retries: MUTATION_RETRIES, ...retry };
    this.socket = new SocketManager(
      options.socketUrl ?? options.backendUrl,
      {
        onStatus: (socket) => this.set({ socket }),
        onReconnected: () => this.catchUp(),
        onNotificationReceived: (message) => this.options.onNotificationReceived?.(message),
        onUnseenCountChanged: ({ unseenCount }) => {
          this.set({ unseenCount });
          this.countChanged(UNSEEN_COUNT_CHANGED_EVENT, unseenCount);
          this.options.onUnseenCountChanged?.(unseenCount);
        },
        onUnreadCountChanged: ({ unreadCount }) => {
          this.set({ unreadCount });
          this.countChanged(UNREAD_COUNT_CHANGED_EVENT, unreadCount);
          this.options.onUnreadCountChanged?.(unreadCount);
        },
      },
      this.logger,
      options.socketEventDebounceMs,
      options.WebSocket,
    );
    this.state = this.initialState({
      ...DEFAULT_FETCHING_STRATEGY,
      ...options.initialFetchingStrategy,
    });
    // A page closed within an undo window still removes what the subscriber removed.
    browserEvents()?.addEventListener('pagehide', this.onPageHide);
  }

  // ---- store protocol -------------------------------------------------------------------

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): InboxState => this.state;

  // ---- session --------------------------------------------------------------------------

  /**
   * Starts the session (only with both applicationIdentifier and subscriberId), connects the
   * socket and fetches what the fetching strategy asks for. Failures are logged, not thrown.
   */
  async initialize(): Promise<void> {
    const { applicationIdentifier, subscriberId, subscriberHash } = this.identity;
    if (this.disposed || !applicationIdentifier || !subscriberId) return;
    const generation = this.generation;
    this.set({ session: { status: 'loading', profile: null, error: null } });
    let session;
    try {
      session = await withRetries(
        () => this.api.initializeSession({ applicationIdentifier, subscriberId, subscriberHash }),
        this.queryRetry,
        this.abortedSince(generation),
      );
    } catch (error) {
      if (generation !== this.generation) return;
      this.logger.error('Failed to initialize the session', messageOf(error));
      this.set({ session: { status: 'error', profile: null, error: messageOf(error) } });
      return;
    }
    if (generation !== this.generation) return;
    this.api.setToken(session.token);
    this.storeToken(session.token);
    this.set({ session: { status: 'initialized', profile: session.profile, error: null } });
    this.socket.connect(session.token);
    await this.fetchByStrategy(this.state.fetchingStrategy);
  }

  /**
   * New identity values: when applicationIdentifier, subscriberId or subscriberHash changed,
   * the session is dropped (socket closed, data cleared) and a new one initialized.
   */
  async update(identity: SubscriberIdentity): Promise<void> {
    const next = {
      applicationIdentifier: identity.applicationIdentifier ?? this.identity.applicationIdentifier,
      subscriberId: identity.subscriberId ?? this.identity.subscriberId,
      subscriberHash:
        'subscriberHash' in identity ? identity.subscriberHash : this.identity.subscriberHash,
    };
    const same =
      next.applicationIdentifier === this.identity.applicationIdentifier &&
      next.subscriberId === this.identity.subscriberId &&
      next.subscriberHash === this.identity.subscriberHash;
    if (same || this.disposed) return;
    this.identity = next;
    this.dropSession();
    await this.initialize();
  }

  /** Ends the session: socket closed, token forgotten, data cleared. */
  logout(): void {
    this.dropSession();
  }

  /** Ends everything for good: socket, timers, listeners and the stored token. */
  dispose(): void {
    browserEvents()?.removeEventListener('pagehide', this.onPageHide);
    this.dropSession();
    this.disposed = true;
    this.listeners.clear();
  }

  // ---- fetching -------------------------------------------------------------------------

  /** Turns fetching flags on or off; a flag turned on fetches at once when initialized. */
  async setFetchingStrategy(flags: Partial<FetchingStrategy>): Promise<void> {
    const before = this.state.fetchingStrategy;
    const fetchingStrategy = { ...before, ...flags };
    this.set({ fetchingStrategy });
    const turnedOn = Object.fromEntries(
      Object.entries(fetchingStrategy).map(([key, on]) => [
        key,
        on && !before[key as keyof FetchingStrategy],
      ]),
    ) as unknown as FetchingStrategy;
    if (this.state.session.status === 'initialized') await this.fetchByStrategy(turnedOn);
  }

  setActiveStore(storeId: string): void {
    this.feedState(storeId);
    this.set({ activeStoreId: storeId });
  }

  /** The store's first page (replacing what was loaded). */
  async fetchNotifications(storeId: string = this.state.activeStoreId): Promise<void> {
    this.feedState(storeId);
    await this.queueLoad(storeId, 'first', () => this.loadPages(storeId, [FIRST_PAGE], 'replace'));
  }

  /**
   * The store's next page, only while the last page said `hasMore`. Asked again before it is
   * in, the page after it follows: each ask is one more page, none is lost or loaded twice.
   */
  async fetchNextPage(storeId: string = this.state.activeStoreId): Promise<void> {
    this.feedState(storeId);
    await this.queueLoad(storeId, 'next', () => {
      const feed = this.feedState(storeId);
      if (feed.pages.length === 0) return this.loadPages(storeId, [FIRST_PAGE], 'replace');
      if (!feed.hasMore) return Promise.resolve();
      return this.loadPages(storeId, [FIRST_PAGE + feed.pages.length], 'append');
    });
  }

  /** Every loaded page of every loaded store, again. */
  async refetchFeeds(): Promise<void> {
    // Bursts (both count events, several removals) coalesce into one refetch after the current.
    if (this.feedRefetch) {
      this.feedRefetch.again = true;
      return this.feedRefetch.running;
    }
    const run = async (): Promise<void> => {
      do {
        this.feedRefetch!.again = false;
        const loaded = Object.values(this.state.stores).filter((s) => s.status !== 'idle');
        await Promise.all(
          loaded.map(({ storeId }) =>
            // The pages loaded when its turn comes, a next page that was running included.
            this.queueLoad(storeId, 'loaded', () => {
              const length = Math.max(1, this.feedState(storeId).pages.length);
              const pages = Array.from({ length }, (_, i) => FIRST_PAGE + i);
              return this.loadPages(storeId, pages, 'replace');
            }),
          ),
        );
      } while (this.feedRefetch!.again);
    };
    this.feedRefetch = { running: Promise.resolve(), again: false };
    this.feedRefetch.running = run().finally(() => {
      this.feedRefetch = null;
    });
    return this.feedRefetch.running;
  }

  async fetchCounts(): Promise<void> {
    const generation = this.generation;
    const [unseenCount, unreadCount] = await Promise.all([
      this.query('unseen', () => this.api.unseenCount()),
      this.query('unread', () => this.api.unreadCount()),
    ]);
    if (generation === this.generation) this.set({ unseenCount, unreadCount });
  }

  /** A store's tab count, with its query. */
  async fetchStoreCount(storeId: string): Promise<void> {
    const generation = this.generation;
    const query = this.feedState(storeId).query;
    const count = await this.query(`count:${storeId}`, () => this.api.count(query));
    if (generation === this.generation) this.patchFeed(storeId, { count });
  }

  async fetchOrganization(): Promise<Organization> {
    const generation = this.generation;
    const organization = await this.query('organization', () => this.api.organization());
    if (generation === this.generation) {
      this.set({ organization });
      this.options.onLoad?.({ organization });
    }
    return organization;
  }

  async fetchPreferences(): Promise<void> {
    const generation = this.generation;
    this.set({ preferences: { ...this.state.preferences, status: 'loading' } });
    try {
      const items = await this.query('preferences', () => this.api.preferences());
      if (generation === this.generation)
        this.set({ preferences: { ...this.state.preferences, status: 'success', items } });
    } catch (error) {
      if (generation === this.generation)
        this.set({ preferences: { ...this.state.preferences, status: 'error' } });
      throw error;
    }
  }

  async fetchGlobalPreferences(): Promise<void> {
    const generation = this.generation;
    this.set({ globalPreferences: { ...this.state.globalPreferences, status: 'loading' } });
    try {
      const items = await this.query('globalPreferences', () => this.api.globalPreferences());
      if (generation === this.generation)
        this.set({
          globalPreferences: { ...this.state.globalPreferences, status: 'success', items },
        });
    } catch (error) {
      if (generation === this.generation)
        this.set({ globalPreferences: { ...this.state.globalPreferences, status: 'error' } });
      throw error;
    }
  }

  // ---- messages -------------------------------------------------------------------------

  /** Marks messages; with neither flag given they are marked seen. Loaded copies are replaced. */
  async markAs(messageId: string | string[], mark: MarkAs = { seen: true }): Promise<Message[]> {
    const generation = this.generation;
    const given = mark.seen !== undefined || mark.read !== undefined ? mark : { seen: true };
    const updated = await this.mutate(() => this.api.markAs(messageId, given));
    if (generation === this.generation) {
      const byId = new Map(updated.map((m) => [m._id, m]));
      this.patchMessages((m) => {
        const answer = byId.get(m._id);
        return answer ? mergeAnswer(m, answer) : m;
      });
    }
    return updated;
  }

  /** Read, and so seen. */
  markAsRead(messageId: string | string[]): Promise<Message[]> {
    return this.markAs(messageId, { seen: true, read: true });
  }

  /** Seen, and unread. */
  markAsSeen(messageId: string | string[]): Promise<Message[]> {
    return this.markAs(messageId, { seen: true, read: false });
  }

  /** Unread again; it stays seen (its dot does not come back). */
  markAsUnread(messageId: string | string[]): Promise<Message[]> {
    return this.markAs(messageId, { seen: true, read: false });
  }

  /**
   * Marks all read on the server (of one feed when given). Loaded messages become read and
   * seen: all of them, or those of the stores listing exactly that feed, the others refetched.
   */
  async markAllAsRead(feedIdentifier?: string): Promise<number> {
    return this.markAll('read', feedIdentifier);
  }

  /** Marks all seen on the server; loaded messages become seen and unread, as in Novu's widget. */
  async markAllAsSeen(feedIdentifier?: string): Promise<number> {
    return this.markAll('seen', feedIdentifier);
  }

  /** Marks read the store's loaded messages that are unread; answers their ids. */
  async markFetchedAsRead(storeId: string = this.state.activeStoreId): Promise<string[]> {
    const ids = this.feedState(storeId)
      .notifications.filter(isUnread)
      .map((m) => m._id);
    await this.markInChunks(ids, { seen: true, read: true });
    return ids;
  }

  /** Marks seen the store's loaded messages that are neither seen nor read; answers their ids. */
  async markFetchedAsSeen(storeId: string = this.state.activeStoreId): Promise<string[]> {
    const ids = this.feedState(storeId)
      .notifications.filter((m) => !m.seen && !m.read)
      .map((m) => m._id);
    await this.markInChunks(ids, { seen: true, read: false });
    return ids;
  }

  /** Many loaded pages can hold more ids than one request takes: sent 100 at a time. */
  /** A change that takes a message out of the inbox: gone from the loaded feeds at once. */
  private async takeOut(messageId: string, change: () => Promise<unknown>): Promise<void> {
    const generation = this.generation;
    await this.mutate(change);
    if (generation !== this.generation) return;
    for (const [storeId, feed] of Object.entries(this.state.stores)) {
      if (!feed.notifications.some((m) => m._id === messageId)) continue;
      const pages = feed.pages.map((p) => ({
        ...p,
        data: p.data.filter((m) => m._id !== messageId),
      }));
      this.patchFeed(storeId, { pages, notifications: this.listed(pages) });
    }
    // The pages shift by one: read them again (the counts come over the socket).
    await this.refetchFeeds();
  }

  private async markInChunks(ids: string[], mark: MarkAs): Promise<void> {
    for (let i = 0; i < ids.length; i += MARK_CHUNK)
      await this.markAs(ids.slice(i, i + MARK_CHUNK), mark);
  }

  /** Removes a message; the feeds are refetched. */
  async remove(messageId: string): Promise<void> {
    await this.mutate(() => this.api.remove(messageId));
    await this.refetchFeeds();
  }

  /**
   * Removes a message with a chance to undo: it leaves the loaded feeds (and, unseen or
   * unread, the counts) at once, and nothing is sent yet. `commitRemoval` removes it on the
   * server, `undoRemoval` puts it back where it was; a page hidden (closed) or a session ended
   * meanwhile removes it then, so a removal is never lost with the page.
   */
  stageRemoval(message: Message): void {
    if (this.staged.has(message._id)) return;
    this.staged.set(message._id, message);
    this.relist();
    this.set({
      unseenCount: Math.max(0, this.state.unseenCount - (message.seen ? 0 : 1)),
      unreadCount: Math.max(0, this.state.unreadCount - (isUnread(message) ? 1 : 0)),
    });
  }

  /** Puts a staged message back (see `stageRemoval`); false when it was no longer staged. */
  undoRemoval(messageId: string): boolean {
    const message = this.staged.get(messageId);
    if (!message) return false;
    this.staged.delete(messageId);
    this.relist();
    this.set({
      unseenCount: this.state.unseenCount + (message.seen ? 0 : 1),
      unreadCount: this.state.unreadCount + (isUnread(message) ? 1 : 0),
    });
    return true;
  }

  /**
   * Removes a staged message on the server (see `stageRemoval`); the feeds are refetched. If
   * the server refuses, the message comes back.
   */
  async commitRemoval(messageId: string): Promise<void> {
    if (!this.staged.has(messageId)) return;
    try {
      await this.mutate(() => this.api.remove(messageId));
    } catch (error) {
      this.undoRemoval(messageId);
      throw error;
    }
    this.staged.delete(messageId);
    await this.refetchFeeds();
  }

  /** Removes every staged message now, in a request that outlives the page (`keepalive`). */
  private flushRemovals(): void {
    const ids = [...this.staged.keys()];
    this.staged.clear();
    if (ids.length === 0 || this.api.getToken() === null) return;
    for (let i = 0; i < ids.length; i += REMOVE_CHUNK)
      void this.api
        .removeMany(ids.slice(i, i + REMOVE_CHUNK), { keepalive: true })
        .catch(() => undefined);
  }

  /** Removes every message (of one feed when given); the feeds are refetched. */
  async removeAll(feedIdentifier?: string): Promise<void> {
    await this.mutate(() => this.api.removeAll(feedIdentifier));
    await this.refetchFeeds();
  }

  /**
   * Archives a message (Sino only): it leaves the feed and the counts at once, and stays in the
   * archive (`fetchOutOfInbox('archived')`) until `unarchive`.
   */
  async archive(messageId: string): Promise<void> {
    await this.takeOut(messageId, () => this.api.archive(messageId));
  }

  /** Brings an archived message back into the feed. */
  async unarchive(messageId: string): Promise<void> {
    await this.mutate(() => this.api.unarchive(messageId));
    await this.refetchFeeds();
  }

  /** Archives every read message (of one feed when given): answers how many. */
  async archiveRead(feedIdentifier?: string): Promise<number> {
    const archived = await this.mutate(() => this.api.archiveRead(feedIdentifier));
    await this.refetchFeeds();
    return archived;
  }

  /**
   * Snoozes a message until `until` (Sino only): it leaves the feed at once and comes back
   * unseen and unread then, announced over the socket like a new one.
   */
  async snooze(messageId: string, until: Date): Promise<void> {
    await this.takeOut(messageId, () => this.api.snooze(messageId, until));
  }

  /** Ends a snooze now. */
  async unsnooze(messageId: string): Promise<void> {
    await this.mutate(() => this.api.unsnooze(messageId));
    await this.refetchFeeds();
  }

  /** A page of the archive or of the snoozed messages (not kept in the store). */
  fetchOutOfInbox(which: 'archived' | 'snoozed', page: number = FIRST_PAGE): Promise<FeedPage> {
    return this.query(`${which}:${page}`, () => this.api.outOfInbox(which, page));
  }

  /** An action button was clicked: its status (and payload) is stored, the copy replaced. */
  async clickAction(
    messageId: string,
    type: ButtonType,
    status: ActionStatus = 'done',
    payload?: Record<string, unknown>,
  ): Promise<Message> {
    const generation = this.generation;
    const updated = await this.mutate(() =>
      this.api.updateAction(messageId, type, status, payload),
    );
    if (generation === this.generation)
      this.patchMessages((m) => (m._id === updated._id ? mergeAnswer(m, updated) : m));
    return updated;
  }

  /**
   * The subscriber clicked a notification: it is marked read and the click is logged
   * (`[Widget] - Notification Click` with notificationId and hasCta).
   */
  async clickNotification(message: Pick<Message, '_id' | 'cta'>): Promise<void> {
    await Promise.all([
      this.markAsRead(message._id),
      this.mutate(() =>
        this.api.logUsage(NOTIFICATION_CLICK_EVENT, {
          notificationId: message._id,
          hasCta: Boolean(message.cta?.type && message.cta.data?.url),
        }),
      ),
    ]);
  }

  // ---- preferences ----------------------------------------------------------------------

  /**
   * Turns a workflow's channel on or off: the cached entry changes at once and is replaced by
   * the server's answer; on failure the channel silently takes the opposite value.
   */
  async updatePreference(
    templateId: string,
    channel: ChannelType,
    enabled: boolean,
  ): Promise<void> {
    const generation = this.generation;
    const setChannel = (value: boolean) =>
      this.patchPreference(templateId, (entry) => ({
        ...entry,
        preference: {
          ...entry.preference,
          channels: { ...entry.preference.channels, [channel]: value },
        },
      }));
    setChannel(enabled);
    this.setUpdating(templateId, true);
    try {
      const entry = await this.mutate(() =>
        this.api.updatePreference(templateId, { type: channel, enabled }),
      );
      if (generation === this.generation) this.patchPreference(templateId, () => entry);
    } catch {
      // Silent by the spec: the switch goes back, nothing is shown or thrown.
      if (generation === this.generation) setChannel(!enabled);
    } finally {
      if (generation === this.generation) this.setUpdating(templateId, false);
    }
  }

  /** Global preferences: the answer replaces the cached ones. */
  async updateGlobalPreferences(update: {
    enabled?: boolean;
    preferences?: { type: ChannelType; enabled: boolean }[];
  }): Promise<GlobalPreference> {
    const generation = this.generation;
    this.set({ globalPreferences: { ...this.state.globalPreferences, updating: true } });
    try {
      const answer = await this.mutate(() => this.api.updateGlobalPreferences(update));
      if (generation === this.generation)
        this.set({
          globalPreferences: { ...this.state.globalPreferences, items: [answer] },
        });
      return answer;
    } finally {
      if (generation === this.generation)
        this.set({ globalPreferences: { ...this.state.globalPreferences, updating: false } });
    }
  }

  // ---- internals ------------------------------------------------------------------------

  private initialState(fetchingStrategy: FetchingStrategy): InboxState {
    const stores: Record<string, FeedState> = {};
    for (const { storeId, query } of this.storeConfigs)
      stores[storeId] = emptyFeed(storeId, query ?? {});
    return {
      session: { status: 'uninitialized', profile: null, error: null },
      socket: 'disconnected',
      activeStoreId: this.storeConfigs[0]!.storeId,
      stores,
      unseenCount: 0,
      unreadCount: 0,
      organization: null,
      preferences: { status: 'idle', items: [], updating: [] },
      globalPreferences: { status: 'idle', items: [], updating: false },
      fetchingStrategy,
    };
  }

  private dropSession(): void {
    // With the session's token, before it goes: what was removed stays removed.
    this.flushRemovals();
    this.generation++;
    this.inFlight.clear();
    this.feedLoads = new Map();
    this.socket.disconnect();
    this.api.setToken(null);
    this.removeToken();
    this.set(this.initialState(this.state.fetchingStrategy));
  }

  private async fetchByStrategy(flags: FetchingStrategy): Promise<void> {
    const work: Promise<unknown>[] = [];
    if (flags.fetchUnseenCount) {
      work.push(this.fetchCounts());
      // Tabs show their own counts.
      if (this.storeConfigs.length > 1)
        for (const { storeId } of this.storeConfigs) work.push(this.fetchStoreCount(storeId));
    }
    if (flags.fetchOrganization) work.push(this.fetchOrganization());
    if (flags.fetchNotifications) work.push(this.fetchNotifications());
    if (flags.fetchUserPreferences) work.push(this.fetchPreferences());
    if (flags.fetchUserGlobalPreferences) work.push(this.fetchGlobalPreferences());
    // Each query keeps its own error in the state; one failing does not stop the others.
    await Promise.allSettled(work);
  }

  /**
   * Runs a store's loads one at a time, in order, each reading the state the one before left
   * (an append never lands on pages a refetch has just replaced, nor twice). A reload asked
   * again while the same reload is the last one queued is that one (one request for both);
   * every next page is its own load. Loads of a dropped session do not run.
   */
  private queueLoad(storeId: string, key: FeedLoadKey, load: () => Promise<void>): Promise<void> {
    const last = this.feedLoads.get(storeId);
    if (last && key !== 'next' && last.key === key) return last.done;
    const generation = this.generation;
    const start = async () => {
      if (generation === this.generation) await load();
    };
    // With nothing before it, it starts at once (its loading state shows with the call).
    const done = last ? last.done.catch(() => undefined).then(start) : start();
    const entry = { key, done };
    const loads = this.feedLoads;
    loads.set(storeId, entry);
    void done
      .catch(() => undefined)
      .then(() => {
        if (loads.get(storeId) === entry) loads.delete(storeId);
      });
    return done;
  }

  private async loadPages(
    storeId: string,
    pageNumbers: number[],
    mode: 'replace' | 'append',
  ): Promise<void> {
    const generation = this.generation;
    const feed = this.feedState(storeId);
    const loading = mode === 'append' ? 'next' : 'pages';
    this.patchFeed(storeId, { status: 'loading', loading, error: null });
    try {
      const pages = await Promise.all(
        pageNumbers.map((page) =>
          this.query(`feed:${storeId}:${page}`, () => this.api.feed(feed.query, page)),
        ),
      );
      if (generation !== this.generation) return;
      const all = mode === 'append' ? [...this.feedState(storeId).pages, ...pages] : pages;
      const last = all[all.length - 1];
      this.patchFeed(storeId, {
        pages: all,
        notifications: this.listed(all),
        hasMore: last?.hasMore ?? false,
        status: 'success',
        loading: null,
        error: null,
      });
    } catch (error) {
      if (generation !== this.generation) return;
      this.patchFeed(storeId, { status: 'error', error: messageOf(error) });
      throw error;
    }
  }

  private async markAll(kind: 'read' | 'seen', feedIdentifier?: string): Promise<number> {
    const generation = this.generation;
    const modified = await this.mutate(() =>
      kind === 'read' ? this.api.markAllRead(feedIdentifier) : this.api.markAllSeen(feedIdentifier),
    );
    if (generation !== this.generation) return modified;
    const mark = (m: Message): Message =>
      kind === 'read' ? { ...m, seen: true, read: true } : { ...m, seen: true, read: false };
    const others: string[] = [];
    for (const feed of Object.values(this.state.stores)) {
      const ids = feed.query.feedIdentifier;
      const listsExactly = Array.isArray(ids)
        ? ids.length === 1 && ids[0] === feedIdentifier
        : ids === feedIdentifier;
      if (feedIdentifier === undefined || listsExactly) this.patchFeedMessages(feed.storeId, mark);
      else if (feed.status !== 'idle') others.push(feed.storeId);
    }
    if (others.length > 0) await this.refetchFeeds();
    return modified;
  }

  /** A query: retried with back-off; the same query already running is shared. */
  private query<T>(key: string, run: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = withRetries(run, this.queryRetry, this.abortedSince(this.generation)).finally(
      () => {
        if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  private mutate<T>(run: () => Promise<T>): Promise<T> {
    return withRetries(run, this.mutationRetry);
  }

  private abortedSince(generation: number): { readonly aborted: boolean } {
    const aborted = () => this.disposed || this.generation !== generation;
    return {
      get aborted() {
        return aborted();
      },
    };
  }

  private feedState(storeId: string): FeedState {
    const feed = this.state.stores[storeId];
    if (!feed) throw new Error(`Unknown store "${storeId}"`);
    return feed;
  }

  private patchFeed(storeId: string, patch: Partial<FeedState>): void {
    const feed = this.feedState(storeId);
    this.set({ stores: { ...this.state.stores, [storeId]: { ...feed, ...patch } } });
  }

  private patchFeedMessages(storeId: string, change: (m: Message) => Message): void {
    const feed = this.feedState(storeId);
    const pages = feed.pages.map((p) => ({ ...p, data: p.data.map(change) }));
    this.patchFeed(storeId, { pages, notifications: this.listed(pages) });
  }

  /** A feed's loaded messages, less those staged for removal. */
  private listed(pages: FeedPage[]): Message[] {
    const all = pages.flatMap((p) => p.data);
    return this.staged.size === 0 ? all : all.filter((m) => !this.staged.has(m._id));
  }

  /** Every store's list again, after the staged removals changed. */
  private relist(): void {
    const stores = Object.fromEntries(
      Object.entries(this.state.stores).map(([id, feed]) => [
        id,
        { ...feed, notifications: this.listed(feed.pages) },
      ]),
    );
    this.set({ stores });
  }

  private patchMessages(change: (m: Message) => Message): void {
    for (const storeId of Object.keys(this.state.stores)) this.patchFeedMessages(storeId, change);
  }

  private patchPreference(
    templateId: string,
    change: (entry: PreferenceEntry) => PreferenceEntry,
  ): void {
    const items = this.state.preferences.items.map((entry) =>
      entry.template._id === templateId ? change(entry) : entry,
    );
    this.set({ preferences: { ...this.state.preferences, items } });
  }

  private setUpdating(templateId: string, on: boolean): void {
    const rest = this.state.preferences.updating.filter((id) => id !== templateId);
    this.set({
      preferences: { ...this.state.preferences, updating: on ? [...rest, templateId] : rest },
    });
  }

  /**
   * After the socket reconnected (a server node went away, the network came back): the counts
   * and the loaded pages are read again, so what arrived meanwhile shows. Failures stay in the
   * state, as for any fetch; nobody awaits this.
   */
  private catchUp(): void {
    if (this.state.session.status !== 'initialized') return;
    const { fetchUnseenCount } = this.state.fetchingStrategy;
    if (fetchUnseenCount) void this.fetchCounts().catch(() => undefined);
    void this.refetchFeeds().catch(() => undefined);
    for (const feed of Object.values(this.state.stores))
      if (feed.count !== null) void this.fetchStoreCount(feed.storeId).catch(() => undefined);
  }

  /** After a debounced count event: feeds and tab counts are refetched, and the page told. */
  private countChanged(event: string, count: number): void {
    // Failures stay in each store's state (status 'error'); nobody awaits this refetch.
    void this.refetchFeeds().catch(() => undefined);
    for (const feed of Object.values(this.state.stores))
      if (feed.count !== null) void this.fetchStoreCount(feed.storeId).catch(() => undefined);
    const CustomEventCtor = (
      globalThis as { CustomEvent?: new (type: string, init: { detail: unknown }) => Event }
    ).CustomEvent;
    if (this.eventTarget && CustomEventCtor)
      this.eventTarget.dispatchEvent(new CustomEventCtor(event, { detail: count }));
  }

  private storeToken(token: string): void {
    try {
      this.storage?.setItem(AUTH_TOKEN_STORAGE_KEY, token);
    } catch {
      // Storage full or refused (private mode): the token lives in memory only.
    }
  }

  private removeToken(): void {
    try {
      this.storage?.removeItem(AUTH_TOKEN_STORAGE_KEY);
    } catch {
      // Refused storage holds nothing to remove.
    }
  }

  private set(patch: Partial<InboxState>): void {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}

function emptyFeed(storeId: string, query: StoreQuery): FeedState {
  return {
    storeId,
    query,
    pages: [],
    notifications: [],
    hasMore: false,
    status: 'idle',
    loading: null,
    error: null,
    count: null,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function browserStorage(): TokenStorage | null {
  try {
    return (globalThis as { localStorage?: TokenStorage }).localStorage ?? null;
  } catch {
    // Reading localStorage throws where storage is blocked (sandboxed frames).
    return null;
  }
}

interface PageEvents {
  addEventListener(type: 'pagehide', listener: () => void): void;
  removeEventListener(type: 'pagehide', listener: () => void): void;
}

/** The page's window, to hear `pagehide`; none outside a browser. */
function browserEvents(): PageEvents | null {
  const w = (globalThis as { window?: Partial<PageEvents> }).window;
  return typeof w?.addEventListener === 'function' && typeof w.removeEventListener === 'function'
    ? (w as PageEvents)
    : null;
}

function browserWindow(): EventSink | null {
  return (globalThis as { window?: EventSink }).window ?? null;
}
