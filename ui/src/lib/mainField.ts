/** Ctrl/Cmd+K, on every screen: to the current form's main field (ui guide, "Behaviour"). */

/** True when `event` is Ctrl/Cmd+K; the browser's own use of the keys is then stopped. */
export function isMainFieldKey(event: KeyboardEvent): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'k') return false;
  event.preventDefault();
  return true;
}

/** Focuses the main field and selects its text, so typing replaces the last query. */
export function focusAndSelect(field: HTMLInputElement | HTMLTextAreaElement | null | undefined): void {
  field?.focus();
  field?.select();
}
