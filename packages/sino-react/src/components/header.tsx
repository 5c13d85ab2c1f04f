import { useLayoutEffect, useRef, useState, type Ref, type RefObject } from 'react';
import { HEADER_HEIGHT_PX } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { badgeText } from './bell.js';
import { CheckAllIcon, CogIcon } from './icons.js';
import { ItemMenu, type ItemMenuEntry } from './item-menu.js';

/** "Mark all as read"'s inline padding with its words shown (styles.css). */
const MARK_ALL_PADDING_PX = 4;

/**
 * Whether "mark all as read" fits in words in the room the header's line leaves it (`room`,
 * an element as wide as that room whatever it holds); otherwise (a phone, a long translation)
 * it shows an icon, its words kept as its name and tooltip. The words' width is read even
 * while they are hidden (their scroll width), so the answer does not depend on which is shown.
 */
function useWordsFit(
  room: RefObject<HTMLElement | null>,
  words: RefObject<HTMLElement | null>,
): boolean {
  const [fit, setFit] = useState(true);
  useLayoutEffect(() => {
    const box = room.current;
    const label = words.current;
    if (!box || !label || typeof ResizeObserver === 'undefined') return;
    // The room changes with the header's width, the badge and the title (a language arriving).
    const observer = new ResizeObserver(() =>
      setFit(label.scrollWidth + MARK_ALL_PADDING_PX <= box.clientWidth),
    );
    observer.observe(box);
    return () => observer.disconnect();
  }, [room, words]);
  return fit;
}

export interface HeaderProps {
  unseenCount: number;
  /** With tabs the counts live on the tabs: no badge in the header. */
  hasTabs: boolean;
  /** Nothing listed is unread: 'mark all as read' is disabled. */
  hasUnread: boolean;
  onMarkAllAsRead: () => void;
  showUserPreferences: boolean;
  onSettingsClick: () => void;
  settingsRef?: Ref<HTMLButtonElement>;
  titleId: string;
  /**
   * The "More actions" menu's entries ("Archive read", "Archived", "Snoozed"); no menu button
   * when empty or absent.
   */
  moreActions?: ItemMenuEntry[];
  /** The "More actions" button: focus comes back to it from the views it opens. */
  moreActionsRef?: Ref<HTMLButtonElement>;
}

/**
 * Title, unseen badge (only without tabs, only above 0), mark all as read, the "More actions"
 * menu (the item menu's menu button, with its own name) and the cog, on one line at any width:
 * "mark all as read" becomes an icon when its words do not fit.
 */
export function Header({
  unseenCount,
  hasTabs,
  hasUnread,
  onMarkAllAsRead,
  showUserPreferences,
  onSettingsClick,
  settingsRef,
  titleId,
  moreActions = [],
  moreActionsRef,
}: HeaderProps) {
  const { lang, t } = useTranslations();
  const room = useRef<HTMLSpanElement>(null);
  const words = useRef<HTMLSpanElement>(null);
  const compact = !useWordsFit(room, words);
  return (
    <header
      className={['sino-header', compact && 'sino-header--compact'].filter(Boolean).join(' ')}
      style={{ height: HEADER_HEIGHT_PX }}
    >
      <h2 className="sino-header__title" id={titleId}>
        {t('notifications')}
      </h2>
      {!hasTabs && unseenCount > 0 && (
        <span className="sino-header__badge" aria-hidden="true" data-testid="sino-header-badge">
          {badgeText(unseenCount, lang)}
        </span>
      )}
      <span ref={room} className="sino-header__room">
        <button
          type="button"
          className="sino-header__mark-all"
          disabled={!hasUnread}
          title={compact ? t('markAllAsRead') : undefined}
          onClick={onMarkAllAsRead}
        >
          {compact && <CheckAllIcon />}
          {/* Hidden when the icon shows: the button's name still. */}
          <span ref={words} className={compact ? 'sino-visually-hidden' : undefined}>
            {t('markAllAsRead')}
          </span>
        </button>
      </span>
      {moreActions.length > 0 && (
        <ItemMenu
          entries={moreActions}
          label={t('moreActions')}
          className="sino-header__more"
          buttonRef={moreActionsRef}
        />
      )}
      {showUserPreferences && (
        <button
          ref={settingsRef}
          type="button"
          className="sino-header__settings"
          aria-label={t('settings')}
          onClick={onSettingsClick}
        >
          <CogIcon />
        </button>
      )}
    </header>
  );
}
