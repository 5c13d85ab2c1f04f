import type { CSSProperties, ReactNode } from 'react';
import { brandingVariables } from '../branding.js';
import { useStyles } from '../context.js';
import { useSession, useTranslations } from '../hooks.js';

/**
 * The widget's root element: the theme class (`sino--light` / `sino--dark`), the organisation's
 * branding under the host's CSS variable overrides, and the active language with its direction
 * (the language's: Sino's branding route sets no direction).
 */
export function SinoRoot({ className, children }: { className?: string; children: ReactNode }) {
  const { colorScheme, variables } = useStyles();
  const { lang, dir } = useTranslations();
  const branding = useSession().organization?.branding;
  const style = { ...brandingVariables(branding, colorScheme), ...variables };
  return (
    <div
      className={['sino', `sino--${colorScheme}`, className].filter(Boolean).join(' ')}
      style={style as CSSProperties}
      lang={lang}
      dir={dir}
    >
      {children}
    </div>
  );
}
