import { COUNT_LIMIT, FIRST_PAGE, USAGE_LOG_PREFIX } from './constants.js';
import type {
  ActionStatus,
  ButtonType,
  ChannelType,
  FeedPage,
  GlobalPreference,
  MarkAs,
  Message,
  Organization,
  PreferenceEntry,
  Session,
  StoreQuery,
} from './types.js';

/** A refusal of the widget API, with the server's status and message. */
export class SinoApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'SinoApiError';
  }
}

export interface SessionRequest {
  applicationIdentifier: string;
  subscriberId: string;
  /** Hex HMAC-SHA256 of the subscriberId keyed by the API key, computed on the host's server. */
  subscriberHash?: string | null;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

type Query = Record<string, string | number | boolean | string[] | undefined>;

/**
 * The widget API (`<backendUrl>/v1/widgets/...`) over `fetch`, JSON in and out, with the
 * subscriber token as a bearer token once a session is initialized.
 */
export class WidgetApi {
  private token: string | null = null;
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;

  constructor(backendUrl: string, fetchImpl: typeof fetch = globalThis.fetch) {
    this.base = `${backendUrl.replace(/\/+$/, '')}/v1/widgets`;
    // Bound: a bare `fetch` called as a method of another object throws in browsers.
    this.fetchImpl = fetchImpl.bind(globalThis);
  }

  setToken(token: string | null): void {
    this.token = token;
  }

  getToken(): string | null {
    return this.token;
  }

  async initializeSession(request: SessionRequest): Promise<Session> {
    const { subscriberHash, ...rest } = request;
    return this.call<Session>('POST', '/session/initialize', {
      body: { ...rest, hmacHash: subscriberHash ?? null },
      anonymous: true,
    });
  }

  /** A feed page; the whole answer (`hasMore`, `page`...) is returned, not only `data`. */
  async feed(query: StoreQuery = {}, page: number = FIRST_PAGE): Promise<FeedPage> {
    return this.request<FeedPage>('GET', '/notifications/feed', {
      query: { ...storeQuery(query), page },
    });
  }

  async unseenCount(query: Pick<StoreQuery, 'feedIdentifier'> = {}): Promise<number> {
    const { count } = await this.call<{ count: number }>('GET', '/notifications/unseen', {
      query: { feedIdentifier: feedIdentifiers(query.feedIdentifier), limit: COUNT_LIMIT },
    });
    return count;
  }

  async unreadCount(query: Pick<StoreQuery, 'feedIdentifier'> = {}): Promise<number> {
    const { count } = await this.call<{ count: number }>('GET', '/notifications/unread', {
      query: { feedIdentifier: feedIdentifiers(query.feedIdentifier), limit: COUNT_LIMIT },
    });
    return count;
  }

  /** Messages matching a store's query (unseen when it names neither seen nor read): tab counts. */
  async count(query: StoreQuery = {}): Promise<number> {
    const { count } = await this.call<{ count: number }>('GET', '/notifications/count', {
      query: {
        feedIdentifier: feedIdentifiers(query.feedIdentifier),
        seen: query.seen,
        read: query.read,
        limit: COUNT_LIMIT,
      },
    });
    return count;
  }

  /** Marks one message or several; with no flag given the server marks them seen. */
  async markAs(messageId: string | string[], mark: MarkAs = { seen: true }): Promise<Message[]> {
    return this.call<Message[]>('POST', '/messages/markAs', { body: { messageId, mark } });
  }

  /** Marks every message (of the feed(s), when given) read, and so seen: answers how many. */
  async markAllRead(feedId?: string | string[]): Promise<number> {
    return this.call<number>('POST', '/messages/read', { body: feedId ? { feedId } : {} });
  }

  async markAllSeen(feedId?: string | string[]): Promise<number> {
    return this.call<number>('POST', '/messages/seen', { body: feedId ? { feedId } : {} });
  }

  async remove(messageId: string): Promise<Message> {
    return this.call<Message>('DELETE', `/messages/${encodeURIComponent(messageId)}`);
  }

  /** Removes every in-app message of the subscriber, or of one feed. */
  async removeAll(feedId?: string): Promise<void> {
    await this.request('DELETE', '/messages', { query: { feedId } });
  }

  /** `keepalive`: the request outlives the page (a removal sent as the page closes). */
  async removeMany(messageIds: string[], options: { keepalive?: boolean } = {}): Promise<void> {
    await this.request('POST', '/messages/bulk/delete', { body: { messageIds }, ...options });
  }

  // Sino's additions to Novu's widget API: archive and snooze.

  async archive(messageId: string): Promise<Message> {
    return this.call<Message>('POST', `/messages/${encodeURIComponent(messageId)}/archive`);
  }

  async unarchive(messageId: string): Promise<Message> {
    return this.call<Message>('POST', `/messages/${encodeURIComponent(messageId)}/unarchive`);
  }

  /** Archives every read message (of the feed(s), when given): answers how many. */
  async archiveRead(feedId?: string | string[]): Promise<number> {
    return this.call<number>('POST', '/messages/archive-read', { body: feedId ? { feedId } : {} });
  }

  /** Hides a message until `until`; it comes back unseen and unread then. */
  async snooze(messageId: string, until: Date): Promise<Message> {
    return this.call<Message>('POST', `/messages/${encodeURIComponent(messageId)}/snooze`, {
      body: { until: until.toISOString() },
    });
  }

  async unsnooze(messageId: string): Promise<Message> {
    return this.call<Message>('POST', `/messages/${encodeURIComponent(messageId)}/unsnooze`);
  }

  /** A page of the archive (newest archived first) or of the snoozed messages (soonest back first). */
  async outOfInbox(which: 'archived' | 'snoozed', page: number = FIRST_PAGE): Promise<FeedPage> {
    return this.request<FeedPage>('GET', `/notifications/${which}`, { query: { page } });
  }

  async updateAction(
    messageId: string,
    type: ButtonType,
    status: ActionStatus,
    payload?: Record<string, unknown>,
  ): Promise<Message> {
    return this.call<Message>(
      'POST',
      `/messages/${encodeURIComponent(messageId)}/actions/${encodeURIComponent(type)}`,
      { body: { executedType: type, status, ...(payload !== undefined && { payload }) } },
    );
  }

  async organization(): Promise<Organization> {
    return this.call<Organization>('GET', '/organization');
  }

  async preferences(): Promise<PreferenceEntry[]> {
    return this.call<PreferenceEntry[]>('GET', '/preferences');
  }

  async globalPreferences(): Promise<GlobalPreference[]> {
    return this.call<GlobalPreference[]>('GET', '/preferences/global');
  }

  async updatePreference(
    templateId: string,
    channel: { type: ChannelType; enabled: boolean },
  ): Promise<PreferenceEntry> {
    return this.call<PreferenceEntry>('PATCH', `/preferences/${encodeURIComponent(templateId)}`, {
      body: { channel },
    });
  }

  async updateGlobalPreferences(update: {
    enabled?: boolean;
    preferences?: { type: ChannelType; enabled: boolean }[];
  }): Promise<GlobalPreference> {
    return this.call<GlobalPreference>('PATCH', '/preferences', { body: update });
  }

  /** Usage event; `name` is prefixed with `[Widget] - ` as the server expects. */
  async logUsage(name: string, payload: Record<string, unknown>): Promise<void> {
    await this.call('POST', '/usage/log', {
      body: { name: `${USAGE_LOG_PREFIX}${name}`, payload },
    });
  }

  /** The answer's `data`. */
  private async call<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown; anonymous?: boolean } = {},
  ): Promise<T> {
    return (await this.request<{ data: T }>(method, path, options)).data;
  }

  private async request<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown; anonymous?: boolean; keepalive?: boolean } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (!options.anonymous) {
      if (!this.token) throw new SinoApiError(401, 'The widget session is not initialized');
      headers.authorization = `Bearer ${this.token}`;
    }
    const response = await this.fetchImpl(`${this.base}${path}${queryString(options.query)}`, {
      method,
      headers,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      ...(options.keepalive && { keepalive: true }),
    });
    const text = await response.text();
    const body: unknown = text ? parseJson(text) : undefined;
    if (!response.ok) throw new SinoApiError(response.status, errorMessage(response, body), body);
    return body as T;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessage(response: Response, body: unknown): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string' && message) return message;
  return `Request failed with status ${response.status}`;
}

function feedIdentifiers(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}

function storeQuery(query: StoreQuery): Query {
  return {
    feedIdentifier: feedIdentifiers(query.feedIdentifier),
    seen: query.seen,
    read: query.read,
    limit: query.limit,
    payload: query.payload === undefined ? undefined : base64Json(query.payload),
  };
}

/** Arrays go axios-style (`key[]=a&key[]=b`), as Novu's clients send them. */
function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(`${key}[]`, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Base64 of the UTF-8 JSON, in browsers and Node alike (`btoa` takes Latin-1 only). */
function base64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
