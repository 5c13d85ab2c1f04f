import type { CSSProperties, ReactNode } from 'react';
import { useStyles } from '../context.js';
import { useTranslations } from '../hooks.js';

/**
 * The widget's root element: the theme class (`sino--light` / `sino--dark`), the host's CSS
 * variable overrides, and the active language with its direction.
 */
export function SinoRoot({ className, children }: { className?: string; children: ReactNode }) {
  const { colorScheme, variables } = useStyles();
  const { lang, dir } = useTranslations();
  return (
    <div
      className={['sino', `sino--${colorScheme}`, className].filter(Boolean).join(' ')}
      style={variables as CSSProperties}
      lang={lang}
      dir={dir}
    >
      {children}
    </div>
  );
}
