/**
 * The widget API's shapes (WIDGET-WIRE.md), declared here so the package carries no server
 * code: only the fields the client reads are typed strictly.
 */

export type ChannelType = 'in_app' | 'email' | 'sms' | 'chat' | 'push';
export type ActorType = 'none' | 'user' | 'system_icon' | 'system_custom';
export type ButtonType = 'primary' | 'secondary';
export type ActionStatus = 'pending' | 'done';

export interface ActionButton {
  type: ButtonType;
  content: string;
  resultContent?: string;
}

export interface Message {
  _id: string;
  _templateId?: string;
  _feedId?: string | null;
  _subscriberId?: string;
  templateIdentifier: string;
  content: string;
  channel: 'in_app';
  seen: boolean;
  /** May be absent on messages of older servers: then `seen` says whether it is unread. */
  read?: boolean;
  lastSeenDate?: string | null;
  lastReadDate?: string | null;
  cta?: {
    type: 'redirect';
    data?: { url?: string };
    action?: {
      status?: ActionStatus;
      buttons?: ActionButton[];
      result?: { type?: ButtonType; payload?: Record<string, unknown> };
    };
  };
  payload?: Record<string, unknown>;
  transactionId?: string;
  /**
   * The message's workflow as the feed populates it (Novu's `template`: `_id`, `tags`), with
   * `critical` (Sino); absent on older servers.
   */
  template?: { _id: string; tags?: string[]; critical?: boolean };
  actor?: { type: ActorType; data?: string | null } | null;
  subscriber?: {
    _id: string;
    firstName?: string | null;
    lastName?: string | null;
    avatar?: string | null;
    subscriberId: string;
  };
  createdAt: string;
  updatedAt?: string;
  /** Sino only: when it was archived (messages of the archive). */
  archivedAt?: string;
  /** Sino only: when a snoozed message comes back. */
  snoozedUntil?: string;
}

export interface FeedPage {
  data: Message[];
  totalCount: number;
  hasMore: boolean;
  pageSize: number;
  page: number;
}

/** A store's query: which feed(s) and which messages it lists. */
export interface StoreQuery {
  feedIdentifier?: string | string[];
  seen?: boolean;
  read?: boolean;
  /** Matched against the message payload (sent as base64 of its JSON). */
  payload?: Record<string, unknown>;
  /** Page size, 1 to 100 (server default 10). */
  limit?: number;
}

export interface StoreConfig {
  storeId: string;
  query?: StoreQuery;
}

export interface SessionProfile {
  _id: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
}

export interface Session {
  token: string;
  profile: SessionProfile;
}

export interface Organization {
  _id: string;
  name: string;
  branding?: {
    logo?: string;
    color?: string;
    fontFamily?: string;
    fontColor?: string;
    contentBackground?: string;
    direction?: 'ltr' | 'rtl';
  };
}

export interface PreferenceEntry {
  template: {
    _id: string;
    name: string;
    critical: boolean;
    tags?: string[];
    triggers?: unknown[];
    data?: unknown;
  };
  preference: {
    enabled: boolean;
    channels: Partial<Record<ChannelType, boolean>>;
    overrides?: { channel: ChannelType; source: string }[];
  };
}

export interface GlobalPreference {
  preference: { enabled: boolean; channels: Partial<Record<ChannelType, boolean>> };
}

export interface MarkAs {
  seen?: boolean;
  read?: boolean;
}

/** The socket's count events. */
export interface UnseenCountEvent {
  unseenCount: number;
  hasMore?: boolean;
}
export interface UnreadCountEvent {
  unreadCount: number;
  hasMore?: boolean;
}

/** `initialFetchingStrategy`: what is fetched once the session is initialized. */
export interface FetchingStrategy {
  fetchUnseenCount: boolean;
  fetchOrganization: boolean;
  fetchNotifications: boolean;
  fetchUserPreferences: boolean;
  fetchUserGlobalPreferences: boolean;
}

/** The part of `localStorage` the client uses. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The part of `window` the client uses. */
export interface EventSink {
  dispatchEvent(event: Event): boolean;
}

/** Where the client writes what the spec says is logged (session and socket failures). */
export interface Logger {
  error(message: string, ...details: unknown[]): void;
}
