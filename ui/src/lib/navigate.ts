/**
 * Screens hand a search to the X screen through the location hash: `#/x?q=<query>`. The hash is
 * the app's only router, so this works from any screen and survives nothing surprising: the X
 * screen reads `q` when it opens or when the hash changes, runs the search, then drops `q`.
 */

/** Opens the X screen and searches for `query` there. */
export function openXSearch(query: string): void {
  window.location.hash = `#/x?q=${encodeURIComponent(query)}`;
}

/** The parameters after `?` in a hash like `#/x?q=a`. */
export function hashParams(hash: string): URLSearchParams {
  const at = hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
}
