import { useCallback, useRef, type KeyboardEvent, type ReactNode, type UIEvent } from 'react';
import {
  INFINITE_SCROLL_THRESHOLD,
  SCROLL_AREA_HEIGHT_PX,
  SCROLL_THROTTLE_MS,
  type Message,
} from '@sino/js';
import { useTranslations } from '../hooks.js';
import {
  NotificationItem,
  type ListItemSlot,
  type NotificationItemProps,
} from './notification-item.js';
import { useScrolling } from './scrolling.js';

export interface NotificationListProps {
  notifications: Message[];
  hasMore: boolean;
  loading: boolean;
  fetchNextPage: () => Promise<void>;
  onItemClick: (notification: Message) => void;
  /** "Now" for relative times (a prop so a host can tick it). */
  now?: Date;
  /** Per item: its menu entries, action handler, result block, actions and note. */
  itemExtras?: (
    notification: Message,
  ) => Pick<
    NotificationItemProps,
    'menuEntries' | 'onAction' | 'actionsResultBlock' | 'actions' | 'note'
  >;
  /** The feed's accessible name; the 'notifications' title by default. */
  label?: string;
  /** A host's item, drawn inside each feed `<article>`. */
  listItem?: ListItemSlot;
  /** Shown after the items: a later page that failed to load, with its "Try again". */
  trailing?: ReactNode;
}

/** Scrolled past 80 % of the content: time for the next page. */
export function nearBottom(
  element: Pick<HTMLElement, 'scrollTop' | 'clientHeight' | 'scrollHeight'>,
) {
  if (element.scrollHeight <= 0) return false;
  return (
    (element.scrollTop + element.clientHeight) / element.scrollHeight >= INFINITE_SCROLL_THRESHOLD
  );
}

/**
 * The feed: a 400 px scroll area holding a WAI-ARIA `feed` of `<article>`s. Scrolling past
 * 80 % asks for the next page while more exist (throttled to one check per 150 ms); Page
 * Down / Page Up move focus to the next / previous item.
 */
export function NotificationList({
  notifications,
  hasMore,
  loading,
  fetchNextPage,
  onItemClick,
  now = new Date(),
  itemExtras,
  listItem,
  trailing,
  label,
}: NotificationListProps) {
  const { t } = useTranslations();
  const lastCheck = useRef(0);
  const scroll = useScrolling();
  const markScrolling = scroll.onScroll;
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      markScrolling();
      const at = event.timeStamp || Date.now();
      if (at - lastCheck.current < SCROLL_THROTTLE_MS) return;
      lastCheck.current = at;
      if (hasMore && !loading && nearBottom(event.currentTarget)) void fetchNextPage();
    },
    [hasMore, loading, fetchNextPage, markScrolling],
  );
  const onItemKeyDown = useCallback((event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'PageDown' && event.key !== 'PageUp') return;
    const article = (event.target as HTMLElement).closest('article');
    const sibling =
      event.key === 'PageDown' ? article?.nextElementSibling : article?.previousElementSibling;
    if (sibling instanceof HTMLElement && sibling.tagName === 'ARTICLE') {
      event.preventDefault();
      sibling.focus();
    }
  }, []);
  const setSize = hasMore ? -1 : notifications.length;
  return (
    <div
      className={['sino-list', scroll.scrolling && 'sino-list--scrolling']
        .filter(Boolean)
        .join(' ')}
      style={{ height: SCROLL_AREA_HEIGHT_PX }}
      onScroll={onScroll}
    >
      <div
        role="feed"
        aria-busy={loading}
        aria-label={label ?? t('notifications')}
        className="sino-list__feed"
      >
        {notifications.map((notification, index) => (
          <NotificationItem
            key={notification._id}
            notification={notification}
            position={index + 1}
            setSize={setSize}
            now={now}
            onClick={onItemClick}
            onKeyDown={onItemKeyDown}
            listItem={listItem}
            {...itemExtras?.(notification)}
          />
        ))}
      </div>
      {loading && notifications.length > 0 && (
        <p className="sino-list__more" role="status">
          {t('loadingMore')}
        </p>
      )}
      {trailing}
    </div>
  );
}
