import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import { isUnread, type ButtonType, type Message } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { ActionButtons } from './action-buttons.js';
import { ItemMenu, type ItemMenuEntry } from './item-menu.js';
import { sanitizeContent } from './sanitize.js';

export interface NotificationItemProps {
  notification: Message;
  /** 1-based position in the feed, and the feed's size (-1 while more pages exist). */
  position: number;
  setSize: number;
  now: Date;
  onClick: (notification: Message) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** The three-dot menu's entries; no menu without them (allowedNotificationActions off). */
  menuEntries?: ItemMenuEntry[];
  /** An action button was clicked. */
  onAction?: (notification: Message, type: ButtonType) => void;
  /** Shown instead of the buttons once the action is done. */
  actionsResultBlock?: (notification: Message) => ReactNode;
}

/**
 * One feed `<article>` (WAI-ARIA feed pattern): focusable, labelled by its content. Unread
 * items carry a coloured bar and bold text (and say "unread" to screen readers); the dot
 * shows only while the item is unseen.
 */
export function NotificationItem({
  notification,
  position,
  setSize,
  now,
  onClick,
  onKeyDown,
  menuEntries,
  onAction,
  actionsResultBlock,
}: NotificationItemProps) {
  const { t, relativeTime } = useTranslations();
  const unread = isUnread(notification);
  const html = useMemo(() => sanitizeContent(notification.content), [notification.content]);
  const contentId = `sino-item-${notification._id}`;
  return (
    <article
      className={['sino-item', unread ? 'sino-item--unread' : 'sino-item--read'].join(' ')}
      tabIndex={0}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-labelledby={contentId}
      data-notification-id={notification._id}
      onClick={() => onClick(notification)}
      onKeyDown={(event) => {
        if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          onClick(notification);
        }
        onKeyDown(event);
      }}
    >
      <div id={contentId} className="sino-item__text">
        {unread && <span className="sino-visually-hidden">{t('unread')}: </span>}
        <span className="sino-item__content" dangerouslySetInnerHTML={{ __html: html }} />
      </div>
      <time className="sino-item__time" dateTime={notification.createdAt}>
        {relativeTime(notification.createdAt, now)}
      </time>
      {!notification.seen && <span className="sino-item__dot" aria-hidden="true" />}
      {onAction && (
        <ActionButtons
          notification={notification}
          onAction={(type) => onAction(notification, type)}
        />
      )}
      {notification.cta?.action?.status === 'done' && actionsResultBlock?.(notification)}
      {menuEntries && menuEntries.length > 0 && <ItemMenu entries={menuEntries} />}
    </article>
  );
}
