/**
 * Imported before uPlot, which formats numbers with `navigator.language` as it loads. WebKitGTK
 * reports a POSIX locale such as `C` (LANG=C.UTF-8) there, which is no language tag, and uPlot
 * would then throw before drawing anything. Where the webview's own tag is unusable, English
 * stands in (the axes show plain counts).
 */
try {
  new Intl.NumberFormat(navigator.language);
} catch {
  Object.defineProperty(navigator, 'language', { value: 'en-US', configurable: true });
}

export {};
