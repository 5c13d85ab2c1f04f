import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { HEADER_HEIGHT_PX, isUnread, type ButtonType, type Message } from '@sino/js';
import {
  useActions,
  useCounts,
  useMarkNotificationsAs,
  useNotifications,
  useRemoveNotification,
  useSession,
  useSinoInbox,
  useTranslations,
  useUnseenCount,
} from '../hooks.js';
import { Header } from './header.js';
import { Tabs, type InboxTab } from './tabs.js';
import { NewNotificationsAnnouncer } from './live-region.js';
import { NotificationList } from './notification-list.js';
import { UserPreferences, type UserPreferencesProps } from './preferences.js';
import { EmptyState, Loader } from './states.js';
import { SinoRoot } from './root.js';

export interface NotificationCenterProps {
  /** Called with an item once clicked (after it is marked read). */
  onNotificationClick?: (notification: Message) => void;
  /** Called with a clicked item's redirect URL (`cta.data.url`). */
  onUrlChange?: (url: string) => void;
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
  /** The items' three-dot menu (mark read/unread, remove); on by default. */
  allowedNotificationActions?: boolean;
  /** Called after an action button's click is stored (status `done`). */
  onActionClick?: (templateIdentifier: string, type: ButtonType, notification: Message) => void;
  /** Shown in an item once its action is done, instead of the buttons. */
  actionsResultBlock?: (notification: Message) => ReactNode;
}

/**
 * The inbox panel: header, the active store's feed (loader, empty state or list) and a live
 * region for arrivals. Mounting it turns on fetching of notifications.
 */
export function NotificationCenter({
  onNotificationClick,
  onUrlChange,
  showUserPreferences = true,
  onSettingsClick,
  preferenceFilter,
  tabs = [],
  onTabClick,
  emptyState,
  allowedNotificationActions = true,
  onActionClick,
  actionsResultBlock,
}: NotificationCenterProps) {
  const inbox = useSinoInbox();
  const titleId = useId();
  const [view, setView] = useState<'notifications' | 'settings'>('notifications');
  const cog = useRef<HTMLButtonElement>(null);
  const back = useRef<HTMLButtonElement>(null);
  // Focus follows the view switch: to "back" in the settings, to the cog on return.
  const switched = useRef(false);
  useEffect(() => {
    if (!switched.current) return;
    (view === 'settings' ? back : cog).current?.focus();
  }, [view]);
  const show = (next: typeof view) => {
    switched.current = true;
    setView(next);
  };
  const feed = useNotifications();
  const unseenCount = useUnseenCount();
  const counts = useCounts();
  const session = useSession();
  const { t } = useTranslations();
  const { markAllAsRead, markAsRead, markAsUnread } = useMarkNotificationsAs();
  const remove = useRemoveNotification();
  const { clickNotification, clickAction } = useActions();
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
    void clickNotification(notification).catch(() => undefined);
    const url = notification.cta?.type === 'redirect' ? notification.cta.data?.url : undefined;
    if (url) onUrlChange?.(url);
    onNotificationClick?.(notification);
  };
  // Failed mutations leave the item as the server has it, which is what the list shows.
  const itemExtras = (notification: Message) => ({
    menuEntries: allowedNotificationActions
      ? [
          isUnread(notification)
            ? {
                label: t('markAsRead'),
                onSelect: () => void markAsRead(notification._id).catch(() => undefined),
              }
            : {
                label: t('markAsUnRead'),
                onSelect: () => void markAsUnread(notification._id).catch(() => undefined),
              },
          {
            label: t('removeMessage'),
            onSelect: () => void remove(notification._id).catch(() => undefined),
          },
        ]
      : undefined,
    onAction: (target: Message, type: ButtonType) =>
      void clickAction(target._id, type, 'done')
        .then(() => onActionClick?.(target.templateIdentifier, type, target))
        .catch(() => undefined),
    actionsResultBlock,
  });
  let body: ReactNode;
  // Until the first page is in (the session may still be starting), the loader shows.
  if (feed.status === 'idle' || feed.isLoading) body = <Loader />;
  else if (feed.notifications.length === 0) body = emptyState ?? <EmptyState />;
  else
    body = (
      <NotificationList
        notifications={feed.notifications}
        hasMore={feed.hasMore}
        loading={feed.isFetchingNextPage}
        fetchNextPage={feed.fetchNextPage}
        onItemClick={onItemClick}
        itemExtras={itemExtras}
      />
    );
  if (view === 'settings')
    return (
      <SinoRoot className="sino-center">
        <header className="sino-header" style={{ height: HEADER_HEIGHT_PX }}>
          <button
            ref={back}
            type="button"
            className="sino-header__back"
            onClick={() => show('notifications')}
          >
            <span aria-hidden="true">‹ </span>
            {t('back')}
          </button>
          <h2 className="sino-header__title" id={titleId}>
            {t('settings')}
          </h2>
        </header>
        <UserPreferences preferenceFilter={preferenceFilter} />
      </SinoRoot>
    );
  return (
    <SinoRoot className="sino-center">
      <Header
        titleId={titleId}
        unseenCount={unseenCount}
        hasTabs={tabs.length > 0}
        hasUnread={feed.notifications.some(isUnread)}
        onMarkAllAsRead={() => void markAllAsRead()}
        showUserPreferences={showUserPreferences}
        settingsRef={cog}
        onSettingsClick={() => {
          onSettingsClick?.();
          show('settings');
        }}
      />
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
          {body}
        </Tabs>
      ) : (
        body
      )}
      <NewNotificationsAnnouncer notifications={feed.notifications} />
    </SinoRoot>
  );
}
