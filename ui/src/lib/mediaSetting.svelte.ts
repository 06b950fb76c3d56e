/**
 * Whether kept media show in safe view (greyscale, blurred, revealed one by one; videos muted),
 * read once from the settings. On until the settings say otherwise, and on when they cannot be
 * read: showing less is the safe mistake.
 */
import { getContext, setContext } from 'svelte';
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

const FULL_VIEW = Symbol('media-full-view');

/**
 * An investigation's page shows its media in full when its switch says so: the page provides
 * the switch's value to the cards inside it (call during the page's initialisation).
 */
export function provideFullView(full: () => boolean): void {
  setContext(FULL_VIEW, full);
}

/**
 * Whether cards here show media in safe view: the setting, unless an investigation page around
 * them is switched to full view. Call during a component's initialisation; read the result's
 * `safe` reactively.
 */
export function safeViewHere(): { readonly safe: boolean } {
  const full = getContext<(() => boolean) | undefined>(FULL_VIEW);
  return {
    get safe() {
      return mediaView.safe && !(full?.() ?? false);
    },
  };
}
