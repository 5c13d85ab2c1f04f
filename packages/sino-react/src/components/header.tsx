import type { Ref } from 'react';
import { HEADER_HEIGHT_PX } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { badgeText } from './bell.js';
import { CogIcon } from './icons.js';

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
}

/** Title, unseen badge (only without tabs, only above 0), mark all as read and the cog. */
export function Header({
  unseenCount,
  hasTabs,
  hasUnread,
  onMarkAllAsRead,
  showUserPreferences,
  onSettingsClick,
  settingsRef,
  titleId,
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
