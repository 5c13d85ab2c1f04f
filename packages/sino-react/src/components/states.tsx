import { EMPTY_STATE_MIN_HEIGHT_PX, LOADER_MIN_HEIGHT_PX } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { EmptyIllustration } from './icons.js';

/** A centred spinner, at least 300 px high, announced as "loading". */
export function Loader() {
  const { t } = useTranslations();
  return (
    <div className="sino-loader" role="status" style={{ minHeight: LOADER_MIN_HEIGHT_PX }}>
      <span className="sino-loader__spinner" aria-hidden="true" />
      <span className="sino-visually-hidden">{t('loading')}</span>
    </div>
  );
}

/** The empty feed: an illustration and 'noNewNotification', at least 350 px high. */
export function EmptyState() {
  const { t } = useTranslations();
  return (
    <div className="sino-empty" style={{ minHeight: EMPTY_STATE_MIN_HEIGHT_PX }}>
      <EmptyIllustration />
      <p className="sino-empty__text">{t('noNewNotification')}</p>
    </div>
  );
}
