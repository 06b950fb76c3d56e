/**
 * Web links open in the system browser, never inside the app window. One listener catches every
 * click on an http(s) link, wherever it was rendered (post cards, answers, crawled pages), and
 * hands the address to Rust, which refuses any other scheme.
 */
import { openLink } from './ipc';

/** The link a click landed in, if any. */
function anchorOf(target: EventTarget | null): HTMLAnchorElement | null {
  const anchor = target instanceof Element ? target.closest('a[href]') : null;
  return anchor instanceof HTMLAnchorElement ? anchor : null;
}

/** The http(s) address a click landed on, or null when it was not on such a link. */
export function webLinkOf(target: EventTarget | null): string | null {
  const anchor = anchorOf(target);
  // The written address, not the resolved one: `#/x` resolves against the app's own origin.
  return anchor && /^\s*https?:\/\//i.test(anchor.getAttribute('href') ?? '') ? anchor.href : null;
}

/**
 * Sends clicks on web links to the system browser and lets in-app `#` links through; any other
 * link (`javascript:`, `file:`…) does nothing. Returns the remover.
 */
export function routeWebLinksToBrowser(root: Document, open: (url: string) => unknown = openLink): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button > 1) return;
    const anchor = anchorOf(event.target);
    // No link, or one the app's router handles (`#/x?q=…`).
    if (!anchor || anchor.getAttribute('href')?.startsWith('#')) return;
    event.preventDefault();
    const url = webLinkOf(anchor);
    if (url) void Promise.resolve(open(url)).catch((error: unknown) => console.warn('Sightline: the link could not be opened', error));
  };
  root.addEventListener('click', onClick);
  root.addEventListener('auxclick', onClick);
  return () => {
    root.removeEventListener('click', onClick);
    root.removeEventListener('auxclick', onClick);
  };
}
