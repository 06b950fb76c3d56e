import { browser, $, $$, expect } from '@wdio/globals';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { billed, sandbox, stopSandbox } from '../support/sandbox.ts';

const sidebar = () => $('nav[aria-label="Screens"]');
const historyRows = () => $$('[aria-label="Requests, newest first"] [role="listitem"] button.row');

async function open(screen: string, title = screen) {
  await sidebar().$(`a=${screen}`).click();
  await expect($(`h1=${title}`)).toBeDisplayed();
}

/** An exact decimal as integer nano-dollars, so sums are exact in the test too. */
function nanos(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/[$,\s]/g, '').split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9) || '0');
}

async function search(query: string) {
  await open('X', 'X search');
  await $('#x-query').setValue(query);
  await browser.keys(['Enter']);
  await $('article.post').waitForDisplayed({ timeout: 30_000 });
}

async function spentAllTime(): Promise<string> {
  await open('Spend');
  const total = $('[data-testid="spend-all"]');
  await browser.waitUntil(async () => (await total.getText()).startsWith('$'), { timeoutMsg: 'Spend never showed a total' });
  return total.getText();
}

/**
 * A user with a real key (the sandbox stands in for the service, as SIGHTLINE_BASE_URL): key set-up,
 * a mixed session whose Spend total must equal what the service billed, a budget that blocks,
 * exports read back from disk, everything re-opened once the service is gone, and a log file that
 * says what went wrong without the key or a result in it.
 */
describe('with a key, against the service', () => {
  let fetchedWord = '';
  let fetchedText = '';
  let usedKey = '';
  const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-exports-'));

  it('refuses a placeholder key in plain words, then accepts and verifies a real one', async () => {
    await sidebar().waitForDisplayed({ timeout: 60_000 });
    await expect($('h2=Paste your API key')).toBeDisplayed();
    await $('#welcome-key').setValue('YOUR_API_KEY');
    await $('button=Use this key').click();
    const refusal = $('#welcome-key-error');
    await expect(refusal).toBeDisplayed();
    await expect(refusal).toHaveText(expect.stringContaining('not a real key'));
    await screenshotBothThemes('welcome-key-refused');

    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed();
    await expect($('[data-testid="demo-badge"]')).not.toBeDisplayed();

    await open('Settings');
    await $('button[aria-label="Verify My key"]').click();
    await expect($('.verified*=Verified')).toBeDisplayed({ wait: 30_000 });
    // The key is never shown again in full.
    await expect($('main')).not.toHaveText(expect.stringContaining(sandbox().key));
    await screenshotBothThemes('settings-key-verified');
  });

  it('spends exactly what the service billed, to the last digit', async () => {
    await search('#JWST');
    const firstText = await $('article.post p.text').getText();
    fetchedText = firstText;
    fetchedWord = firstText.split(/[^A-Za-z]+/).find((word) => word.length >= 5) ?? '';
    await search('bitcoin');
    await open('Trends');
    await $('button=Show trends').click();
    await $('button.trend').waitForDisplayed({ timeout: 30_000 });

    const fromService = await billed();
    expect(fromService.responses.length).toBeGreaterThanOrEqual(4); // verify + 2 searches + trends
    const shown = await spentAllTime();
    expect(nanos(shown)).toBe(nanos(fromService.total_usd));
    await screenshotBothThemes('spend-live');
  });

  it('blocks a request the budget forbids, and sends nothing', async () => {
    await open('Spend');
    const daily = $('label*=Daily limit').$('input');
    await daily.setValue('0.000001');
    await $('button=Save budgets').click();
    await expect($('span=Budgets saved.')).toBeDisplayed();
    const before = (await billed()).responses.length;

    await open('X', 'X search');
    await $('#x-query').setValue('drought');
    const review = $('button=Over budget: review');
    await review.waitForDisplayed({ timeout: 10_000 });
    await review.click();
    await expect($('p*=Daily budget')).toBeDisplayed();
    await screenshotBothThemes('x-search-over-budget');
    expect((await billed()).responses.length).toBe(before);

    // Clear the limit as a person does (select all, delete), so the form sees the change.
    await open('Spend');
    await $('label*=Daily limit').$('input').click();
    await browser.keys(['Control', 'a']);
    await browser.keys(['Backspace']);
    await $('button=Save budgets').click();
    await expect($('span=Budgets saved.')).toBeDisplayed();
  });

  it('writes exports to the chosen folder, and they read back exactly', async () => {
    await open('Settings');
    await $('#pref-exportFolder').setValue(exportFolder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();

    await open('History');
    await $('label*=Export as').$('select').selectByVisibleText('JSON Lines');
    await $('button=Export these requests').click();
    const note = $('p.note*=Saved');
    await expect(note).toBeDisplayed();
    const historyFile = (await note.getText()).replace(/^Saved \d+ requests? to /, '');
    const entries = readFileSync(historyFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { billing: { cost: string } | null; operation: string });
    const service = await billed();
    expect(entries.filter((entry) => entry.billing).length).toBe(service.responses.length);
    const historySum = entries.reduce((sum, entry) => sum + (entry.billing ? nanos(entry.billing.cost) : 0n), 0n);
    expect(historySum).toBe(nanos(service.total_usd));

    await open('Spend');
    await $('button=Export all (CSV)').click();
    const ledgerNote = $('p.note*=Saved the ledger to');
    await expect(ledgerNote).toBeDisplayed();
    const [header, ...rows] = readFileSync((await ledgerNote.getText()).replace('Saved the ledger to ', ''), 'utf8').trim().split('\n');
    const costColumn = header!.split(',').indexOf('cost');
    const ledgerSum = rows.reduce((sum, row) => sum + nanos(row.split(',')[costColumn]!), 0n);
    expect(rows.length).toBe(service.responses.length);
    expect(ledgerSum).toBe(nanos(service.total_usd));
  });

  it('re-opens results and searches the archive with the service gone', async () => {
    // Kept for the log's check below: once stopped, the sandbox no longer says its key.
    usedKey = sandbox().key;
    await stopSandbox();

    await open('History');
    await browser.waitUntil(async () => (await historyRows().length) >= 4, { timeoutMsg: 'History lost requests' });
    await historyRows()[0]!.click();
    await $('button=Open result').click();
    const stored = $('section[aria-label="Stored result"]');
    await expect(stored).toBeDisplayed();
    await expect(stored).toHaveText(expect.stringContaining('no request was sent'));
    await screenshotBothThemes('history-reopened-offline');

    expect(fetchedWord).not.toBe('');
    await open('Archive');
    await $('#archive-text').setValue(fetchedWord);
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 15_000 });
    await expect($('section[aria-label="Results"]')).toHaveText(expect.stringMatching(new RegExp(fetchedWord, 'i')));

    // A new request now fails in plain words, with a retry, and history keeps what it had.
    await open('X', 'X search');
    await $('#x-query').setValue('offline');
    await browser.keys(['Enter']);
    await expect($('p=The service could not be reached.')).toBeDisplayed({ wait: 30_000 });
    await screenshotBothThemes('x-search-offline');
  });

  it('logs what went wrong, never the key or a result', async () => {
    const dataDir = process.env.SIGHTLINE_E2E_DATA_DIR;
    if (!dataDir) throw new Error('wdio.conf passes live specs their data folder');
    const logs = path.join(dataDir, 'logs');
    const logText = () =>
      readdirSync(logs)
        .map((name) => readFileSync(path.join(logs, name), 'utf8'))
        .join('');
    // The log is written off the app's threads: the failed search's line may take a moment.
    await browser.waitUntil(async () => /WARN .*a request failed.*kind=network/.test(logText()), {
      timeout: 10_000,
      timeoutMsg: `The offline search's warning is not in the log:\n${logText()}`,
    });
    const text = logText();
    // One file a day (two, should the run cross midnight UTC).
    for (const name of readdirSync(logs)) expect(name).toMatch(/^sightline\.\d{4}-\d{2}-\d{2}\.log$/);
    expect(text).toContain('Sightline started');
    expect(usedKey.length).toBeGreaterThan(10);
    expect(text.includes(usedKey)).toBe(false);
    expect(fetchedText.length).toBeGreaterThan(20);
    expect(text.includes(fetchedText)).toBe(false);

    await open('Settings');
    await expect($('[data-testid="log-dir"]')).toHaveText(logs);
    await expect($('button=Open the log folder')).toBeDisplayed();
  });
});
