import { createContext, useContext } from 'react';
import type { SinoInbox } from '@sino/js';
import type { LoadedTranslations } from './i18n/index.js';

/** The spec's misuse messages (section 5), kept word for word: hosts match on them. */
export const OUTSIDE_PROVIDER_MESSAGE =
  'Component must be wrapped within the NovuProvider before using hooks from @novu/notification-center.';
export const OUTSIDE_STYLES_PROVIDER_MESSAGE = 'useStyles must be used within a StylesProvider.';

export type ColorScheme = 'light' | 'dark';

/** Theme of the styled components: a colour scheme and CSS variable overrides. */
export interface SinoStyles {
  colorScheme?: ColorScheme;
  /** `--sino-…` custom properties set on the widget's root, e.g. `{'--sino-color-primary': '#0a7'}`. */
  variables?: Partial<Record<`--sino-${string}`, string>>;
}

export interface SinoContextValue {
  /** The client of the current mount; null until the provider's effect has created it. */
  inbox: SinoInbox | null;
  translations: LoadedTranslations;
  /** The provider's `backendUrl` (the footer's default link). */
  backendUrl: string;
  /** Origins pictures may load from besides the page's own and `data:` (`isAllowedImage`). */
  allowedImageOrigins: readonly string[];
}

export const SinoContext = createContext<SinoContextValue | null>(null);
export const StylesContext = createContext<Required<SinoStyles> | null>(null);

export function useSinoContext(): SinoContextValue {
  const value = useContext(SinoContext);
  if (!value) throw new Error(OUTSIDE_PROVIDER_MESSAGE);
  return value;
}

/** The active theme (colour scheme and variable overrides). */
export function useStyles(): Required<SinoStyles> {
  const value = useContext(StylesContext);
  if (!value) throw new Error(OUTSIDE_STYLES_PROVIDER_MESSAGE);
  return value;
}
