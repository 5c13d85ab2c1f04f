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
