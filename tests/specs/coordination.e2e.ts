import { browser, $, $$, expect } from '@wdio/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { repoRoot } from '../support/app.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

/** The accounts the demo world plants as acting in concert, from the file only tests read. */
const truth = JSON.parse(readFileSync(path.join(repoRoot, 'crates/sandbox/tests/fixtures/planted_campaigns.json'), 'utf8')) as {
  groups: { name: string; accounts: string[] }[];
};
const planted = new Set(truth.groups.flatMap((group) => group.accounts));
const sameText = new Set(truth.groups.find((group) => group.name === 'same_text')!.accounts);

const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-coordination-exports-'));

/** Presses an export button and answers the file it wrote, as the status beside it names it. */
async function exported(button: string): Promise<string> {
  const status = $('[data-testid="coordination-export-note"]');
  await $(`button=${button}`).click();
  await expect(status).toHaveText(expect.stringMatching(/^Saved to /), { wait: 15_000 });
  const file = (await status.getText()).replace(/^Saved to /, '');
  expect(path.dirname(file)).toBe(exportFolder);
  return readFileSync(file, 'utf8');
}

/** The handles a group card lists. */
async function members(card: WebdriverIO.Element): Promise<string[]> {
  const text = String(await card.$('.members').getProperty('textContent'));
  return text.split(',').map((handle) => handle.trim().replace(/^@/, ''));
}

/**
 * Coordination in the real app, on the demo world: from an X search for a hashtag the planted
 * accounts push (among organic posts about the same news), the analysis's Coordination view runs
 * with its defaults and shows a planted group; its edges open, and an edge opens the shared posts
 * with their times, at most the window apart. The edges exported as CSV and GEXF are read back.
 * Screenshots and the axe audit in both themes.
 */
describe('coordination in a search', () => {
  it('runs on a search and shows a planted group, with the caution that news also coordinates', async () => {
    await enterDemo();
    await openScreen('Settings');
    await $('#pref-exportFolder').setValue(exportFolder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();
    await openScreen('X', 'X search');
    await $('#x-query').setValue('#PortDeal');
    await $('#x-count').setValue('100');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });

    await $('button[aria-label="Analyse these results"]').click();
    await expect($('h1*=Analysis of X search')).toBeDisplayed();
    await $('#analysis-tab-coordination').click();
    await expect($('[data-testid="coordination-caution"]')).toHaveText(expect.stringContaining('communities also coordinate around news'));
    // The signal weights are shown before anything runs.
    await expect($('#coordination-weight-co_post')).toBeDisplayed();
    await expect($('#coordination-window')).toHaveValue('60');
    // Run from the keyboard: Enter in the form.
    await $('#coordination-window').click();
    await browser.keys(['Enter']);
    await $('[data-testid="coordination-group"]').waitForDisplayed({ timeout: 60_000 });

    const cards = await $$('[data-testid="coordination-group"]');
    let found: WebdriverIO.Element | null = null;
    for (const card of cards) {
      expect(await card.getAttribute('data-unusual')).toBe('true');
      const handles = await members(card);
      // No group shown by default is made of organic accounts alone.
      expect(handles.some((handle) => planted.has(handle))).toBe(true);
      if (handles.filter((handle) => sameText.has(handle)).length >= 5) found = card;
    }
    expect(found).not.toBeNull();
    await expect(found!.$('.reason')).toHaveText(expect.stringMatching(/\S/));
    await expect(found!.$('.background')).toHaveText(expect.stringContaining('Unusual vs background'));
    await found!.scrollIntoView();
    await screenshotBothThemes('coordination-groups');
    await auditBothThemes('coordination-groups');

    await found!.$('button*=Open its').click();
    await $('[data-testid="coordination-edges"] tbody tr').waitForDisplayed({ timeout: 10_000 });
    await expect($('#coordination-edges-title')).toBeFocused();
  });

  it('opens an edge and shows the shared posts with their times, within the window', async () => {
    const row = $('[data-testid="coordination-edges"] tbody tr');
    const pair = String(await row.$('th').getProperty('textContent'));
    const shared = Number(String(await row.$('td:nth-child(3)').getProperty('textContent')).trim());
    expect(shared).toBeGreaterThanOrEqual(3);
    // Opened from the keyboard, and the focus goes to what it opened.
    const open = await row.$('button*=Shared posts');
    await browser.execute((button) => (button as unknown as HTMLElement).focus(), open);
    await browser.keys(['Enter']);
    await $('[data-testid="coordination-shared-posts"]').waitForDisplayed({ timeout: 10_000 });
    await expect($('#coordination-posts-title')).toBeFocused();

    const events = await $$('[data-testid="coordination-event"]');
    expect(events.length).toBe(shared);
    for (const event of events) {
      const times = await event.$$('blockquote time').map((time) => time.getAttribute('datetime'));
      expect(times.length).toBe(2);
      const apart = Math.abs(Date.parse(times[1]!) - Date.parse(times[0]!)) / 1000;
      expect(apart).toBeLessThanOrEqual(60);
      const who = await event.$$('blockquote .who').map((line) => line.getText());
      for (const handle of pair.split(' and ')) {
        expect(who.some((line) => line.startsWith(handle.trim()))).toBe(true);
      }
    }
    await screenshotBothThemes('coordination-shared-posts');
    await auditBothThemes('coordination-shared-posts');
  });

  it('exports the edges as CSV and GEXF and reads them back', async () => {
    const csv = await exported('Export edge CSV');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^source,target,weight,edge_type,/);
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some(([source, target, , type]) => sameText.has(source!) && sameText.has(target!) && type === 'co_tweet')).toBe(true);

    const gexf = await exported('Export GEXF');
    // Parsed by the webview's own XML parser: a malformed file would give a parsererror document.
    const read = await browser.execute((text: string) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        error: doc.getElementsByTagName('parsererror').length,
        labels: [...doc.getElementsByTagName('node')].map((node) => node.getAttribute('label') ?? ''),
        edges: doc.getElementsByTagName('edge').length,
      };
    }, gexf);
    expect(read.error).toBe(0);
    expect(read.labels.filter((label) => sameText.has(label.replace(/^@/, ''))).length).toBeGreaterThanOrEqual(5);
    expect(read.edges).toBe(rows.length);
  });
});
