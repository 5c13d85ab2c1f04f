import { useSinoContext } from '../context.js';
import { useTranslations } from '../hooks.js';

/** The provider's name, as the footer says it. */
export const PROVIDER_NAME = 'Sino';

/**
 * "Powered by" and the name: a space between them, except after a label that already ends
 * in a joiner (Zulu's "ngu-", a full-width colon in Chinese).
 */
export function poweredByText(label: string, name: string = PROVIDER_NAME): string {
  return /[-：]$/.test(label) ? `${label}${name}` : `${label} ${name}`;
}

export interface FooterProps {
  /**
   * Where "Powered by Sino" leads; by default the Sino the widget talks to (the provider's
   * `backendUrl`, Sino being self-hosted).
   */
  url?: string;
}

/**
 * The 'powered by' footer: one link naming Sino, opening in a new tab without giving the new
 * page a handle on this one (`noopener noreferrer`); screen readers hear that it opens a tab.
 */
export function Footer({ url }: FooterProps) {
  const { backendUrl } = useSinoContext();
  const { t } = useTranslations();
  return (
    <div className="sino-footer">
      <a
        className="sino-footer__link"
        href={url ?? backendUrl}
        target="_blank"
        rel="noopener noreferrer"
      >
        {/* The space before the hint belongs to the visible text: accessible-name
            algorithms that trim each node keep it there. */}
        {`${poweredByText(t('poweredBy'))} `}
        <span className="sino-visually-hidden">{t('opensInNewTab')}</span>
      </a>
    </div>
  );
}
