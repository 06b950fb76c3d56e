import { browser, $, $$, expect } from '@wdio/globals';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { billed, sandbox } from '../support/sandbox.ts';

/**
 * Against a service that computes costs in binary floating point and writes them as Python does
 * (the sandbox with --float-costs: 7 posts at 0.30 per 1,000 cost `0.0021000000000000003`):
 * every answer is on the ledger, Spend's all-time total is the service's bill with each cost
 * rounded half-even to the nano-dollar (the rule of docs/service.md), and History shows the
 * cost as sent beside the rounded one.
 */

const sidebar = () => $('nav[aria-label="Screens"]');
const historyRows = () => $$('[aria-label="Requests, newest first"] [role="listitem"] button.row');

async function open(screen: string, title = screen) {
  await sidebar().$(`a=${screen}`).click();
  await expect($(`h1=${title}`)).toBeDisplayed();
}

/** A shown amount (`$0.0189`) in nano-dollars: Spend shows at most nine decimals. */
function shownNanos(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/[$,\s]/g, '').split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9) || '0');
}

/**
 * A cost as the service wrote it (decimal or exponent form, any length) in nano-dollars, rounded
 * as the ledger rounds it: to the nearest, a tie to the even nano-dollar. Exact, in BigInt.
 */
function ledgerNanos(text: string): bigint {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a number: ${text}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${whole}${fraction}` || '0');
  const shift = Number(exponent) - fraction.length + 9;
  let nanos: bigint;
  if (shift >= 0) {
    nanos = digits * 10n ** BigInt(shift);
  } else {
    const unit = 10n ** BigInt(-shift);
    nanos = digits / unit;
    const twice = (digits % unit) * 2n;
    if (twice > unit || (twice === unit && nanos % 2n === 1n)) nanos += 1n;
  }
  return sign === '-' ? -nanos : nanos;
}

async function search(query: string, posts: number) {
  await open('X', 'X search');
  await $('#x-query').setValue(query);
  await $('#x-count').setValue(String(posts));
  const before = (await billed()).responses.length;
  await browser.keys(['Enter']);
  await browser.waitUntil(async () => (await billed()).responses.length > before, {
    timeout: 30_000,
    timeoutMsg: `the search for ${query} was never billed`,
  });
  await $('article.post').waitForDisplayed({ timeout: 30_000 });
}

describe('costs as a float-computing service sends them', () => {
  it('takes the key', async () => {
    await sidebar().waitForDisplayed({ timeout: 60_000 });
    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed();
  });

  it("puts every answer on the ledger: Spend's all time is the bill, rounded per answer", async () => {
    // 7, 3 and 34 posts at 0.30 per 1,000: 0.0021000000000000003, 0.0008999999999999999,
    // 0.010199999999999999 as Python writes them.
    await search('bitcoin', 7);
    await search('bitcoin', 3);
    await search('#JWST', 34);

    const bill = await billed();
    const texts = bill.responses.map((response) => response.cost_usd);
    expect(texts.some((text) => (text.split('.')[1] ?? '').length > 9)).toBe(true);
    const expected = texts.reduce((sum, text) => sum + ledgerNanos(text), 0n);

    await open('Spend');
    const total = $('[data-testid="spend-all"]');
    await browser.waitUntil(async () => shownNanos(await total.getText()) === expected, {
      timeout: 15_000,
      timeoutMsg: `Spend never showed the bill rounded per answer (${expected} nano-dollars)`,
    });
    await expect($('[data-testid="spend-unreadable-all"]')).not.toBeExisting();
    await screenshotBothThemes('spend-float-costs');
  });

  it('shows the cost as sent beside the rounded cost in History', async () => {
    await open('History');
    await browser.waitUntil(async () => (await historyRows().length) >= 3, { timeoutMsg: 'History lost requests' });
    // Oldest last: the 7-post search is the third row.
    const rows = await historyRows();
    await rows[2]!.click();
    const detail = $('aside.detail');
    await expect(detail).toHaveText(expect.stringContaining('$0.0021 (7 units, X searches and lookups)'));
    await expect($('[data-testid="cost-as-sent"]')).toHaveText('cost as sent: 0.0021000000000000003');
    await screenshotBothThemes('history-cost-as-sent');
  });
});
