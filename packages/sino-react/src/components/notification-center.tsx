import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  LOADER_MIN_HEIGHT_PX,
  SCROLL_AREA_HEIGHT_PX,
  isUnread,
  type ButtonType,
  type Message,
} from '@sino/js';
import {
  useActions,
  useCounts,
  useMarkNotificationsAs,
  useNotifications,
  useRefetchFeeds,
  useSession,
  useSinoInbox,
  useTranslations,
  useUnseenCount,
  useUnseenCountChanged,
} from '../hooks.js';
import { useArchive, useSnooze, type OutOfInboxKind } from '../out-of-inbox.js';
import { ConnectionNotice } from './connection-notice.js';
import { Footer } from './footer.js';
import { itemMenuEntries, type ItemMenuActions, type ItemMenuEntry } from './item-menu.js';
import type { ListItemSlot } from './notification-item.js';
import { Header } from './header.js';
import { Tabs, type InboxTab } from './tabs.js';
import { NewNotificationsAnnouncer } from './live-region.js';
import { NotificationList } from './notification-list.js';
import { OutOfInboxView, SubviewHeader, outOfInboxTitle, takeOut } from './out-of-inbox-view.js';
import { UserPreferences, type UserPreferencesProps } from './preferences.js';
import { useUndoableRemoval } from './undo-removal.js';
import { EmptyState, ErrorState, Loader } from './states.js';
import { SinoRoot } from './root.js';

// The popover places its dialog with what the panel's menus use: it comes in the panel's chunk.
export { keepInView } from './floating.js';

export interface NotificationCenterProps {
  /** Called with an item once clicked (after it is marked read). */
  onNotificationClick?: (notification: Message) => void;
  /** Called with a clicked item's redirect URL (`cta.data.url`). */
  onUrlChange?: (url: string) => void;
  /** Called with the unseen count each time it changes. */
  onUnseenCountChanged?: (count: number) => void;
  /** Shows the cog, which opens the preferences view; on by default. */
  showUserPreferences?: boolean;
  /** Told when the cog is clicked (the view opens anyway). */
  onSettingsClick?: () => void;
  preferenceFilter?: UserPreferencesProps['preferenceFilter'];
  /** Tabs over the provider's stores; their counts replace the header's badge. */
  tabs?: InboxTab[];
  onTabClick?: (tab: InboxTab) => void;
  /** Replaces the built-in empty state. */
  emptyState?: ReactNode;
  /** The items' three-dot menu (mark read/unread, archive, snooze, remove); on by default. */
  allowedNotificationActions?: boolean;
  /**
   * Archive (Sino only): "Archive" in the items' menus, "Archive read" and the "Archived" view
   * in the header's "More actions" menu; on by default.
   */
  allowArchive?: boolean;
  /**
   * Snooze (Sino only): "Snooze for 1 hour" and "Snooze until tomorrow" (09:00, the user's
   * time) in the items' menus, the "Snoozed" view in the header's "More actions" menu; on by
   * default.
   */
  allowSnooze?: boolean;
  /** Called after an action button's click is stored (status `done`). */
  onActionClick?: (templateIdentifier: string, type: ButtonType, notification: Message) => void;
  /** Shown in an item once its action is done, instead of the buttons. */
  actionsResultBlock?: (notification: Message) => ReactNode;
  /** Replaces the notifications view's header (the settings view keeps its back button). */
  header?: (props: HeaderSlotProps) => ReactNode;
  /** Replaces the 'powered by' footer (return null for none). */
  footer?: () => ReactNode;
  /** Where the 'powered by' link leads; the provider's `backendUrl` by default. */
  poweredByUrl?: string;
  /** Draws each item's inside; the feed's `<article>` (position, size, keys) stays around it. */
  listItem?: ListItemSlot;
}

/** What a host's `header` render function is given. */
export interface HeaderSlotProps {
  unseenCount: number;
  /** Something listed is unread: 'mark all as read' has work to do. */
  hasUnread: boolean;
  markAllAsRead: () => void;
  /** Tabs are shown (they carry the counts). */
  hasTabs: boolean;
  /** The settings view may be opened (`showUserPreferences`). */
  showUserPreferences: boolean;
  /** Opens the settings view (and tells `onSettingsClick`). */
  openSettings: () => void;
  /** For the host's settings button: focus comes back to it when the settings view closes. */
  settingsButtonRef: RefObject<HTMLButtonElement | null>;
  /** For the host's title element. */
  titleId: string;
  /** Archives every read message; undefined with `allowArchive` off. */
  archiveRead?: () => void;
  /** Opens the archive view; undefined with `allowArchive` off. */
  openArchived?: () => void;
  /** Opens the snoozed messages' view; undefined with `allowSnooze` off. */
  openSnoozed?: () => void;
  /** For the host's button that opens those views: focus comes back to it when they close. */
  moreActionsButtonRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The inbox panel: header, the active store's feed (loader, error, empty state or list), the
 * 'powered by' footer, a live region for arrivals and a notice while the realtime connection
 * is being restored. Mounting it turns on fetching of notifications.
 */
export function NotificationCenter({
  onNotificationClick,
  onUrlChange,
  onUnseenCountChanged,
  showUserPreferences = true,
  onSettingsClick,
  preferenceFilter,
  tabs = [],
  onTabClick,
  emptyState,
  allowedNotificationActions = true,
  allowArchive = true,
  allowSnooze = true,
  onActionClick,
  actionsResultBlock,
  header,
  footer,
  poweredByUrl,
  listItem,
}: NotificationCenterProps) {
  const inbox = useSinoInbox();
  const titleId = useId();
  const [view, setView] = useState<'notifications' | 'settings' | OutOfInboxKind>('notifications');
  const cog = useRef<HTMLButtonElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const back = useRef<HTMLButtonElement>(null);
  // Focus follows the view switch: to "back" in another view; on return, to the button that
  // opened it (the cog, or "More actions"), or to the view's body if the host has none.
  const switched = useRef(false);
  const opener = useRef<RefObject<HTMLButtonElement | null>>(cog);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!switched.current) return;
    if (view !== 'notifications') back.current?.focus();
    else (opener.current.current ?? body.current)?.focus();
  }, [view]);
  const show = (next: typeof view) => {
    switched.current = true;
    if (next === 'settings') opener.current = cog;
    else if (next !== 'notifications') opener.current = more;
    setView(next);
  };
  const feed = useNotifications();
  const unseenCount = useUnseenCount();
  const counts = useCounts();
  const session = useSession();
  const { t } = useTranslations();
  const { markAllAsRead, markAsRead, markAsUnread } = useMarkNotificationsAs();
  const removal = useUndoableRemoval(body);
  const { archive, archiveRead } = useArchive();
  const { snooze } = useSnooze();
  const { clickNotification, clickAction } = useActions();
  const refetchFeeds = useRefetchFeeds();
  useUnseenCountChanged(onUnseenCountChanged);
  useEffect(() => {
    void inbox?.setFetchingStrategy({ fetchNotifications: true });
  }, [inbox]);
  // Each tab's count, once per session (the client keeps them fresh on count events).
  const tabStores = tabs.map((tab) => tab.storeId).join('\n');
  useEffect(() => {
    if (!inbox || !session.isInitialized || !tabStores) return;
    for (const storeId of tabStores.split('\n'))
      void inbox.fetchStoreCount(storeId).catch(() => undefined);
  }, [inbox, session.isInitialized, tabStores]);
  // A store opened for the first time (a tab switch) loads its first page.
  const activeStatus = feed.status;
  const activeStore = feed.storeId;
  useEffect(() => {
    // The live snapshot, not the rendered one: the fetching strategy may have started it.
    const live = inbox?.getSnapshot().stores[activeStore]?.status ?? 'idle';
    if (inbox && session.isInitialized && activeStatus === 'idle' && live === 'idle')
      void inbox.fetchNotifications(activeStore).catch(() => undefined);
  }, [inbox, session.isInitialized, activeStatus, activeStore]);

  const onItemClick = (notification: Message) => {
    // A failed mark leaves the item unread, which is what the list then shows.
    const marked = clickNotification(notification).catch(() => undefined);
    const url = notification.cta?.type === 'redirect' ? notification.cta.data?.url : undefined;
    if (url) onUrlChange?.(url);
    onNotificationClick?.(notification);
    return marked;
  };
  // Failed mutations leave the item as the server has it, which is what the list shows.
  const quietly = (run: () => Promise<unknown>) => () => void run().catch(() => undefined);
  // Archive, snooze and remove take the item out: focus goes on to its neighbour.
  const out = (notification: Message, run: () => Promise<unknown>) => () =>
    takeOut(body.current, notification._id, run);
  const itemExtras = (notification: Message) => {
    const actions: ItemMenuActions = {
      markAsRead: quietly(() => markAsRead(notification._id)),
      markAsUnread: quietly(() => markAsUnread(notification._id)),
      // With "Undo" for a while: the server removes it after (undo-removal.tsx).
      remove: () => removal.remove(notification),
      ...(allowArchive && { archive: out(notification, () => archive(notification._id)) }),
      ...(allowSnooze && {
        snooze: (until: Date) => out(notification, () => snooze(notification._id, until))(),
      }),
    };
    return {
      actions,
      menuEntries: allowedNotificationActions
        ? itemMenuEntries(notification, actions, t)
        : undefined,
      // An action taken is the notification attended to: read, as Novu's item marks it when
      // its button (inside the item's click) is pressed.
      onAction: (target: Message, type: ButtonType) =>
        clickAction(target._id, type, 'done')
          .then(async () => {
            onActionClick?.(target.templateIdentifier, type, target);
            if (isUnread(target)) await markAsRead(target._id);
          })
          .catch(() => undefined),
      actionsResultBlock,
    };
  };

  // A later page that failed is asked for again by "Try again"; any other failed load (a
  // refetch after a count event, say) refetches what was loaded.
  const [nextPageFailed, setNextPageFailed] = useState(false);
  const loadNextPage = feed.fetchNextPage;
  const fetchNextPage = useCallback(
    () =>
      loadNextPage().then(
        () => setNextPageFailed(false),
        () => setNextPageFailed(true),
      ),
    [loadNextPage],
  );
  // "Try again" goes away with the retry: focus waits on the view's body meanwhile, so it
  // stays inside the widget (and the popover's focus trap).
  const retryWith = (run: () => Promise<unknown>) => () => {
    body.current?.focus();
    void run().catch(() => undefined);
  };

  let content: ReactNode;
  if (session.status === 'error' && feed.notifications.length === 0)
    content = (
      <ErrorState
        message={t('errorLoadNotifications')}
        onRetry={retryWith(session.retry)}
        minHeight={LOADER_MIN_HEIGHT_PX}
      />
    );
  else if (feed.status === 'error' && feed.notifications.length === 0)
    content = (
      <ErrorState
        message={t('errorLoadNotifications')}
        onRetry={retryWith(feed.refetch)}
        minHeight={LOADER_MIN_HEIGHT_PX}
      />
    );
  // Until the first page is in (the session may still be starting), the loader shows.
  else if (feed.status === 'idle' || feed.isLoading) content = <Loader />;
  else if (feed.notifications.length === 0) content = emptyState ?? <EmptyState />;
  else
    content = (
      <NotificationList
        notifications={feed.notifications}
        hasMore={feed.hasMore}
        loading={feed.isFetchingNextPage}
        fetchNextPage={fetchNextPage}
        onItemClick={onItemClick}
        itemExtras={itemExtras}
        listItem={listItem}
        trailing={
          feed.status === 'error' && (
            <ErrorState
              inline
              message={t('errorLoadNotifications')}
              onRetry={retryWith(nextPageFailed ? fetchNextPage : refetchFeeds)}
            />
          )
        }
      />
    );
  // As high as the list in every state (loader, error, empty): the panel keeps its size.
  const viewBody = (
    <div
      ref={body}
      className="sino-center__body"
      tabIndex={-1}
      style={{ minHeight: SCROLL_AREA_HEIGHT_PX }}
    >
      {content}
      {removal.note}
    </div>
  );
  const footerView = footer ? footer() : <Footer url={poweredByUrl} />;
  const openSettings = () => {
    onSettingsClick?.();
    show('settings');
  };
  const hasUnread = feed.notifications.some(isUnread);
  const markAll = quietly(() => markAllAsRead());
  const archiveAllRead = quietly(() => archiveRead());
  const openArchived = () => show('archived');
  const openSnoozed = () => show('snoozed');
  const moreActions: ItemMenuEntry[] = [
    ...(allowArchive
      ? [
          { label: t('archiveRead'), onSelect: archiveAllRead },
          { label: t('archived'), onSelect: openArchived },
        ]
      : []),
    ...(allowSnooze ? [{ label: t('snoozed'), onSelect: openSnoozed }] : []),
  ];
  const headerProps: HeaderSlotProps = {
    unseenCount,
    hasUnread,
    markAllAsRead: markAll,
    hasTabs: tabs.length > 0,
    showUserPreferences,
    openSettings,
    settingsButtonRef: cog,
    titleId,
    ...(allowArchive && { archiveRead: archiveAllRead, openArchived }),
    ...(allowSnooze && { openSnoozed }),
    moreActionsButtonRef: more,
  };
  const backToNotifications = () => show('notifications');

  if (view === 'settings')
    return (
      <SinoRoot className="sino-center">
        <SubviewHeader
          title={t('settings')}
          titleId={titleId}
          onBack={backToNotifications}
          backRef={back}
        />
        <UserPreferences preferenceFilter={preferenceFilter} />
        {footerView}
      </SinoRoot>
    );
  if (view === 'archived' || view === 'snoozed')
    return (
      <SinoRoot className="sino-center">
        <SubviewHeader
          title={outOfInboxTitle(view, t)}
          titleId={titleId}
          onBack={backToNotifications}
          backRef={back}
        />
        <OutOfInboxView which={view} onItemClick={onItemClick} />
        {footerView}
      </SinoRoot>
    );
  return (
    <SinoRoot className="sino-center">
      {header ? (
        <HeaderSlot render={header} {...headerProps} />
      ) : (
        <Header
          titleId={titleId}
          unseenCount={unseenCount}
          hasTabs={tabs.length > 0}
          hasUnread={hasUnread}
          onMarkAllAsRead={markAll}
          showUserPreferences={showUserPreferences}
          settingsRef={cog}
          onSettingsClick={openSettings}
          moreActions={moreActions}
          moreActionsRef={more}
        />
      )}
      <ConnectionNotice />
      {tabs.length > 0 ? (
        <Tabs
          tabs={tabs}
          activeStoreId={feed.storeId}
          counts={counts.stores}
          onSelect={(tab) => {
            feed.setActiveStore(tab.storeId);
            onTabClick?.(tab);
          }}
        >
          {viewBody}
        </Tabs>
      ) : (
        viewBody
      )}
      {footerView}
      <NewNotificationsAnnouncer notifications={feed.notifications} />
    </SinoRoot>
  );
}

/** A host's header, drawn as a component of its own (its props include a ref to attach). */
function HeaderSlot({
  render,
  ...props
}: HeaderSlotProps & { render: (props: HeaderSlotProps) => ReactNode }) {
  return render(props);
}
