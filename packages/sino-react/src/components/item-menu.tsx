import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { MENU_CLOSE_DELAY_MS, isUnread, type Message } from '@sino/js';
import { useTranslations } from '../hooks.js';
import type { TranslationKey } from '../i18n/index.js';
import { keepInView } from './floating.js';

/** Space between the menu button and its menu. */
const MENU_GAP_PX = 4;

export interface ItemMenuEntry {
  label: string;
  onSelect: () => void;
}

/** What the item menu can do to one notification (one handler per entry). */
export interface ItemMenuActions {
  markAsRead: () => void;
  markAsUnread: () => void;
  remove: () => void;
  /** Archive (Sino only); no "Archive" entry without it (`allowArchive` off). */
  archive?: () => void;
  /** Snooze until a time (Sino only); no snooze entries without it (`allowSnooze` off). */
  snooze?: (until: Date) => void;
}

/** "Snooze until tomorrow" brings the message back at this hour, the user's local time. */
export const SNOOZE_TOMORROW_HOUR = 9;

/**
 * The item menu's snooze times from `now`: one hour later, and tomorrow at 09:00 in the local
 * time zone (calendar arithmetic, so a daylight-saving change in between keeps 09:00).
 */
export function snoozeTimes(now: Date = new Date()): { oneHour: Date; tomorrow: Date } {
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(SNOOZE_TOMORROW_HOUR, 0, 0, 0);
  return { oneHour: new Date(now.getTime() + 3600 * 1000), tomorrow };
}

/**
 * The entries of an item's menu, in order: "Mark as read" or "Mark as unread" (whichever
 * applies), "Archive", "Snooze for 1 hour", "Snooze until tomorrow" (the last three when their
 * action is given), then "Remove message". A new entry is one more line here and one more
 * handler in `ItemMenuActions`. Snooze times are taken when the entry is picked.
 */
export function itemMenuEntries(
  notification: Message,
  actions: ItemMenuActions,
  t: (key: TranslationKey) => string,
): ItemMenuEntry[] {
  const { archive, snooze } = actions;
  return [
    isUnread(notification)
      ? { label: t('markAsRead'), onSelect: actions.markAsRead }
      : { label: t('markAsUnRead'), onSelect: actions.markAsUnread },
    ...(archive ? [{ label: t('archive'), onSelect: archive }] : []),
    ...(snooze
      ? [
          { label: t('snoozeOneHour'), onSelect: () => snooze(snoozeTimes().oneHour) },
          { label: t('snoozeUntilTomorrow'), onSelect: () => snooze(snoozeTimes().tomorrow) },
        ]
      : []),
    { label: t('removeMessage'), onSelect: actions.remove },
  ];
}

export interface ItemMenuProps {
  entries: ItemMenuEntry[];
  /** The button's and the menu's accessible name; the item menu's ("Notification actions") by default. */
  label?: string;
  /** More classes on the menu's box (`sino-item-menu` stays). */
  className?: string;
  /** The button's content; three dots by default. */
  icon?: ReactNode;
  /** The menu button, for focus to come back to. */
  buttonRef?: Ref<HTMLButtonElement>;
}

/**
 * An item's three-dot menu (and the header's "More actions", with its own label and class),
 * WAI-ARIA menu button pattern: the button opens a `role="menu"`
 * with focus on its first entry; Arrow Up/Down, Home and End move, Enter or Space picks,
 * Escape closes and gives focus back to the button, Tab closes. Clicks stay inside (they are
 * not the item's own click). The menu floats under the button (above it when there is no
 * room), inside the list it scrolls in (the panel for the header's) and the viewport: never
 * cut by the list's edge.
 */
export function ItemMenu({ entries, label, className, icon, buttonRef }: ItemMenuProps) {
  const { t } = useTranslations();
  const name = label ?? t('itemMenuLabel');
  const [open, setOpen] = useState(false);
  // The button's own ref is the host's (buttonRef): focus finds it through the menu's box.
  const box = useRef<HTMLDivElement>(null);
  const button = () =>
    box.current?.querySelector<HTMLButtonElement>(':scope > .sino-item-menu__button');
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const closing = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(closing.current), []);

  useLayoutEffect(() => {
    const trigger = button();
    if (!open || !trigger || !menu.current) return;
    return keepInView(trigger, menu.current, {
      placement: 'bottom-end',
      gap: MENU_GAP_PX,
      boundary: trigger.closest('.sino-list, .sino-center'),
    });
  }, [open]);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button()?.focus();
  };
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    // Tab goes on to the dialog's focus trap; the menu's own keys stop here (Escape closes
    // the menu, not the dialog).
    if (event.key !== 'Tab') event.stopPropagation();
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') close(false);
  };
  const select = (entry: ItemMenuEntry) => {
    close(true);
    entry.onSelect();
  };

  return (
    <div
      ref={box}
      className={['sino-item-menu', className].filter(Boolean).join(' ')}
      onClick={(event) => event.stopPropagation()}
      // Leaving the menu with the pointer closes it after a short grace period.
      onMouseLeave={() => {
        if (open) closing.current = window.setTimeout(() => setOpen(false), MENU_CLOSE_DELAY_MS);
      }}
      onMouseEnter={() => window.clearTimeout(closing.current)}
    >
      <button
        ref={buttonRef}
        type="button"
        className="sino-item-menu__button"
        aria-label={name}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {icon ?? <span aria-hidden="true">⋯</span>}
      </button>
      {open && (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={name}
          className="sino-item-menu__list"
          onKeyDown={onMenuKeyDown}
        >
          {entries.map((entry) => (
            <li
              key={entry.label}
              role="menuitem"
              tabIndex={-1}
              className="sino-item-menu__entry"
              onClick={() => select(entry)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  select(entry);
                }
              }}
            >
              {entry.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
