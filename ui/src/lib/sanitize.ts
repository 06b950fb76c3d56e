/**
 * The one place untrusted markup becomes HTML: AI answers (Markdown) and crawled pages (HTML).
 * Everything else in the app is rendered as text. The rules are an allow-list, deliberately
 * strict: plain document structure and links only. No scripts, styles, forms, frames, SVG/MathML,
 * media or images (an image would load from a third party and tell it what is being read), no
 * `id`/`class`/`style`/`data-*` attributes (they could pose as the app's own elements), and links
 * only to absolute http(s) addresses, which the app opens in the system browser.
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

let currentBase: string | undefined;

// Links keep an http(s) href or lose it (their text stays); they never open a window of the app
// and never pass on where they came from.
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = webHref(node.getAttribute('href'), currentBase);
  if (href === null) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('href', href);
  node.setAttribute('rel', 'noopener noreferrer');
});

/** Untrusted HTML made inert. `baseUrl` is the page's own address, for its relative links. */
export function sanitizeHtml(html: string, baseUrl?: string): string {
  currentBase = baseUrl;
  try {
    return purifier.sanitize(html, {
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
      RETURN_TRUSTED_TYPE: false,
    });
  } finally {
    currentBase = undefined;
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

/** The service's Markdown as inert HTML, ready for `{@html}`. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.parse(source, { async: false }));
}
