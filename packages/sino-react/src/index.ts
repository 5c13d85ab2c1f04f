export {
  OUTSIDE_PROVIDER_MESSAGE,
  OUTSIDE_STYLES_PROVIDER_MESSAGE,
  useStyles,
  type ColorScheme,
  type SinoStyles,
} from './context.js';
export { SinoProvider, type SinoI18n, type SinoProviderProps } from './provider.js';
export {
  useActions,
  useConnectionLost,
  useCounts,
  useGlobalPreferences,
  useInboxState,
  useMarkNotificationsAs,
  useNotifications,
  usePreferences,
  useRefetchFeeds,
  useRemoveAllNotifications,
  useRemoveNotification,
  useSession,
  useSinoInbox,
  useTranslations,
  useUnseenCount,
  useUnseenCountChanged,
  type Counts,
  type GlobalPreferencesUpdate,
  type UseNotificationsResult,
} from './hooks.js';
export {
  useArchive,
  useOutOfInbox,
  useSnooze,
  type OutOfInboxKind,
  type UseOutOfInboxResult,
} from './out-of-inbox.js';
export { Bell, badgeText, type BellProps } from './components/bell.js';
export { Header, type HeaderProps } from './components/header.js';
export { NewNotificationsAnnouncer, arrivedOnTop } from './components/live-region.js';
export {
  NotificationCenter,
  type HeaderSlotProps,
  type NotificationCenterProps,
} from './components/notification-center.js';
export {
  NotificationItem,
  type ListItemSlot,
  type ListItemSlotProps,
  type NotificationItemProps,
} from './components/notification-item.js';
export { ActorAvatar, hasAvatar, safeImageUrl } from './components/avatar.js';
export { ConnectionNotice } from './components/connection-notice.js';
export { Footer, PROVIDER_NAME, poweredByText, type FooterProps } from './components/footer.js';
export { SYSTEM_ICON_NAMES, SystemIcon, type SystemIconName } from './components/icons.js';
export {
  NotificationList,
  nearBottom,
  type NotificationListProps,
} from './components/notification-list.js';
export {
  PopoverNotificationCenter,
  type PopoverNotificationCenterProps,
} from './components/popover.js';
export { SinoRoot } from './components/root.js';
export { contentText, sanitizeContent, type SanitizeOptions } from './components/sanitize.js';
export { isAllowedImage } from './components/images.js';
export { EmptyState, ErrorState, Loader, type ErrorStateProps } from './components/states.js';
export { ActionButtons } from './components/action-buttons.js';
export {
  ItemMenu,
  SNOOZE_TOMORROW_HOUR,
  itemMenuEntries,
  snoozeTimes,
  type ItemMenuActions,
  type ItemMenuEntry,
  type ItemMenuProps,
} from './components/item-menu.js';
export {
  OutOfInboxView,
  SubviewHeader,
  type OutOfInboxViewProps,
} from './components/out-of-inbox-view.js';
export {
  UserPreferences,
  isVisiblePreference,
  type UserPreferencesProps,
} from './components/preferences.js';
export { Tabs, type InboxTab, type TabsProps } from './components/tabs.js';
