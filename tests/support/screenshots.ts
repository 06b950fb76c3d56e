import { browser } from '@wdio/globals';
import path from 'node:path';
import { screenshotDir } from './app.ts';

/**
 * Saves a screenshot once the page has painted what the DOM holds: WebKit under Xvfb can hand
 * back the previous frame if asked right after a change.
 */
export async function screenshot(name: string): Promise<void> {
  await browser.executeAsync((done: () => void) => {
    requestAnimationFrame(() => requestAnimationFrame(() => done()));
  });
  await browser.pause(250);
  await browser.saveScreenshot(path.join(screenshotDir, `${name}.png`));
}

/** Shows the page in a theme, as the manual theme override does. */
export async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await browser.execute((value: string) => {
    document.documentElement.dataset.theme = value;
  }, theme);
}

/** One screenshot per theme, named `<name>-light.png` and `<name>-dark.png`. */
export async function screenshotBothThemes(name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(theme);
    await screenshot(`${name}-${theme}`);
  }
}
