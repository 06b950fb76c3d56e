/**
 * Whether kept media show in safe view (greyscale, blurred, revealed one by one; videos muted),
 * read once from the settings. On until the settings say otherwise, and on when they cannot be
 * read: showing less is the safe mistake.
 */
import { settingsGet } from './ipc';

export const mediaView = $state({ safe: true });

let loading: Promise<void> | null = null;

/** Reads the setting (once per app run unless `force`, as after Settings saves it). */
export function loadMediaViewSetting(force = false): Promise<void> {
  if (!loading || force) {
    loading = settingsGet()
      .then((settings) => {
        mediaView.safe = settings?.mediaSafeView !== false;
      })
      .catch(() => {
        mediaView.safe = true;
      });
  }
  return loading;
}
