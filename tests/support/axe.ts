import { browser } from '@wdio/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected into the page as is. */
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One violation, in few words: the rule and the elements it found. */
export interface Violation {
  id: string;
  help: string;
  targets: string[];
}

/**
 * Runs the axe-core audit (WCAG 2 A and AA rules) on the page as it stands, in the current theme,
 * and returns its violations: an empty list is a pass. With `within` (a CSS selector), only that
 * part of the page is audited.
 */
export async function axeViolations(within?: string): Promise<Violation[]> {
  await browser.execute(axeSource);
  return browser.executeAsync((selector: string | null, done: (violations: Violation[]) => void) => {
    const axe = (window as unknown as { axe: { run: (context: Document | string, options: object) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    void axe
      .run(selector ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then((result) =>
        done(result.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }))),
      );
  }, within ?? null);
}
