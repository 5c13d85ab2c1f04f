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
  useCounts,
  useInboxState,
  useMarkNotificationsAs,
  useNotifications,
  usePreferences,
  useRemoveAllNotifications,
  useRemoveNotification,
  useSession,
  useSinoInbox,
  useTranslations,
  useUnseenCount,
  type Counts,
  type UseNotificationsResult,
} from './hooks.js';
export { Bell, badgeText, type BellProps } from './components/bell.js';
export { Header, type HeaderProps } from './components/header.js';
export { NewNotificationsAnnouncer, arrivedOnTop } from './components/live-region.js';
export {
  NotificationCenter,
  type NotificationCenterProps,
} from './components/notification-center.js';
export { NotificationItem, type NotificationItemProps } from './components/notification-item.js';
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
export { sanitizeContent } from './components/sanitize.js';
export { EmptyState, Loader } from './components/states.js';
export { ActionButtons } from './components/action-buttons.js';
export { ItemMenu, type ItemMenuEntry } from './components/item-menu.js';
export {
  UserPreferences,
  isVisiblePreference,
  type UserPreferencesProps,
} from './components/preferences.js';
export { Tabs, type InboxTab, type TabsProps } from './components/tabs.js';
