/** Light or dark: follows the system unless the user picked one. */
export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const darkQuery = '(prefers-color-scheme: dark)';

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/**
 * Applies the theme to <html data-theme> and keeps following the system while the preference
 * is 'system'. Returns a function that stops following.
 */
export function applyTheme(preference: ThemePreference, root: HTMLElement = document.documentElement): () => void {
  const media = window.matchMedia?.(darkQuery);
  const update = () => {
    root.dataset.theme = resolveTheme(preference, media?.matches ?? false);
  };
  update();
  if (preference !== 'system' || !media) return () => {};
  media.addEventListener('change', update);
  return () => media.removeEventListener('change', update);
}
