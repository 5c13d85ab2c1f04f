import { useSyncExternalStore } from 'react';

// Light or dark: the person's choice when they made one (kept on this browser), else the
// system's (prefers-color-scheme, which the stylesheet follows by itself).
export type Theme = 'light' | 'dark';
const KEY = 'sino-console-theme';

export function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

export function systemTheme(): Theme {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme | null): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  try {
    if (theme) localStorage.setItem(KEY, theme);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode): the choice lasts this page only.
  }
}

/** The theme the page shows now: the chosen one (`data-theme`), else the system's. */
function shownTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  return chosen === 'light' || chosen === 'dark' ? chosen : systemTheme();
}

function subscribeToTheme(changed: () => void): () => void {
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributeFilter: ['data-theme'] });
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', changed);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', changed);
  };
}

/** The theme the page shows, kept current: for what draws its own colours (the inbox). */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribeToTheme, shownTheme);
}
