/** The one place that applies the user's theme, replacing whichever one was applied before. */
import { applyTheme, type ThemePreference } from './theme';

let stopFollowing: () => void = () => {};

export function setTheme(preference: ThemePreference): void {
  stopFollowing();
  stopFollowing = applyTheme(preference);
}
