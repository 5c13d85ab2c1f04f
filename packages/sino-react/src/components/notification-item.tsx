import { useContext, useMemo, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { isUnread, type ButtonType, type Message } from '@sino/js';
import { SinoContext } from '../context.js';
import { useTranslations } from '../hooks.js';
import { ActionButtons } from './action-buttons.js';
import { ActorAvatar, hasAvatar } from './avatar.js';
import { CriticalIcon } from './icons.js';
import { ItemMenu, type ItemMenuActions, type ItemMenuEntry } from './item-menu.js';
import { contentText, sanitizeContent } from './sanitize.js';

/** What a host's `listItem` render function is given for one notification. */
export interface ListItemSlotProps {
  notification: Message;
  /** `read` is false (or, without that field, `seen` is false). */
  unread: boolean;
  /** The item's click: marks it read, then `onUrlChange` (redirect CTA) and `onNotificationClick`. */
  onClick: () => void;
  /** An action button: stored as done, then `onActionClick`. */
  onAction: (type: ButtonType) => void;
  markAsRead: () => void;
  markAsUnread: () => void;
  remove: () => void;
  /** Archive (Sino only); undefined when `allowArchive` is off. */
  archive?: () => void;
  /** Snooze until a time (Sino only); undefined when `allowSnooze` is off. */
  snooze?: (until: Date) => void;
  /** The built-in three-dot menu, ready to place; null when allowedNotificationActions is off. */
  menu: ReactNode;
  allowedNotificationActions: boolean;
}

/** A host's replacement for an item's inside; the feed's `<article>` stays around it. */
export type ListItemSlot = (props: ListItemSlotProps) => ReactNode;

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
  /** An action button was clicked; the buttons wait until the returned promise settles. */
  onAction?: (notification: Message, type: ButtonType) => void | Promise<void>;
  /** Shown instead of the buttons once the action is done. */
  actionsResultBlock?: (notification: Message) => ReactNode;
  /** Mark, archive, snooze and remove, for a host's `listItem`. */
  actions?: ItemMenuActions;
  /** A line under the time (a snoozed message's return time); part of the item's name. */
  note?: ReactNode;
  /** The host's item, rendered inside the feed's `<article>` instead of the built-in one. */
  listItem?: ListItemSlot;
}

/** Of a critical workflow (one the subscriber cannot switch off: a fine, say). */
export const isCritical = (notification: Message): boolean =>
  notification.template?.critical === true;

/** Enter or Space on the article itself (not on a control inside it) is the item's click. */
function activatesItem(event: KeyboardEvent<HTMLElement>): boolean {
  return event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ');
}

const controls =
  'a[href], button, input, select, textarea, summary, [role="button"], [role="link"], [role="menuitem"], [role="switch"]';

/** A click on a control inside the item (a host's button, say) is that control's, not the item's. */
function fromControl(event: MouseEvent<HTMLElement>): boolean {
  const control = (event.target as Element).closest(controls);
  return (
    control !== null && control !== event.currentTarget && event.currentTarget.contains(control)
  );
}

/**
 * One feed `<article>` (WAI-ARIA feed pattern): focusable, labelled by its content. Unread
 * items carry a coloured bar and bold text (and say "unread" to screen readers); the dot
 * shows only while the item is unseen. The actor's avatar or icon comes first. With a host
 * `listItem`, the article (position, size, name, keys) stays and the host draws its inside.
 */
export function NotificationItem(props: NotificationItemProps) {
  if (props.listItem) return <SlotItem {...props} listItem={props.listItem} />;
  return <BuiltInItem {...props} />;
}

function BuiltInItem({
  notification,
  position,
  setSize,
  now,
  onClick,
  onKeyDown,
  menuEntries,
  onAction,
  actionsResultBlock,
  note,
}: NotificationItemProps) {
  const { t, relativeTime, formatDate } = useTranslations();
  const unread = isUnread(notification);
  const allowedImageOrigins = useContext(SinoContext)?.allowedImageOrigins;
  const html = useMemo(
    () => sanitizeContent(notification.content, { allowedImageOrigins }),
    [notification.content, allowedImageOrigins],
  );
  const contentId = `sino-item-${notification._id}`;
  const avatar = hasAvatar(notification.actor);
  const critical = isCritical(notification);
  const done = notification.cta?.action?.status === 'done';
  return (
    <article
      className={[
        'sino-item',
        unread ? 'sino-item--unread' : 'sino-item--read',
        avatar && 'sino-item--with-avatar',
        critical && 'sino-item--critical',
      ]
        .filter(Boolean)
        .join(' ')}
      tabIndex={0}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-labelledby={note ? `${contentId} ${contentId}-note` : contentId}
      data-notification-id={notification._id}
      onClick={() => onClick(notification)}
      onKeyDown={(event) => {
        if (activatesItem(event)) {
          event.preventDefault();
          onClick(notification);
        }
        onKeyDown(event);
      }}
    >
      {avatar && <ActorAvatar actor={notification.actor} />}
      <div id={contentId} className="sino-item__text">
        {/* Read first: "Unread: Important: …" (one span: a second hidden one would add a
            stray space to the name). */}
        {(unread || critical) && (
          <span className="sino-visually-hidden">
            {[unread && t('unread'), critical && t('critical')].filter(Boolean).join(': ')}:{' '}
          </span>
        )}
        {/* Not colour alone: an icon and the word, seen (and said by the span above). */}
        {critical && (
          <span className="sino-item__critical" aria-hidden="true">
            <CriticalIcon />
            {t('critical')}
          </span>
        )}
        {/* The host's or provider's text, in its own direction: a Portuguese sentence keeps
            its punctuation inside an Arabic widget. */}
        <span
          className="sino-item__content"
          dir="auto"
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </div>
      <time
        className="sino-item__time"
        dateTime={notification.createdAt}
        title={formatDate(notification.createdAt)}
      >
        {relativeTime(notification.createdAt, now)}
      </time>
      {note && (
        <p id={`${contentId}-note`} className="sino-item__note">
          {note}
        </p>
      )}
      {!notification.seen && <span className="sino-item__dot" aria-hidden="true" />}
      {done && actionsResultBlock
        ? actionsResultBlock(notification)
        : onAction && (
            <ActionButtons
              notification={notification}
              onAction={(type) => onAction(notification, type)}
            />
          )}
      {menuEntries && menuEntries.length > 0 && <ItemMenu entries={menuEntries} />}
    </article>
  );
}

const noop = () => {};

function SlotItem({
  notification,
  position,
  setSize,
  onClick,
  onKeyDown,
  menuEntries,
  onAction,
  actions,
  listItem,
}: NotificationItemProps & { listItem: ListItemSlot }) {
  const { t } = useTranslations();
  const unread = isUnread(notification);
  const text = useMemo(() => contentText(notification.content), [notification.content]);
  const click = () => onClick(notification);
  return (
    <article
      className="sino-item-slot"
      tabIndex={0}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-label={[unread && t('unread'), isCritical(notification) && t('critical'), text]
        .filter(Boolean)
        .join(': ')}
      data-notification-id={notification._id}
      onClick={(event) => {
        if (!fromControl(event)) click();
      }}
      onKeyDown={(event) => {
        if (activatesItem(event)) {
          event.preventDefault();
          click();
        }
        onKeyDown(event);
      }}
    >
      {listItem({
        notification,
        unread,
        onClick: click,
        onAction: (type) => void onAction?.(notification, type),
        markAsRead: actions?.markAsRead ?? noop,
        markAsUnread: actions?.markAsUnread ?? noop,
        remove: actions?.remove ?? noop,
        archive: actions?.archive,
        snooze: actions?.snooze,
        menu: menuEntries && menuEntries.length > 0 ? <ItemMenu entries={menuEntries} /> : null,
        allowedNotificationActions: menuEntries !== undefined,
      })}
    </article>
  );
}
