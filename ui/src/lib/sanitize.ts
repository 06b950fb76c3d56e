/**
 * The one place untrusted markup becomes HTML: AI answers (Markdown) and crawled pages (HTML).
 * Everything else in the app is rendered as text. The rules are an allow-list, deliberately
 * strict: plain document structure and links only. No scripts, styles, forms, frames, SVG/MathML,
 * media or images (an image would load from a third party and tell it what is being read), no
 * `id`/`class`/`style`/`data-*` attributes (they could pose as the app's own elements), and links
 * only to absolute http(s) addresses, which the app opens in the system browser.
 *
 * A link whose address is not allowed becomes plain text (it would look like a link and do
 * nothing). Where the reader wrote the text (the notebook: `{ showRemoved: true }`), such a
 * link shows the address it had, and each element taken out with its content (an image, a
 * script, an embedded page) leaves a short note in its place, so nothing vanishes unexplained.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const ALLOWED_TAGS = [
  'a', 'abbr', 'article', 'aside', 'b', 'blockquote', 'br', 'caption', 'cite', 'code', 'dd', 'del', 'details',
  'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr',
  'i', 'ins', 'kbd', 'li', 'main', 'mark', 'nav', 'ol', 'p', 'pre', 'q', 's', 'samp', 'section', 'small', 'span',
  'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul',
];
const ALLOWED_ATTR = ['href', 'title', 'lang', 'dir', 'colspan', 'rowspan', 'start', 'reversed', 'datetime'];
/** Elements dropped with everything inside them (their text is not reading matter). */
const DROP_WITH_CONTENT = ['script', 'style', 'template', 'noscript', 'title', 'head', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'svg', 'math', 'select', 'textarea', 'button', 'canvas', 'audio', 'video', 'xmp', 'plaintext'];

const purifier = DOMPurify(window);

/** A link's target, absolute and http(s), or null. Relative links resolve against `base`. */
function webHref(raw: string | null, base: string | undefined): string | null {
  if (raw === null) return null;
  try {
    const url = base ? new URL(raw.trim(), base) : new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** What a note says was taken out, by element. Elements not here either keep their content
 * (their text stays) or had nothing to show (`<meta>`, `<head>`). */
const REMOVED_NOUNS: Record<string, string> = {
  img: 'image', picture: 'image', svg: 'drawing', canvas: 'drawing', math: 'formula', video: 'video',
  audio: 'sound', iframe: 'embedded page', frame: 'embedded page', frameset: 'embedded page',
  object: 'embedded content', embed: 'embedded content', script: 'script', style: 'style sheet',
  input: 'form field', select: 'form field', textarea: 'form field', button: 'button',
};

/** Marks the sanitiser leaves for the second pass (data-* attributes are stripped from the
 * input before these are set, so they can only be the sanitiser's own). */
const DEFUSED = 'data-sightline-defused';
const REMOVED = 'data-sightline-removed';

let currentBase: string | undefined;
let showingRemoved = false;
/** Each link's address as written, before the allow-list may drop it (a `javascript:` one). */
let writtenHrefs = new WeakMap<Element, string>();

purifier.addHook('beforeSanitizeAttributes', (node) => {
  const href = node.tagName === 'A' ? node.getAttribute('href') : null;
  if (href !== null) writtenHrefs.set(node, href);
});

// Links keep an http(s) href or lose it (their text stays); they never open a window of the app
// and never pass on where they came from.
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = webHref(node.getAttribute('href'), currentBase);
  if (href === null) {
    node.removeAttribute('href');
    node.setAttribute(DEFUSED, writtenHrefs.get(node) ?? '');
    return;
  }
  node.setAttribute('href', href);
  node.setAttribute('rel', 'noopener noreferrer');
});

// An element taken out leaves a mark before it; the walk has passed that place, so the mark is
// kept as it is.
purifier.addHook('uponSanitizeElement', (node, data) => {
  const noun = REMOVED_NOUNS[data.tagName];
  if (!showingRemoved || !noun || ALLOWED_TAGS.includes(data.tagName) || !node.parentNode) return;
  const mark = node.ownerDocument!.createElement('span');
  mark.setAttribute(REMOVED, noun);
  node.parentNode.insertBefore(mark, node);
});

/** The second pass: defused links as plain text, marks as notes. */
function finish(fragment: DocumentFragment): string {
  for (const link of fragment.querySelectorAll(`a[${DEFUSED}]`)) {
    const written = link.getAttribute(DEFUSED)?.trim() ?? '';
    const text = link.ownerDocument.createElement('span');
    text.className = 'defused-link';
    text.append(...link.childNodes);
    if (showingRemoved && written) {
      const address = link.ownerDocument.createElement('span');
      address.className = 'removed-note';
      address.textContent = ` (link not opened: ${written})`;
      text.append(address);
    }
    link.replaceWith(text);
  }
  for (const mark of fragment.querySelectorAll(`span[${REMOVED}]`)) {
    const note = mark.ownerDocument.createElement('span');
    note.className = 'removed-note';
    note.textContent = `[${mark.getAttribute(REMOVED)} removed]`;
    note.title = 'Sightline shows no images, scripts, styles, embedded pages or form fields from text.';
    mark.replaceWith(note);
  }
  const holder = fragment.ownerDocument.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

/**
 * Untrusted HTML made inert. `baseUrl` is the page's own address, for its relative links;
 * `showRemoved` leaves a note where an element was taken out and shows a defused link's address.
 */
export function sanitizeHtml(html: string, baseUrl?: string, options: { showRemoved?: boolean } = {}): string {
  currentBase = baseUrl;
  showingRemoved = options.showRemoved ?? false;
  try {
    const fragment = purifier.sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      ALLOW_UNKNOWN_PROTOCOLS: false,
      // http(s), or relative (resolved and checked again by the hook above); no other scheme.
      ALLOWED_URI_REGEXP: /^(?:https?:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
      FORBID_CONTENTS: DROP_WITH_CONTENT,
      KEEP_CONTENT: true,
      WHOLE_DOCUMENT: false,
      RETURN_DOM_FRAGMENT: true,
    });
    return finish(fragment);
  } finally {
    currentBase = undefined;
    showingRemoved = false;
    writtenHrefs = new WeakMap();
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// GitHub-flavoured Markdown, as the service writes it. An image becomes a link to it: the user
// can open it in the browser, and nothing loads from a third party inside the app.
const markdown = new Marked({ gfm: true, breaks: false });
markdown.use({
  renderer: {
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">Image: ${escapeHtml(text || 'untitled')}</a>`;
    },
  },
});

/** Markdown (the service's, or the user's notebook) as inert HTML, ready for `{@html}`. */
export function renderMarkdown(source: string, options: { showRemoved?: boolean } = {}): string {
  return sanitizeHtml(markdown.parse(source, { async: false }), undefined, options);
}
