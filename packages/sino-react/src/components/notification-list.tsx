import {
  useCallback,
  useEffect,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type UIEvent,
} from 'react';
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
 * 80 % asks for the next page while more exist, checked at most every 150 ms: a scroll inside
 * that time is checked when it is up, so the place where scrolling stopped is never skipped.
 * The place is checked again whenever a page has come in (a short page, or scrolling while it
 * loaded, may leave the end still in sight, where no further scroll event comes). A spinner
 * shows at the end while a page loads. Page Down / Page Up move focus to the next / previous
 * item.
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
  const area = useRef<HTMLDivElement>(null);
  const scroll = useScrolling();
  const markScrolling = scroll.onScroll;
  const check = useCallback(() => {
    if (area.current && hasMore && !loading && nearBottom(area.current)) void fetchNextPage();
  }, [hasMore, loading, fetchNextPage]);
  // The timer's check reads this render's props, not those of the scroll that set it.
  const latestCheck = useRef(check);
  useEffect(() => {
    latestCheck.current = check;
  });
  // When the position was last checked, on the scroll events' clock; a check that waits.
  const lastCheck = useRef(-Infinity);
  const pending = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(pending.current), []);
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      markScrolling();
      if (pending.current !== undefined) return;
      const at = event.timeStamp || performance.now();
      const wait = lastCheck.current + SCROLL_THROTTLE_MS - at;
      if (wait <= 0) {
        lastCheck.current = at;
        latestCheck.current();
        return;
      }
      pending.current = window.setTimeout(() => {
        pending.current = undefined;
        lastCheck.current += SCROLL_THROTTLE_MS;
        latestCheck.current();
      }, wait);
    },
    [markScrolling],
  );
  // A page came in (or the list first showed): is the end still in sight? (Not after a page
  // that failed: its "Try again", or the next scroll, asks again.)
  useEffect(() => {
    latestCheck.current();
  }, [notifications.length]);
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
      ref={area}
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
          <span className="sino-loader__spinner sino-list__spinner" aria-hidden="true" />
          <span className="sino-visually-hidden">{t('loadingMore')}</span>
        </p>
      )}
      {trailing}
    </div>
  );
}
