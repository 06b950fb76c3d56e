/**
 * Chart colours from app.css's tokens (canvas and exported SVG cannot use CSS variables, so
 * they are read as values), re-read when the theme changes.
 */

export interface ChartColors {
  text: string;
  muted: string;
  border: string;
  surface: string;
  accent: string;
  /** One colour per series, in order; more series than colours reuse them. */
  series: string[];
  /** A heatmap's levels 1–4 (level 0 is the surface). */
  heat: string[];
  /** Text on levels 1–2, and on 3–4. */
  heatText: [string, string];
}

export const SERIES_COLOURS = 8;

export function chartColors(root: HTMLElement = document.documentElement): ChartColors {
  const style = getComputedStyle(root);
  const token = (name: string) => style.getPropertyValue(`--${name}`).trim();
  return {
    text: token('text'),
    muted: token('text-muted'),
    border: token('border'),
    surface: token('surface'),
    accent: token('accent'),
    series: Array.from({ length: SERIES_COLOURS }, (_, index) => token(`series-${index}`)),
    heat: [1, 2, 3, 4].map((level) => token(`heat-${level}`)),
    heatText: [token('text'), token('accent-contrast')],
  };
}

/** Calls `changed` whenever <html data-theme> changes; returns how to stop. */
export function onThemeChange(changed: () => void, root: HTMLElement = document.documentElement): () => void {
  const observer = new MutationObserver(changed);
  observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}
