/**
 * Every string the inbox widget shows or announces, screen-reader labels included.
 *
 * Novu 0.24's keys (notifications, markAllAsRead, poweredBy, settings, noNewNotification,
 * removeMessage, markAsRead, markAsUnRead) keep their names so a host's Novu `i18n` object
 * still fits. Placeholders are written `{name}`; pairs ending in `One`/`Other` are chosen
 * with `Intl.PluralRules`, and each `Other` is phrased to read right for every count.
 */
export interface Translations {
  /** Title of the notifications view. */
  notifications: string;
  markAllAsRead: string;
  /** Footer label before the provider's name. */
  poweredBy: string;
  /** Said after a link that opens in a new tab (the footer's). */
  opensInNewTab: string;
  /** Title of the preferences view and label of the cog. */
  settings: string;
  /** Empty feed. */
  noNewNotification: string;
  removeMessage: string;
  markAsRead: string;
  markAsUnRead: string;
  /** Marks an item of a critical workflow (one the subscriber cannot switch off), with an icon. */
  critical: string;
  /** Said before an action button's result once its action is done ("Done: Approve"). */
  actionDone: string;
  /** The note shown (and announced) after an item's removal, beside `undoRemove`. */
  messageRemoved: string;
  /** Brings back the item just removed. */
  undoRemove: string;
  /** Item menu (and the archive's title, see `archived`): archive one message. */
  archive: string;
  snooze: string;
  /** Item menu: snooze for one hour from now. */
  snoozeOneHour: string;
  /** Item menu: snooze until 09:00 tomorrow, in the user's time zone. */
  snoozeUntilTomorrow: string;
  /** Accessible name of the header's menu button (archive read, archived, snoozed). */
  moreActions: string;
  /** Header menu: archive every read message. */
  archiveRead: string;
  /** Header menu entry and title of the archive view. */
  archived: string;
  /** Header menu entry and title of the snoozed messages' view. */
  snoozed: string;
  /** Archive view, item menu: back to the inbox. */
  moveToInbox: string;
  /** Snoozed view, item menu: end the snooze now. */
  showNow: string;
  /** When a snoozed message comes back later today: `{time}` (short time, from Intl). */
  backToday: string;
  /** When a snoozed message comes back tomorrow: `{time}`. */
  backTomorrow: string;
  /** When a snoozed message comes back on a later day: `{date}` (long date and time, from Intl). */
  backOn: string;
  /** Empty archive. */
  nothingArchived: string;
  /** No snoozed message. */
  nothingSnoozed: string;
  /** Back from the preferences view. */
  back: string;
  close: string;
  /** Accessible name of the popover dialog. */
  dialogLabel: string;
  /** Bell label when there are unseen notifications; `{count}`. */
  bellUnseenOne: string;
  bellUnseenOther: string;
  /** Accessible name of an item's menu button. */
  itemMenuLabel: string;
  /** Read aloud for an unread item. */
  unread: string;
  channelEmail: string;
  channelSms: string;
  channelChat: string;
  channelPush: string;
  channelInApp: string;
  /** A preferences row whose channels are all switched off (said instead of those on). */
  channelsOff: string;
  /** A preference switch: `{channel}` for the workflow `{workflow}`. */
  channelSwitchLabel: string;
  /** Shown for a moment after a preference is saved. */
  saved: string;
  loading: string;
  loadingMore: string;
  loadMore: string;
  /** Preferences view with no workflow to show. */
  noPreferences: string;
  /** Polite live-region announcement of new items; `{count}`. */
  newNotificationsOne: string;
  newNotificationsOther: string;
  errorLoadNotifications: string;
  errorLoadPreferences: string;
  errorSavePreference: string;
  /** The realtime connection dropped and is being retried. */
  errorConnection: string;
  retry: string;
}

export type TranslationKey = keyof Translations;

export type TextDirection = 'ltr' | 'rtl';

/** One language file's default export. */
export interface LanguagePack {
  /** BCP 47 code, also used as the `lang` attribute. */
  lang: string;
  dir: TextDirection;
  translations: Translations;
}

/** A pack that may miss keys: host overrides, or a regional variant that only differs a bit. */
export interface PartialLanguagePack {
  lang: string;
  dir: TextDirection;
  translations: Partial<Translations>;
}
