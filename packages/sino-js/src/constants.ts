/**
 * Every widget constant of the specification's section 9, in one place. The client reads its
 * defaults from here; the UI layers (sino-react) read the rest.
 */

/** Local-storage key of the subscriber session token. */
export const AUTH_TOKEN_STORAGE_KEY = 'widget_user_auth_token';

/** Limit of the unseen and unread count requests (the server caps counts at it). */
export const COUNT_LIMIT = 100;

/** Feed paging starts at this page; the next page is fetched only while `hasMore`. */
export const FIRST_PAGE = 0;

/** Debounce of the realtime count events. */
export const SOCKET_EVENT_DEBOUNCE_MS = 100;
/**
 * The debounce Novu's widget uses under its own test runner. Not chosen automatically (no
 * environment sniffing): pass it as `socketEventDebounceMs` when a test wants it.
 */
export const SOCKET_EVENT_DEBOUNCE_UNDER_TEST_MS = 1000;

/** socket.io reconnection: the widget raises the library's maximum delay to 10 s. */
export const SOCKET_RECONNECTION_DELAY_MAX_MS = 10_000;
/** socket.io library defaults, stated so a change of library version changes nothing. */
export const SOCKET_RECONNECTION_DELAY_MS = 1000;
export const SOCKET_LIBRARY_RECONNECTION_DELAY_MAX_MS = 5000;
export const SOCKET_RANDOMIZATION_FACTOR = 0.5;
export const SOCKET_CONNECTION_TIMEOUT_MS = 20_000;
export const SOCKET_RECONNECTION_ATTEMPTS = Infinity;
export const SOCKET_PATH = '/socket.io';

/** Store id of the feed when the host configures no stores. */
export const DEFAULT_STORE_ID = 'default_store';
export const DEFAULT_LANGUAGE = 'en';

/** The unseen badge shows `99+` above this. */
export const UNSEEN_BADGE_MAX = 99;

/** Layout (px and ms) the UI layers use. */
export const HEADER_HEIGHT_PX = 55;
export const LOADER_MIN_HEIGHT_PX = 300;
export const SCROLL_AREA_HEIGHT_PX = 400;
export const EMPTY_STATE_MIN_HEIGHT_PX = 350;
export const PREFERENCES_EMPTY_STATE_MIN_HEIGHT_PX = 400;
export const SCROLL_THROTTLE_MS = 150;
export const INFINITE_SCROLL_THRESHOLD = 0.8;
export const SCROLL_HIDE_DELAY_MS = 600;
export const ACTION_BUTTON_HEIGHT_PX = 30;
export const AVATAR_SIZE_PX = 40;
export const MENU_CLOSE_DELAY_MS = 100;
export const POPOVER_TRANSITION_MS = 150;
export const POPOVER_OFFSET_PX = 8;
export const PREFERENCE_SAVED_INDICATOR_MS = 1500;
export const ACCORDION_ROW_HEIGHT_PX = 65;
export const ACCORDION_ROW_MARGIN_BOTTOM_PX = 15;
export const ACCORDION_ROW_RADIUS_PX = 7;
export const SWITCH_TRACK_WIDTH_PX = 46;
export const SWITCH_TRACK_HEIGHT_PX = 24;
export const ACCORDION_TRANSITION_MS = 200;
export const RELATIVE_TIME_UNITS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;

/** Data fetching: queries retry 3 times, back-off from 1 s doubling up to 30 s; mutations 0. */
export const QUERY_RETRIES = 3;
export const MUTATION_RETRIES = 0;
export const RETRY_BASE_DELAY_MS = 1000;
export const RETRY_MAX_DELAY_MS = 30_000;
/** How long data of a store nobody looks at is kept. */
export const CACHE_LIFETIME_MS = 5 * 60_000;
/** The session is never stale; nothing refetches on mount or window focus. */
export const SESSION_STALE_TIME_MS = Infinity;
export const REFETCH_ON_WINDOW_FOCUS = false;

/** Theme defaults. */
export const DEFAULT_COLOR_SCHEME = 'light';
export const DEFAULT_DATE_FORMAT = 'MMMM D, YYYY';
export const BREAKPOINTS_PX = [576, 768, 992, 1200, 1400] as const;

/** Chunk loading timeout of lazily loaded parts. */
export const CHUNK_LOADING_TIMEOUT_MS = 120_000;

/** Prefix of usage-log event names, and the click event's name. */
export const USAGE_LOG_PREFIX = '[Widget] - ';
export const NOTIFICATION_CLICK_EVENT = 'Notification Click';

/** Browser events dispatched on `window` when a count changes. */
export const UNSEEN_COUNT_CHANGED_EVENT = 'unseen_count_changed';
export const UNREAD_COUNT_CHANGED_EVENT = 'unread_count_changed';

/** `initialFetchingStrategy` defaults. */
export const DEFAULT_FETCHING_STRATEGY = {
  fetchUnseenCount: true,
  fetchOrganization: true,
  fetchNotifications: false,
  fetchUserPreferences: false,
  fetchUserGlobalPreferences: false,
} as const;
