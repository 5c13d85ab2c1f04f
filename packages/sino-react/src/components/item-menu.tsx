import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { MENU_CLOSE_DELAY_MS, isUnread, type Message } from '@sino/js';
import { useTranslations } from '../hooks.js';
import type { TranslationKey } from '../i18n/index.js';

export interface ItemMenuEntry {
  label: string;
  onSelect: () => void;
}

/** What the item menu can do to one notification (one handler per entry). */
export interface ItemMenuActions {
  markAsRead: () => void;
  markAsUnread: () => void;
  remove: () => void;
}

/**
 * The entries of an item's menu, in order: "Mark as read" or "Mark as unread" (whichever
 * applies), then "Remove message". A new entry is one more line here and one more handler in
 * `ItemMenuActions`.
 */
export function itemMenuEntries(
  notification: Message,
  actions: ItemMenuActions,
  t: (key: TranslationKey) => string,
): ItemMenuEntry[] {
  return [
    isUnread(notification)
      ? { label: t('markAsRead'), onSelect: actions.markAsRead }
      : { label: t('markAsUnRead'), onSelect: actions.markAsUnread },
    { label: t('removeMessage'), onSelect: actions.remove },
  ];
}

/**
 * An item's three-dot menu, WAI-ARIA menu button pattern: the button opens a `role="menu"`
 * with focus on its first entry; Arrow Up/Down, Home and End move, Enter or Space picks,
 * Escape closes and gives focus back to the button, Tab closes. Clicks stay inside (they are
 * not the item's own click).
 */
export function ItemMenu({ entries }: { entries: ItemMenuEntry[] }) {
  const { t } = useTranslations();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const closing = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(closing.current), []);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
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
      className="sino-item-menu"
      onClick={(event) => event.stopPropagation()}
      // Leaving the menu with the pointer closes it after a short grace period.
      onMouseLeave={() => {
        if (open) closing.current = window.setTimeout(() => setOpen(false), MENU_CLOSE_DELAY_MS);
      }}
      onMouseEnter={() => window.clearTimeout(closing.current)}
    >
      <button
        ref={button}
        type="button"
        className="sino-item-menu__button"
        aria-label={t('itemMenuLabel')}
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
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={t('itemMenuLabel')}
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
