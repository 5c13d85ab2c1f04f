import { EMPTY_STATE_MIN_HEIGHT_PX, LOADER_MIN_HEIGHT_PX } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { EmptyIllustration } from './icons.js';

/** A centred spinner, at least 300 px high (or `minHeight`), announced as "loading". */
export function Loader({ minHeight = LOADER_MIN_HEIGHT_PX }: { minHeight?: number }) {
  const { t } = useTranslations();
  return (
    <div className="sino-loader" role="status" style={{ minHeight }}>
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

export interface ErrorStateProps {
  /** What failed, in the active language (a translation). */
  message: string;
  /** "Try again". */
  onRetry: () => void;
  minHeight?: number;
  /** A line inside a list that is still shown (a later page failed), not the whole view. */
  inline?: boolean;
}

/**
 * A load that failed after the client's retries: the message (`role="alert"`, so it is
 * announced) and a "Try again" button.
 */
export function ErrorState({ message, onRetry, minHeight, inline = false }: ErrorStateProps) {
  const { t } = useTranslations();
  return (
    <div
      className={['sino-error', inline && 'sino-error--inline'].filter(Boolean).join(' ')}
      style={minHeight === undefined ? undefined : { minHeight }}
    >
      <p className="sino-error__text" role="alert">
        {message}
      </p>
      <button type="button" className="sino-error__retry" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}
