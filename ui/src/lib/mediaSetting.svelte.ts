/**
 * Whether remote media (avatars, images) may load, read once from the settings. Off until the
 * settings say otherwise: loading third-party images tells those hosts what is being read.
 */
import { settingsGet } from './ipc';

export const remoteMedia = $state({ allowed: false });

let loading: Promise<void> | null = null;

/** Reads the setting (once per app run unless `force`). Errors leave media off. */
export function loadRemoteMediaSetting(force = false): Promise<void> {
  if (!loading || force) {
    loading = settingsGet()
      .then((settings) => {
        remoteMedia.allowed = settings?.loadRemoteMedia === true;
      })
      .catch(() => {
        remoteMedia.allowed = false;
      });
  }
  return loading;
}
