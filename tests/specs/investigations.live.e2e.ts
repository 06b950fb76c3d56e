import { browser, $, $$, expect } from '@wdio/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { screenshot, screenshotBothThemes } from '../support/screenshots.ts';
import { billed, sandbox } from '../support/sandbox.ts';

const NAME = 'Dam collapse';
const sidebar = () => $('nav[aria-label="Screens"]');
const historyList = () => $('[aria-label="Requests, newest first"]');

async function open(screen: string, title = screen) {
  await sidebar().$(`a=${screen}`).click();
  await expect($(`h1=${title}`)).toBeDisplayed();
}

async function openInvestigation() {
  await open('Investigations');
  await $('main').$(`a=${NAME}`).click();
  await expect($(`h1=${NAME}`)).toBeDisplayed();
}

/** An exact decimal as integer nano-dollars, so sums are exact in the test too. */
function nanos(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/[$,\s]/g, '').split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9) || '0');
}

async function billedCount(): Promise<number> {
  return (await billed()).responses.length;
}

async function search(query: string) {
  await open('X', 'X search');
  await $('#x-query').clearValue();
  await $('#x-query').setValue(query);
  await browser.keys(['Enter']);
  await $('article.post').waitForDisplayed({ timeout: 30_000 });
}

/** One line of the sandbox's body log: each response it sent, and the SHA-256 of its bytes. */
interface SentBody {
  method: string;
  target: string;
  status: number;
  sha256: string;
  complete: boolean;
}

function bodyLog(): SentBody[] {
  const file = process.env.SIGHTLINE_E2E_BODY_LOG;
  if (!file || !existsSync(file)) throw new Error('The sandbox keeps no body log for this spec (see wdio.conf)');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().startsWith('{') && line.trim().endsWith('}'))
    .map((line) => JSON.parse(line) as SentBody);
}

/**
 * Issue 15 end to end, against the service (the sandbox, with a real key): an investigation
 * made active from the sidebar files an X search and an AI answer, a History row is added by
 * hand, posts are tagged and noted, the notebook written; its cost equals to the digit what the
 * service billed for exactly those requests; a post's capture hash is the hash of the bytes the
 * service sent; Still there? is run; the evidence bundle is exported, checked with sha256sum,
 * read in the webview, verified intact in the app and found changed once tampered with. Every
 * new screen is audited with axe and photographed in both themes.
 */
describe('an investigation, end to end against the service', () => {
  const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-investigation-exports-'));
  /** Billed responses before the first request filed under the investigation (the key's check). */
  let beforeFiling = 0;
  /** The billed responses of requests that are not filed: [from, to) of billed()'s list. */
  const unfiled: [number, number][] = [];
  let bundle = '';
  let unzipped = '';
  let shownCost = '';

  it('sets up a key, the display zone and the export folder', async () => {
    await sidebar().waitForDisplayed({ timeout: 60_000 });
    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed({ wait: 30_000 });

    await open('Settings');
    await $('#pref-exportFolder').setValue(exportFolder);
    await $('#pref-displayZone').selectByAttribute('value', 'Asia/Kolkata');
    await expect($('#pref-displayZone-hint')).toHaveText(expect.stringContaining('GMT+5:30'));
    await $('#pref-displayZone-hint').scrollIntoView({ block: 'center' });
    await screenshotBothThemes('inv-live-display-zone');
    await $('button=Save settings').click();
    await expect($('span.note=Saved.')).toBeDisplayed();
    beforeFiling = await billedCount();
    expect(beforeFiling).toBeGreaterThanOrEqual(1); // the key's verification, billed but filed nowhere
  });

  it('files an X search and an AI answer under the investigation made active in the sidebar', async () => {
    // A search before the investigation exists: added by hand later.
    await search('#JWST');

    await open('Investigations');
    await $('#investigation-name').setValue(NAME);
    await $('#investigation-description').setValue('Who said what about the dam, as it was said');
    await $('button=Create investigation').click();
    await expect($('main').$(`a=${NAME}`)).toBeDisplayed({ wait: 10_000 });
    await auditBothThemes('inv-live-list');

    // The sidebar's picker, with its "New investigation…" form open, then the investigation chosen.
    await $('#picker-select').selectByVisibleText('New investigation…');
    await expect($('#picker-new-name')).toBeFocused();
    await screenshotBothThemes('inv-live-picker-new');
    await browser.keys(['Escape']);
    await $('#picker-select').selectByVisibleText(NAME);
    await expect($('#picker-select')).toHaveValue(expect.stringMatching(/^\d+$/));

    await open('X', 'X search');
    await expect($('[data-testid="filing-bar"]')).toHaveText(expect.stringContaining(`Results are filed under ${NAME}.`), { wait: 10_000 });
    await search('flood');
    await screenshotBothThemes('inv-live-picker-filing');

    await open('Ask');
    await $('#ask-prompt').setValue('What do people say about the dam and the flood?');
    await $('#ask-prompt').click();
    await browser.keys(['Enter']);
    await browser.waitUntil(async () => (await $('[data-testid="ask-status"]').getText()).startsWith('Done'), {
      timeout: 60_000,
      timeoutMsg: 'The AI answer did not finish',
    });

    // Filing stops: what follows is not the investigation's, unless added by hand.
    await $('#picker-select').selectByVisibleText('No investigation');
    const from = await billedCount();
    await search('drought');
    unfiled.push([from, await billedCount()]);
  });

  it('adds the earlier search from History by hand with Add to…', async () => {
    await open('History');
    await historyList().$('button.row*=#JWST').click();
    await $('aside').$('button=Add to…').click();
    const panel = $('[role="dialog"][aria-label="Add this request to investigations"]');
    await panel.$(`label*=${NAME}`).click();
    await expect(panel.$('[role="status"]')).toHaveText(`Added to ${NAME}.`, { wait: 10_000 });
    await expect(panel.$(`label*=${NAME}`).$('input')).toBeChecked();
    await auditBothThemes('inv-live-add-to');
    await browser.keys(['Escape']);
    await expect(panel).not.toBeDisplayed();

    await openInvestigation();
    await expect($('[data-testid="investigation-figures"]')).toHaveText(expect.stringMatching(/^3 queries · [1-9]\d* posts · cost \$0\.\d+$/));
    await $('#investigation-tab-queries').click();
    const queries = $('#investigation-panel-queries');
    await expect(queries.$('button.row*=#JWST')).toBeDisplayed({ wait: 10_000 });
    await expect(queries.$('button.row*=flood')).toBeDisplayed();
    await expect(queries.$('button.row*=drought')).not.toBeExisting();
    await auditBothThemes('inv-live-queries');
  });

  it('tags two posts, notes one, filters by tag and writes the notebook', async () => {
    await openInvestigation();
    await $('main article.post').waitForDisplayed({ timeout: 15_000 });
    const tagFields = () => $$('main input[role="combobox"][id^="post-"][id$="-tag"]');
    await tagFields()[0]!.setValue('claim');
    await browser.keys(['Enter']);
    await expect($('main button[aria-label="Remove the tag claim"]')).toBeDisplayed({ wait: 10_000 });
    await tagFields()[1]!.setValue('source');
    await browser.keys(['Enter']);
    await expect($('main button[aria-label="Remove the tag source"]')).toBeDisplayed({ wait: 10_000 });

    const note = $('main textarea[id^="post-"][id$="-note"]');
    await note.setValue('Says the spillway held: check against the council statement');
    const notes = note.parentElement();
    await notes.$('button=Save note').click();
    await expect(notes.$('span.state')).toHaveText('Saved', { wait: 10_000 });
    await auditBothThemes('inv-live-posts');

    // Filtered by a tag: only the post carrying it.
    await $('#inv-tag').setValue('claim');
    await browser.keys(['Enter']);
    await browser.waitUntil(async () => (await $$('main article.post').length) === 1, { timeoutMsg: 'The tag filter did not narrow to one post' });
    await expect($('main button[aria-label="Remove the tag claim"]')).toBeDisplayed();
    await expect($('main textarea[id^="post-"][id$="-note"]')).toHaveValue(expect.stringContaining('spillway held'));
    await auditBothThemes('inv-live-posts-filtered');
    await $('#inv-tag').clearValue();
    await browser.keys(['Enter']);

    await $('#investigation-tab-notebook').click();
    // Line by line: WebDriver drops a newline inside setValue's text (and browser.keys a
    // repeated character, so the line is added as a value).
    await $('#notebook-text').setValue('# Dam collapse');
    await browser.keys(['Enter']);
    await $('#notebook-text').addValue('- The spillway _held_ overnight, says one post');
    await $('button=Save notebook').click();
    await expect($('[data-testid="notebook-state"]')).toHaveText('Saved', { wait: 10_000 });
    await expect($('[data-testid="notebook-rendered"] h1')).toHaveText('Dam collapse');
    await expect($('[data-testid="notebook-rendered"] li em')).toHaveText('held');
    await auditBothThemes('inv-live-notebook');
  });

  /** The billed responses filed under the investigation: all after the key's check but the unfiled ones. */
  async function filedBilled(): Promise<bigint> {
    const { responses } = await billed();
    return responses
      .slice(beforeFiling)
      .filter((_, index) => !unfiled.some(([from, to]) => index + beforeFiling >= from && index + beforeFiling < to))
      .reduce((sum, response) => sum + nanos(response.cost_usd), 0n);
  }

  it('costs exactly what the service billed for its requests, by day in the display zone', async () => {
    await openInvestigation();
    await $('#investigation-tab-cost').click();
    const total = $('[data-testid="investigation-cost"]');
    await expect(total).toHaveText(expect.stringMatching(/^\$0\.\d*[1-9]/));
    expect(nanos(await total.getText())).toBe(await filedBilled());
    // And the service billed more than that: the key's check and the unfiled search.
    expect(nanos((await billed()).total_usd)).toBeGreaterThan(nanos(await total.getText()));
    await expect($('#cost-days-title')).toHaveText(expect.stringContaining('Asia/Kolkata'));
    await auditBothThemes('inv-live-cost');
  });

  it("holds a post's capture hash to the hash of the bytes the service sent", async () => {
    await openInvestigation();
    const line = $('main article.post button.capture-line');
    await line.waitForDisplayed({ timeout: 15_000 });
    const prefix = /sha256 ([0-9a-f]{8})…/.exec(await line.getText())?.[1];
    expect(prefix).toBeDefined();
    await line.click();
    const dialog = $('dialog.provenance');
    await dialog.waitForDisplayed({ timeout: 10_000 });
    const fields = await dialog.$$('dt').map((term) => term.getText());
    expect(fields).toEqual(expect.arrayContaining(['Captured at', 'Trusted timestamp', 'Service', 'Answered by', 'Operation', 'Parameters', 'HTTP status', 'Billing headers', 'App version', 'SHA-256', 'Size']));
    // Captured in UTC, and in the display zone beside it, by this computer's clock (not the authority's).
    await expect(dialog.$('dt=Captured at').nextElement()).toHaveText(
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(\d+ \w+ \d{4}, \d\d:\d\d:\d\d GMT\+5:30\) by this computer's clock$/),
    );
    const sha = await dialog.$('dt=SHA-256').nextElement().getText();
    const answeredBy = new URL(await dialog.$('dt=Answered by').nextElement().getText());
    expect(sha.startsWith(prefix!)).toBe(true);
    const sent = bodyLog().filter((line) => line.sha256 === sha);
    expect(sent.length).toBe(1);
    expect(sent[0]).toMatchObject({ status: 200, complete: true, target: `${answeredBy.pathname}${answeredBy.search}` });
    await dialog.$('button=Re-check the hash').click();
    await expect(dialog.$('[role="status"]')).toHaveText('matches: the stored bytes hash to the SHA-256 recorded when they were received', { wait: 10_000 });
    await auditBothThemes('inv-live-provenance');
    await browser.keys(['Escape']);
    await expect(dialog).not.toBeDisplayed();
    await line.scrollIntoView({ block: 'center' });
    await screenshotBothThemes('inv-live-capture-line');
  });

  it('checks the posts are still there, and what the check cost is filed too', async () => {
    await openInvestigation();
    await $('#investigation-tab-check').click();
    await $('button=Check these posts').click();
    await expect($('[data-testid="check-estimate"]')).toBeDisplayed({ wait: 10_000 });
    await auditBothThemes('inv-live-check-estimate');
    await $('button=Check now').click();
    await expect($('main').$('h3*=Check of')).toBeDisplayed({ wait: 60_000 });
    await expect($('main').$('h3*=Check of')).toHaveText(expect.stringContaining('GMT+5:30'));
    await auditBothThemes('inv-live-check');

    await $('#investigation-tab-cost').click();
    const total = $('[data-testid="investigation-cost"]');
    await browser.waitUntil(async () => nanos(await total.getText()) === (await filedBilled()), {
      timeout: 10_000,
      timeoutMsg: 'The cost shown does not include the check as the service billed it',
    });
    shownCost = await total.getText();
  });

  it('exports the evidence bundle, which sha256sum -c accepts and keeps 19-digit ids', async () => {
    await openInvestigation();
    const button = $('button=Export evidence bundle');
    // The button is as wide as its words, not the page.
    const width = await button.getSize('width');
    const pageWidth = await $('main').getSize('width');
    expect(width).toBeLessThan(pageWidth / 3);
    await button.click();
    const saved = $('.evidence-export p[role="status"]');
    await expect(saved).toHaveText(expect.stringMatching(/^Saved .+\.zip: /), { wait: 60_000 });
    bundle = (await saved.getText()).replace(/^Saved /, '').replace(/: \d[\d,]* posts?, .*$/, '');
    expect(path.dirname(bundle)).toBe(exportFolder);
    await auditBothThemes('inv-live-evidence-export');

    unzipped = mkdtempSync(path.join(tmpdir(), 'sightline-evidence-unzipped-'));
    execFileSync('unzip', ['-q', bundle, '-d', unzipped]);
    const check = execFileSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: unzipped, encoding: 'utf8' });
    expect(check).toContain('posts.csv: OK');
    expect(check).toContain('report.html: OK');
    expect(check).not.toContain('FAILED');

    // posts.jsonl and posts.csv carry each post's id as the service gave it, all 19 digits; in
    // the CSV after a tab, so a spreadsheet reads it as text and keeps every digit.
    const ids = readFileSync(path.join(unzipped, 'posts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.length).toBeGreaterThan(1);
    const csv = readFileSync(path.join(unzipped, 'posts.csv'), 'utf8');
    for (const id of ids) {
      expect(id).toMatch(/^\d{19}$/);
      expect(csv).toMatch(new RegExp(`\\r\\n\\t${id},`));
    }
    // Times in UTC and in the display zone, named.
    expect(csv).toContain('(Asia/Kolkata)');
    expect(csv).toContain('claim');
    expect(csv).toContain('spillway held');

    // Each response is kept as received: its hash is the one the service sent.
    const sentHashes = new Set(bodyLog().map((line) => line.sha256));
    const responses = readdirSync(path.join(unzipped, 'responses'));
    expect(responses.length).toBeGreaterThanOrEqual(3);
    for (const file of responses) {
      const hash = createHash('sha256').update(readFileSync(path.join(unzipped, 'responses', file))).digest('hex');
      expect({ file, sent: sentHashes.has(hash) }).toEqual({ file, sent: true });
    }
  });

  it('verifies the bundle intact in the app, then names the one file changed in a copy', async () => {
    await open('Investigations');
    const pathField = $('.verify label.path input');
    await pathField.setValue(bundle);
    await $('button=Verify').click();
    const verdict = $('.verify p.verdict');
    // Every check holds and this computer recorded exporting it: only then "exactly as written".
    await expect(verdict).toHaveText(expect.stringMatching(/^Exactly as Sightline on this computer wrote it: every file matches its sum, the manifest is signed with this computer's key/), {
      wait: 15_000,
    });
    await verdict.scrollIntoView({ block: 'center' });
    await auditBothThemes('inv-live-verify-intact');

    // A copy with one line of posts.csv changed, as someone editing the evidence would.
    const work = mkdtempSync(path.join(tmpdir(), 'sightline-evidence-tamper-'));
    const copy = path.join(work, 'tampered.zip');
    copyFileSync(bundle, copy);
    execFileSync('unzip', ['-q', copy, 'posts.csv', '-d', work]);
    const csv = readFileSync(path.join(work, 'posts.csv'), 'utf8');
    writeFileSync(path.join(work, 'posts.csv'), csv.replace('spillway held', 'spillway failed'));
    execFileSync('zip', ['-q', copy, 'posts.csv'], { cwd: work });

    await pathField.setValue(copy);
    await $('button=Verify').click();
    // Still signed as exported: a file changed after that.
    await expect(verdict).toHaveText(expect.stringMatching(/^The manifest is signed with this computer's key.*, but 1 file does not match its sums\.$/), {
      wait: 15_000,
    });
    await expect($('.verify ul.findings')).not.toBeExisting();
    await expect($$('.verify ul.files li')[0]!).toHaveText(expect.stringMatching(/^posts\.csv\s+Changed since the bundle was made$/));
    await verdict.scrollIntoView({ block: 'center' });
    await auditBothThemes('inv-live-verify-changed');

    // A copy with bytes put before its first entry (offsets adjusted, as a self-extracting
    // archive's are): every file still matches its sum, and the check names what is hidden.
    const prefixed = path.join(work, 'prefixed.zip');
    writeFileSync(prefixed, Buffer.concat([Buffer.from('planted before the first entry\n'), readFileSync(bundle)]));
    execFileSync('zip', ['-q', '-A', prefixed]);
    await pathField.setValue(prefixed);
    await $('button=Verify').click();
    await expect(verdict).toHaveText(expect.stringMatching(/, but the ZIP holds more than its files \(see below\)\.$/), {
      wait: 15_000,
    });
    await expect($('.verify ul.findings')).toHaveText(expect.stringMatching(/^31 bytes before the first entry \(.+\) are listed in no index: data no tool shows\.$/));
    await $('.verify ul.findings').scrollIntoView({ block: 'center' });
    await auditBothThemes('inv-live-verify-findings');
  });

  it('opens report.html in the webview: its posts, their ids and the cost', async () => {
    const app = await browser.getUrl();
    const ids = readFileSync(path.join(unzipped, 'posts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string; text: string }));
    try {
      await browser.url(`file://${path.join(unzipped, 'report.html')}`);
      await expect($('h1')).toHaveText(NAME);
      await expect($('p.total')).toHaveText(shownCost);
      await expect($(`h2=Posts (${ids.length})`)).toBeDisplayed();
      const page = await $('body').getText();
      for (const { id } of ids) expect(page).toContain(`post ${id}`);
      expect(page).toContain(ids[0]!.text.split('\n')[0]!.trim());
      expect(page).toContain('spillway held');
      await screenshot('inv-live-report');
    } finally {
      await browser.url(app);
    }
    await expect(sidebar()).toBeDisplayed({ wait: 30_000 });
    await openInvestigation();
  });
});
