/** Whether the first-run welcome was answered on this computer (it is asked once). */
const storageKey = 'sightline.welcome.dismissed';

export function welcomeDismissed(): boolean {
  try {
    return localStorage.getItem(storageKey) === 'yes';
  } catch {
    return false;
  }
}

export function dismissWelcome(): void {
  try {
    localStorage.setItem(storageKey, 'yes');
  } catch {
    // Private storage off: the welcome shows again next time, which does no harm.
  }
}
