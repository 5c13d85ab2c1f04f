import { describe, expect, it } from 'vitest';
import * as constants from '../src/constants.js';
import { isUnread, mergeAnswer } from '../src/inbox.js';
import type { Message } from '../src/types.js';
import { SinoApiError } from '../src/http.js';
import { isRetryable, retryDelay } from '../src/retry.js';

describe('section 9 constants', () => {
  it('has the widget values of the specification', () => {
    expect(constants).toMatchObject({
      AUTH_TOKEN_STORAGE_KEY: 'widget_user_auth_token',
      COUNT_LIMIT: 100,
      FIRST_PAGE: 0,
      SOCKET_EVENT_DEBOUNCE_MS: 100,
      SOCKET_EVENT_DEBOUNCE_UNDER_TEST_MS: 1000,
      SOCKET_RECONNECTION_DELAY_MAX_MS: 10_000,
      SOCKET_RECONNECTION_DELAY_MS: 1000,
      SOCKET_LIBRARY_RECONNECTION_DELAY_MAX_MS: 5000,
      SOCKET_RANDOMIZATION_FACTOR: 0.5,
      SOCKET_CONNECTION_TIMEOUT_MS: 20_000,
      SOCKET_RECONNECTION_ATTEMPTS: Infinity,
      SOCKET_PATH: '/socket.io',
      DEFAULT_STORE_ID: 'default_store',
      DEFAULT_LANGUAGE: 'en',
      UNSEEN_BADGE_MAX: 99,
      HEADER_HEIGHT_PX: 55,
      LOADER_MIN_HEIGHT_PX: 300,
      SCROLL_AREA_HEIGHT_PX: 400,
      EMPTY_STATE_MIN_HEIGHT_PX: 350,
      PREFERENCES_EMPTY_STATE_MIN_HEIGHT_PX: 400,
      SCROLL_THROTTLE_MS: 150,
      INFINITE_SCROLL_THRESHOLD: 0.8,
      SCROLL_HIDE_DELAY_MS: 600,
      ACTION_BUTTON_HEIGHT_PX: 30,
      AVATAR_SIZE_PX: 40,
      MENU_CLOSE_DELAY_MS: 100,
      POPOVER_TRANSITION_MS: 150,
      POPOVER_OFFSET_PX: 8,
      PREFERENCE_SAVED_INDICATOR_MS: 1500,
      ACCORDION_ROW_HEIGHT_PX: 65,
      ACCORDION_ROW_MARGIN_BOTTOM_PX: 15,
      ACCORDION_ROW_RADIUS_PX: 7,
      SWITCH_TRACK_WIDTH_PX: 46,
      SWITCH_TRACK_HEIGHT_PX: 24,
      ACCORDION_TRANSITION_MS: 200,
      RELATIVE_TIME_UNITS: ['year', 'month', 'day', 'hour', 'minute', 'second'],
      QUERY_RETRIES: 3,
      MUTATION_RETRIES: 0,
      RETRY_BASE_DELAY_MS: 1000,
      RETRY_MAX_DELAY_MS: 30_000,
      CACHE_LIFETIME_MS: 300_000,
      SESSION_STALE_TIME_MS: Infinity,
      REFETCH_ON_WINDOW_FOCUS: false,
      DEFAULT_COLOR_SCHEME: 'light',
      DEFAULT_DATE_FORMAT: 'MMMM D, YYYY',
      BREAKPOINTS_PX: [576, 768, 992, 1200, 1400],
      CHUNK_LOADING_TIMEOUT_MS: 120_000,
      USAGE_LOG_PREFIX: '[Widget] - ',
      NOTIFICATION_CLICK_EVENT: 'Notification Click',
      UNSEEN_COUNT_CHANGED_EVENT: 'unseen_count_changed',
      UNREAD_COUNT_CHANGED_EVENT: 'unread_count_changed',
      DEFAULT_FETCHING_STRATEGY: {
        fetchUnseenCount: true,
        fetchOrganization: true,
        fetchNotifications: false,
        fetchUserPreferences: false,
        fetchUserGlobalPreferences: false,
      },
    });
  });
});

describe('retry back-off', () => {
  it('starts at 1 s and doubles up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(attempt))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('retries network failures, 408, 429 and 5xx, never another 4xx', () => {
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    for (const status of [408, 429, 500, 503]) {
      expect(isRetryable(new SinoApiError(status, 'x'))).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 422]) {
      expect(isRetryable(new SinoApiError(status, 'x'))).toBe(false);
    }
  });
});

describe('unread', () => {
  it('is read === false when the field exists, otherwise seen === false', () => {
    expect(isUnread({ seen: true, read: false })).toBe(true);
    expect(isUnread({ seen: false, read: true })).toBe(false);
    expect(isUnread({ seen: false })).toBe(true);
    expect(isUnread({ seen: true })).toBe(false);
  });
});

describe('mergeAnswer', () => {
  const loaded: Message = {
    _id: 'm1',
    templateIdentifier: 'review',
    content: 'Bruno commented',
    channel: 'in_app',
    seen: false,
    read: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    actor: { type: 'user', data: 'https://img.example/bruno.png' },
    subscriber: { _id: 's1', subscriberId: 'ana' },
    template: { _id: 'w1', tags: [], critical: true },
  };

  it("takes the answer's state and keeps what the answer lacks (a server answering without the feed's joins)", () => {
    const answer: Message = {
      ...loaded,
      seen: true,
      read: true,
      actor: { type: 'user', data: null },
      subscriber: undefined,
      template: undefined,
    };
    delete answer.subscriber;
    delete answer.template;
    const merged = mergeAnswer(loaded, answer);
    expect(merged).toMatchObject({ seen: true, read: true });
    expect(merged.actor).toEqual({ type: 'user', data: 'https://img.example/bruno.png' });
    expect(merged.subscriber).toEqual(loaded.subscriber);
    expect(merged.template).toEqual(loaded.template);
  });

  it('takes a new picture or another actor from the answer', () => {
    const newer = mergeAnswer(loaded, {
      ...loaded,
      actor: { type: 'user', data: 'https://img.example/new.png' },
    });
    expect(newer.actor?.data).toBe('https://img.example/new.png');
    const icon = mergeAnswer(loaded, { ...loaded, actor: { type: 'system_icon', data: 'info' } });
    expect(icon.actor).toEqual({ type: 'system_icon', data: 'info' });
  });
});
