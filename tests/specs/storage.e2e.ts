import { $, $$, browser, expect } from '@wdio/globals';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';

const storage = () => $('section[data-testid="storage"]');

/** "1.2 MB" → bytes (powers of 1,000, as the section writes them). */
function bytes(text: string): number {
  const match = /([\d.,]+)\s*(bytes?|kB|MB|GB)/.exec(text);
  if (!match) throw new Error(`no size in "${text}"`);
  const scale = { byte: 1, bytes: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[match[2] as 'kB'];
  return Number(match[1].replace(/,/g, '')) * scale;
}

/** Half the last shown digit of a size ("1.2 MB" → 50,000 bytes): how far rounding can move it. */
function roundingOf(text: string): number {
  const match = /([\d,]+)(?:\.(\d+))?\s*(bytes?|kB|MB|GB)/.exec(text);
  if (!match) throw new Error(`no size in "${text}"`);
  const scale = { byte: 1, bytes: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[match[3] as 'kB'];
  return (scale * 10 ** -(match[2]?.length ?? 0)) / 2;
}

function partText(part: string) {
  return storage().$(`tr[data-part="${part}"] [data-testid="part-bytes"]`).getText();
}

async function partBytes(part: string): Promise<number> {
  return bytes(await partText(part));
}

/**
 * Settings → Storage in the real app, on the demo archive after a search: the data folder's
 * size by part (measured when the section opens, with when and how long), the parts adding up
 * to the total shown, the disk's free room; Compact run from the keyboard, its outcome in
 * words, and the figures measured again with nothing left free inside the archive. Screenshots
 * and axe on the section in both themes.
 */
describe('Settings: storage', () => {
  before(async () => {
    await enterDemo();
  });

  it('shows the data folder by part and compacts the archive', async () => {
    await openScreen('X', 'X search');
    await $('#x-query').setValue('flood');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });

    await openScreen('Settings');
    await storage().scrollIntoView();
    await storage().$('table.parts').waitForDisplayed({ timeout: 30_000 });
    await expect(storage().$('#storage-measured')).toHaveText(expect.stringMatching(/^Measured .+ in \d+\.\d s\./));
    const names = await storage()
      .$$('tbody tr')
      .map((row) => row.getAttribute('data-part'));
    expect(names).toEqual(['posts', 'responses', 'media', 'indexes', 'free', 'other']);
    const texts = await Promise.all(names.map((name) => partText(name as string)));
    const totalText = await storage().$('[data-testid="storage-total"]').getText();
    // Each figure is rounded for reading: their sum is the total within the rounding shown.
    const sum = texts.map(bytes).reduce((a, b) => a + b, 0);
    const rounding = [...texts, totalText].map(roundingOf).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - bytes(totalText))).toBeLessThanOrEqual(rounding);
    expect(await partBytes('posts')).toBeGreaterThan(0);
    expect(await partBytes('responses')).toBeGreaterThan(0);
    expect(await partBytes('indexes')).toBeGreaterThan(0);
    await expect(storage().$('[data-testid="disk-free"]')).toHaveText(expect.stringMatching(/^Free on this disk: .+ of .+\.$/));
    await auditBothThemes('settings-storage', 'section[data-testid="storage"]');

    // Compact from the keyboard: focus on the button, Enter.
    const compact = await storage().$('button=Compact');
    await compact.scrollIntoView();
    await browser.execute((el) => (el as HTMLElement).focus(), compact);
    await browser.keys(['Enter']);
    const outcome = storage().$('[data-testid="compact-outcome"]');
    await outcome.waitForDisplayed({ timeout: 60_000 });
    await expect(outcome).toHaveText(expect.stringMatching(/^Compacted: the archive went from .+ to .+, .+ given back to the disk\./));
    // Measured again after it: nothing left free inside the archive.
    await browser.waitUntil(async () => (await storage().$('button=Measure again').isExisting()) && (await partBytes('free')) === 0, {
      timeout: 30_000,
      timeoutMsg: 'the figures were not measured again with nothing free',
    });
    await auditBothThemes('settings-storage-compacted', 'section[data-testid="storage"]');
    expect(await $$('[data-testid="disk-low"]').length).toBe(0);
  });
});
