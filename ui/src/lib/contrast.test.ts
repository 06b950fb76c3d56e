/**
 * WCAG AA contrast of the colour tokens in app.css, in both themes: 4.5:1 for text, 3:1 for
 * focus rings and borders that carry meaning. Every screen draws from these tokens, so a
 * failing pair here would fail everywhere it is used.
 */
import { describe, expect, it } from 'vitest';
// The text of the stylesheet (vite.config.ts lets Vitest process app.css for this).
import css from '../app.css?raw';

function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`app.css has no ${selector} block`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map(([, name, value]) => [name!, value!]));
}

function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const light = tokens(':root');
const themes = { light, dark: { ...light, ...tokens(":root[data-theme='dark']") } };

/** [foreground, background, minimum ratio]: the pairs the screens actually draw. */
const pairs: [string, string, number][] = [
  ...['bg', 'surface', 'surface-2'].flatMap((bg): [string, string, number][] => [
    ['text', bg, 4.5],
    ['text-muted', bg, 4.5],
    ['accent', bg, 4.5],
    ['danger', bg, 4.5],
    ['focus-ring', bg, 3],
  ]),
  ['accent-contrast', 'accent', 4.5],
  ['text', 'accent-soft', 4.5],
  ['accent', 'accent-soft', 4.5],
  ['danger', 'danger-soft', 4.5],
  ['text', 'danger-soft', 4.5],
  ['warning', 'warning-soft', 4.5],
  ['text', 'warning-soft', 4.5],
  ['success', 'success-soft', 4.5],
  // Chart series against the card they are drawn on (graphics: 3:1), and heatmap cells' text.
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((index): [string, string, number] => [`series-${index}`, 'surface', 3]),
  ['text', 'heat-1', 4.5],
  ['text', 'heat-2', 4.5],
  ['accent-contrast', 'heat-3', 4.5],
  ['accent-contrast', 'heat-4', 4.5],
];

describe('colour contrast (WCAG AA)', () => {
  it('computes the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  for (const [theme, palette] of Object.entries(themes)) {
    it(`holds for every text and focus pair in the ${theme} theme`, () => {
      const failing = pairs
        .map(([fg, bg, minimum]) => ({ pair: `${fg} on ${bg}`, ratio: contrast(palette[fg]!, palette[bg]!), minimum }))
        .filter(({ ratio, minimum }) => !(ratio >= minimum))
        .map(({ pair, ratio, minimum }) => `${pair}: ${ratio.toFixed(2)} < ${minimum}`);
      expect(failing).toEqual([]);
    });
  }
});
