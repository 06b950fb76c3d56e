import { browser } from '@wdio/globals';
import { axeViolations } from './axe.ts';
import { screenshot, setTheme } from './screenshots.ts';

/**
 * The accessibility audit of one screen as it stands: in the light theme, then the dark one, a
 * screenshot (`a11y-<name>-<theme>.png`) and the axe-core audit. Fails with every violation
 * named by theme, rule and the elements it found, so the message alone says what to fix.
 * With `within` (a CSS selector), only that part of the page is audited (the screenshot is
 * still the whole window).
 */
export async function auditBothThemes(name: string, within?: string): Promise<void> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(theme);
    await screenshot(`a11y-${name}-${theme}`);
    for (const violation of await axeViolations(within)) {
      found.push(`  ${theme}: ${violation.id} (${violation.help}) at ${violation.targets.join(' | ')}`);
    }
  }
  await setTheme('light');
  if (found.length > 0) {
    throw new Error(`${name}: ${found.length} axe-core violation(s)\n${found.join('\n')}`);
  }
}

/** The element keyboard focus is on, in the few words a failure message needs. */
export interface Focused {
  /** Tag, then id or accessible name: `button "Search"`, `input#x-query`. */
  what: string;
  inMain: boolean;
  /** Whether the focus is drawn: an outline (or a ring made with box-shadow). */
  visible: boolean;
}

export function focused(): Promise<Focused | null> {
  return browser.execute(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      what: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${name ? ` "${name}"` : ''}`,
      inMain: element.closest('main') !== null,
      visible: outline || style.boxShadow !== 'none',
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until focus is on an element `wanted` accepts, at most `limit`
 * times. Returns every stop on the way, so a failure shows where focus went instead.
 */
export async function tabTo(
  wanted: (stop: Focused) => boolean,
  { limit = 60, backwards = false }: { limit?: number; backwards?: boolean } = {},
): Promise<{ reached: Focused | null; path: Focused[] }> {
  const path: Focused[] = [];
  for (let press = 0; press < limit; press++) {
    await browser.keys(backwards ? ['Shift', 'Tab'] : ['Tab']);
    const stop = await focused();
    if (!stop) continue;
    path.push(stop);
    if (wanted(stop)) return { reached: stop, path };
  }
  return { reached: null, path };
}
