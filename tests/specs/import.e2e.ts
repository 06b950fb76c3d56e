import { browser, $, $$, expect } from '@wdio/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'sightline-import-'));
const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-import-exports-'));

/** An account as the X API v2 sends it (twarc2 keeps it whole). */
function user(id: string, username: string) {
  return { id, username, name: `${username} desk`, verified: false, created_at: '2015-01-01T00:00:00.000Z' };
}

/** A `twarc2 flatten` line: the v2 tweet with its author inside, and twarc2's own note. */
function flat(id: string, author: [string, string], text: string) {
  return {
    id,
    text,
    created_at: '2022-12-06T10:00:00.000Z',
    author_id: author[0],
    conversation_id: id,
    lang: 'en',
    edit_history_tweet_ids: [id],
    public_metrics: { retweet_count: 2, reply_count: 1, like_count: 5, quote_count: 0, bookmark_count: 1, impression_count: 100 },
    author: user(author[0], author[1]),
    __twarc: { url: 'https://api.twitter.com/2/tweets/search/recent?query=levee', version: '2.13.0', retrieved_at: '2022-12-06T10:05:00+00:00' },
  };
}

const first = flat('1600000000000000101', ['41', 'levee_watch'], 'Zanzibarlevee breach reported at the north gate');
const lines = [
  JSON.stringify(first),
  JSON.stringify(flat('1600000000000000102', ['42', 'harbour_desk'], 'Zanzibarlevee crews on site')),
  JSON.stringify(user('42', 'harbour_desk')),
  '{"id": "1600000000000000105", "text": oops}',
  '',
  JSON.stringify(first),
  JSON.stringify(flat('1600000000000000103', ['41', 'levee_watch'], 'Zanzibarlevee water falling')),
  '{"id":"1600000000000000109","text":"cut sho',
];
/** Each line's outcome as the report must show it: line, outcome, post id, the start of why. */
const expected: [number, string, string, string][] = [
  [1, 'Imported', '1600000000000000101', ''],
  [2, 'Imported', '1600000000000000102', ''],
  [3, 'Not a post', '', 'an account'],
  [4, 'Unreadable', '', 'not JSON'],
  [5, 'Not a post', '', 'an empty line'],
  [6, 'Already held', '1600000000000000101', ''],
  [7, 'Imported', '1600000000000000103', ''],
  [8, 'Unreadable', '', 'cut short'],
];
const caseFile = path.join(folder, 'gate-flat.jsonl');
writeFileSync(caseFile, `${JSON.stringify(flat('1600000000000000201', ['43', 'gate_keeper'], 'Quokkagate closed at dawn'))}\nnot json\n`);

const file = path.join(folder, 'levee-flat.jsonl');
// The last line has no line break: a file cut off mid-write.
writeFileSync(file, lines.join('\n'));
const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');

/** The outcome table's rows as text: line, outcome, post id, why. */
async function tableRows(): Promise<string[][]> {
  return browser.execute(() =>
    [...document.querySelectorAll('[data-testid="import-outcomes"] tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
  );
}

/**
 * Importing in the real app (demo mode): a twarc2 flattened file with a few bad lines, written
 * here to a temporary folder and named by its path (as "Verify a bundle" takes one), is
 * detected, hashed (the SHA-256 on screen is the file's), and read; the report's outcomes
 * match the file line by line, filter by outcome, and export as CSV; an imported post's card in
 * the Archive says which file it came from and that Sightline did not capture it; a file
 * imported from an investigation's page is filed there, its card marked and its custody log
 * naming the file. Keyboard
 * only for the import itself; screenshots and axe in both themes.
 */
describe('import a twarc2 file', () => {
  it('detects, hashes and reads the file, and shows each line its outcome', async () => {
    await enterDemo();
    await openScreen('Settings');
    await $('#pref-exportFolder').setValue(exportFolder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();

    await openScreen('Archive');
    await $('a=Import posts…').click();
    await expect($('h1=Import posts')).toBeDisplayed();
    await expect($('#import-into')).toHaveValue('');
    await screenshotBothThemes('import-new-empty');

    // A path that is no file is refused under the field, in words.
    await $('#import-path').setValue(path.join(folder, 'missing.jsonl'));
    await browser.keys(['Tab']);
    await expect($('#import-path-error')).toHaveText(expect.stringContaining('could not be read'));
    await expect($('#import-path')).toHaveAttribute('aria-invalid', 'true');

    await $('#import-path').setValue(file);
    await browser.keys(['Tab']);
    await expect($('[data-testid="import-format"]')).toHaveText('Format: twarc2 flattened tweets');
    await expect($('#import-path-error')).not.toBeExisting();
    await auditBothThemes('import-new');

    // Enter in the path's field imports it; the report follows once the file is recorded.
    await $('#import-path').click();
    await browser.keys(['Enter']);
    await expect($('h1=Import report')).toBeDisplayed({ wait: 30_000 });
    await expect($('[data-testid="import-state"]')).toHaveText('Done', { wait: 30_000 });
    await expect($('[data-testid="import-sha256"]')).toHaveText(sha256);
    await expect($('[data-testid="import-format"]')).toHaveText('twarc2 flattened tweets');
    await expect($('[data-testid="import-counts"]')).toHaveText('8 lines read · 3 imported · 1 already held · 2 not a post · 2 unreadable');

    await browser.waitUntil(async () => (await tableRows()).length === expected.length, { timeout: 15_000, timeoutMsg: 'the outcomes did not show' });
    const rows = await tableRows();
    expected.forEach(([line, outcome, postId, why], index) => {
      const row = rows[index]!;
      expect(row.slice(0, 3)).toEqual([String(line), outcome, postId]);
      expect(row[3]).toMatch(new RegExp(`^${why}`));
    });
    await screenshotBothThemes('import-report');
    await auditBothThemes('import-report');
  });

  it('filters the outcomes and exports them all as CSV', async () => {
    await $('#outcome-filter').selectByVisibleText('Unreadable (2)');
    await browser.waitUntil(async () => (await tableRows()).every((row) => row[1] === 'Unreadable') && (await tableRows()).length === 2, {
      timeout: 10_000,
      timeoutMsg: 'the filter did not narrow the table to the unreadable lines',
    });
    expect((await tableRows()).map((row) => row[0])).toEqual(['4', '8']);

    await $('button=Export outcomes').click();
    const note = $('[data-testid="import-export-note"]');
    await expect(note).toHaveText(expect.stringMatching(/^Saved the outcomes to /), { wait: 15_000 });
    const saved = (await note.getText()).replace(/^Saved the outcomes to /, '').replace(/\s*Show in folder$/, '');
    expect(path.dirname(saved)).toBe(exportFolder);
    const csv = readFileSync(saved, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toBe('line,item,outcome,post_id,reason');
    expect(csv.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual(
      expected.map(([line, outcome]) => `${line},0,${outcome.toLowerCase().replace(/ /g, '_')}`),
    );
    await screenshotBothThemes('import-report-filtered');
  });

  it("marks an imported post's card with its file, never as captured by Sightline", async () => {
    await $('button*=Back').click();
    await expect($('h1=Archive')).toBeDisplayed();
    await $('#archive-text').setValue('Zanzibarlevee');
    await browser.keys(['Enter']);
    await browser.waitUntil(async () => (await $$('article.post').length) === 3, { timeout: 15_000, timeoutMsg: 'the imported posts are not in the archive' });
    const mark = $('article.post a.import-mark');
    await expect(mark).toHaveText(`Imported from levee-flat.jsonl (sha256 ${sha256.slice(0, 8)}…), not captured by Sightline`, { wait: 10_000 });
    for (const card of await $$('article.post')) {
      await expect(card.$('a.import-mark')).toBeDisplayed();
      expect(await card.getText()).not.toMatch(/captured \d|captured before/);
    }
    await screenshotBothThemes('import-archive-marks');
    await auditBothThemes('import-archive-marks');

    // The mark opens the import's report.
    await mark.click();
    await expect($('h1=Import report')).toBeDisplayed();
    await expect($('[data-testid="import-sha256"]')).toHaveText(sha256);
  });

  it("imports into an investigation from its page: its posts carry the mark, its custody log says so", async () => {
    await openScreen('Investigations');
    await $('#investigation-name').setValue('Gate closures');
    await $('button=Create investigation').click();
    await $('main').$('a=Gate closures').click();
    await expect($('h1=Gate closures')).toBeDisplayed();
    await $('a=Import posts…').click();
    await expect($('h1=Import posts')).toBeDisplayed();
    await expect($('#import-into')).toHaveValue(expect.stringMatching(/^\d+$/));
    await expect($('#import-into')).toHaveText(expect.stringContaining('Investigation: Gate closures'));
    await $('#import-path').setValue(caseFile);
    await $('#import-path').click();
    await browser.keys(['Enter']);
    await expect($('[data-testid="import-state"]')).toHaveText('Done', { wait: 30_000 });
    await expect($('[data-testid="import-counts"]')).toHaveText('2 lines read · 1 imported · 0 already held · 0 not a post · 1 unreadable');
    await $('a=Gate closures').click();
    await expect($('h1=Gate closures')).toBeDisplayed();
    const card = $('#investigation-panel-posts article.post');
    await card.waitForDisplayed({ timeout: 15_000 });
    await expect(card.$('a.import-mark')).toHaveText(expect.stringMatching(/^Imported from gate-flat\.jsonl \(sha256 [0-9a-f]{8}…\), not captured by Sightline$/), { wait: 10_000 });
    expect(await card.getText()).not.toMatch(/captured \d|captured before/);
    await screenshotBothThemes('import-investigation-posts');
    await $('#investigation-tab-custody').click();
    await expect($('#investigation-panel-custody')).toHaveText(expect.stringContaining('gate-flat.jsonl'), { wait: 10_000 });
    await auditBothThemes('import-investigation');
  });
});
