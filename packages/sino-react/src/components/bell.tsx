import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { UNSEEN_BADGE_MAX } from '@sino/js';
import { useTranslations, useUnseenCount } from '../hooks.js';
import { BellIcon } from './icons.js';

/** '99+' above 99, the count written in the active language otherwise. */
export function badgeText(count: number, lang: string): string {
  const format = new Intl.NumberFormat(lang);
  return count > UNSEEN_BADGE_MAX ? `${format.format(UNSEEN_BADGE_MAX)}+` : format.format(count);
}

export interface BellProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** Unseen count to show; the inbox's by default. */
  unseenCount?: number;
}

/**
 * The bell: a button whose accessible name says the unseen count in the active language; the
 * visible badge (only above 0) is hidden from screen readers, which hear the name instead.
 */
export const Bell = forwardRef<HTMLButtonElement, BellProps>(function Bell(
  { unseenCount, className, ...button },
  ref,
) {
  const inboxCount = useUnseenCount();
  const count = unseenCount ?? inboxCount;
  const { lang, t, plural } = useTranslations();
  return (
    <button
      ref={ref}
      type="button"
      className={['sino-bell', className].filter(Boolean).join(' ')}
      aria-label={count > 0 ? plural('bellUnseen', count) : t('notifications')}
      {...button}
    >
      <BellIcon />
      {count > 0 && (
        <span className="sino-bell__badge" aria-hidden="true" data-testid="sino-bell-badge">
          {badgeText(count, lang)}
        </span>
      )}
    </button>
  );
});
