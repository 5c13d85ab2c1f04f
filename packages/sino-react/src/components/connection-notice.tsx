import { useConnectionLost, useTranslations } from '../hooks.js';

/**
 * A discreet status line while the realtime connection is down after having been up
 * ("Connection lost. Reconnecting…"). The polite status region stays in the page, empty while
 * connected, so screen readers hear the line when it appears.
 */
export function ConnectionNotice() {
  const lost = useConnectionLost();
  const { t } = useTranslations();
  return (
    <div
      className={['sino-connection', lost && 'sino-connection--lost'].filter(Boolean).join(' ')}
      role="status"
    >
      {lost ? t('errorConnection') : ''}
    </div>
  );
}
