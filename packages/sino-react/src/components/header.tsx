import type { Ref } from 'react';
import { HEADER_HEIGHT_PX } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { badgeText } from './bell.js';
import { CogIcon } from './icons.js';
import { ItemMenu, type ItemMenuEntry } from './item-menu.js';

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
 * menu (the item menu's menu button, with its own name) and the cog.
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
  return (
    <header className="sino-header" style={{ height: HEADER_HEIGHT_PX }}>
      <h2 className="sino-header__title" id={titleId}>
        {t('notifications')}
      </h2>
      {!hasTabs && unseenCount > 0 && (
        <span className="sino-header__badge" aria-hidden="true" data-testid="sino-header-badge">
          {badgeText(unseenCount, lang)}
        </span>
      )}
      <button
        type="button"
        className="sino-header__mark-all"
        disabled={!hasUnread}
        onClick={onMarkAllAsRead}
      >
        {t('markAllAsRead')}
      </button>
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
