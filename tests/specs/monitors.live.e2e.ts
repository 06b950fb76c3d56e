import { browser, $, expect } from '@wdio/globals';
import { existsSync, readFileSync } from 'node:fs';
import { auditBothThemes } from '../support/a11y.ts';
import { billed, queueFault, sandbox } from '../support/sandbox.ts';

/**
 * Monitors and long collections against the service (a standalone sandbox with posts arriving
 * at 600 a minute; wdio.conf starts it with --live-rate and --body-log for this spec, and lets
 * monitors run every 20 s): a monitor on a hashtag finds new posts, the badge counts them, a
 * notification is recorded, they are opened and marked seen; a collection of 300 posts is
 * paused, the app restarted, resumed, and ends with exactly the posts the service billed, each
 * once, every page in History (named by its collection, its query without the time bound); its posts are opened from its card. Screenshots: target/e2e-screenshots/a11y-monitors-*.png.
 */

const sidebar = () => $('nav[aria-label="Screens"]');
const monitorsLink = () => sidebar().$('a[href="#/monitors"]');
const collections = () => $('ul[aria-label="Collections"]');

async function openMonitors(tab: 'Monitors' | 'Collections' = 'Monitors') {
  await monitorsLink().click();
  await expect($('h1=Monitors')).toBeDisplayed();
  await $(`#monitors-tab-${tab.toLowerCase()}`).click();
}

/** The unseen count on the sidebar entry (0 without a badge). */
async function sidebarUnseen(): Promise<number> {
  // The words are visually hidden (read aloud, not drawn), so read the text content.
  const text = await browser.execute(() => document.querySelector('nav[aria-label="Screens"] a[href="#/monitors"]')?.textContent ?? '');
  return Number(/\(([\d,]+) unseen\)/.exec(text)?.[1]?.replace(/,/g, '') ?? 0);
}

/** An exact decimal as integer nano-dollars, so sums are exact in the test too. */
function nanos(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/[$,\s]/g, '').split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9) || '0');
}

/** The sandbox's log of every response it sent: method, target (path and query), status, hash. */
function bodyLog(): { method: string; target: string; status: number }[] {
  const file = process.env.SIGHTLINE_E2E_BODY_LOG;
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function historyTotal(): Promise<number> {
  await sidebar().$('a=History').click();
  await expect($('h1=History')).toBeDisplayed();
  const count = $('p.count');
  await browser.waitUntil(async () => /\d/.test(await count.getText()), { timeoutMsg: 'History never showed its count' });
  return Number((await count.getText()).replace(/[^\d]/g, ''));
}

describe('monitors and collections, against the service', () => {
  it('starts with a real key', async function () {
    // A first start on a loaded machine (a debug build, WebKit's first run) can take a while.
    this.timeout(180_000);
    await browser.waitUntil(async () => (await $('#welcome-key').isDisplayed()) || (await sidebar().isDisplayed()), {
      timeout: 150_000,
      timeoutMsg: 'the app did not show its window',
    });
    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed();
  });

  it('shows the Monitors screen empty, and the form with its cost before saving', async () => {
    await openMonitors();
    await expect($('p*=No monitors yet')).toBeDisplayed();
    await auditBothThemes('monitors-empty');
    await openMonitors('Collections');
    await expect($('p*=No collections yet')).toBeDisplayed();
    await auditBothThemes('collections-empty');

    await openMonitors();
    await $('button=New monitor').click();
    await $('button=Create monitor').click();
    await expect($('#monitor-name-error')).toHaveText('Give the monitor a name.');
    await $('#monitor-name').setValue('Space watch');
    await $('#monitor-query').setValue('#Space');
    await $('#monitor-intervalMinutes').selectByAttribute('value', '15');
    await $('#monitor-cap').setValue('50');
    // Before saving: the cost per run and per month (2,880 runs of 15 minutes), or that no rate is known yet.
    await browser.waitUntil(async () => /a month \(2,880 runs in 30 days\)|unknown until a rate is learned/.test(await $('.estimate').getText()), {
      timeout: 10_000,
      timeoutMsg: 'the form never showed what the monitor would cost',
    });
    await auditBothThemes('monitors-form');
  });

  it('creates a monitor on a hashtag; its badge counts new posts as runs find them, and notifies', async () => {
    await $('button=Create monitor').click();
    await expect($('a=Space watch')).toBeDisplayed();
    // The first run is due at once; then Run now asks again, and posts keep arriving meanwhile.
    await browser.waitUntil(async () => (await sidebarUnseen()) > 0, { timeout: 60_000, timeoutMsg: 'the badge never counted a new post' });
    const first = await sidebarUnseen();
    await browser.pause(3_000);
    await $('button[aria-label="Run now: Space watch"]').waitForEnabled({ timeout: 30_000 });
    await $('button[aria-label="Run now: Space watch"]').click();
    await browser.waitUntil(async () => (await sidebarUnseen()) > first, { timeout: 60_000, timeoutMsg: `the badge stayed at ${first} after Run now` });
    await auditBothThemes('monitors-list');

    // Each run that found something was announced; the log holds the notification as sent.
    const file = process.env.SIGHTLINE_E2E_NOTIFICATION_LOG as string;
    await browser.waitUntil(() => existsSync(file) && readFileSync(file, 'utf8').includes('Space watch'), {
      timeout: 20_000,
      timeoutMsg: 'no notification was recorded for the monitor',
    });
  });

  it('opens the new posts and marks them seen; the badge goes', async () => {
    await $('a=Space watch').click();
    await expect($('h1=Space watch')).toBeDisplayed();
    await expect($('[aria-label="Posts found by the monitor"] article.post')).toBeDisplayed({ wait: 20_000 });
    await expect($('p.count*=new post')).toBeDisplayed();
    await auditBothThemes('monitor-posts');
    // Pause first, so no run adds posts between the click and the check.
    await $('button[aria-label="Pause Space watch"]').click();
    await expect($('button[aria-label="Resume Space watch"]')).toBeDisplayed();
    await $('button=Mark all seen').click();
    await expect($('p*=Nothing new.')).toBeDisplayed();
    await browser.waitUntil(async () => (await sidebarUnseen()) === 0, { timeoutMsg: 'the badge stayed after Mark all seen' });

    await $('#monitor-tab-runs').click();
    await expect($('table[aria-label="Runs of Space watch"]')).toBeDisplayed();
    await expect($('table[aria-label="Runs of Space watch"]').$('td*=Done')).toBeDisplayed();
    await auditBothThemes('monitor-runs');
  });

  it('collects 300 posts across a pause and a restart, each billed and kept once', async () => {
    // From here on, every billed response and every History row is this search's or the collection's.
    const historyBefore = await historyTotal();
    const billedBefore = (await billed()).responses.length;
    await sidebar().$('a=X').click();
    await $('#x-query').setValue('#AI');
    await $('#x-sort').selectByAttribute('value', 'Latest');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    await browser.waitUntil(async () => (await billed()).responses.length === billedBefore + 1, { timeoutMsg: 'the search was not billed' });
    const sentBefore = bodyLog().length;

    // Each page of the collection takes a second, so it can be paused part-way.
    for (let page = 0; page < 40; page++) await queueFault('/twitter', { type: 'stall', ms: 1_000 });
    await $('button=Collect…').click();
    await expect($('h2=Collect posts')).toBeDisplayed();
    await $('#collect-items').setValue('300');
    // Priced before it starts, at the rate the search above was billed ($0.30 per 1,000 posts).
    await expect($('p*=Estimated cost: about $0.09 for 300 posts')).toBeDisplayed({ wait: 10_000 });
    await auditBothThemes('collect-dialog');
    await $('button=Start collecting').click();
    await $('a=see its progress').click();
    await expect($('h3*=#AI')).toBeDisplayed();
    await browser.waitUntil(async () => /\b[1-9]\d* pages?\b/.test(await $('p.figures').getText()), { timeout: 30_000, timeoutMsg: 'no page was collected' });
    await collections().$('button[aria-label^="Pause"]').click();
    await expect($('p.figures*=Paused')).toBeDisplayed({ wait: 20_000 });
    await auditBothThemes('collections-paused');

    // The app is closed and opened again (a new session starts it afresh on the same data).
    await browser.reloadSession();
    await sidebar().waitForDisplayed({ timeout: 60_000 });
    await openMonitors('Collections');
    const resume = collections().$('button[aria-label^="Resume"]');
    await resume.waitForDisplayed({ timeout: 20_000 }).catch(async (error) => {
      const page = await browser.execute(() => document.body.innerText);
      throw new Error(`${error}: after the restart the page reads "${page}"`);
    });
    await resume.click();
    await expect($('p.figures*=Done')).toBeDisplayed({ wait: 120_000 });
    const figures = await $('p.figures').getText();
    await auditBothThemes('collections-done');

    // Exactly 300 posts, on the pages the service billed, and nothing fetched twice.
    expect(figures).toContain('300 of 300 posts');
    const pages = Number(/(\d+) pages?/.exec(figures)?.[1]);
    const cost = /\$([\d.,]+) in all/.exec(figures)?.[1] ?? '';
    const after = await billed();
    const collected = after.responses.slice(billedBefore + 1);
    expect(collected.every((response) => response.route === '/twitter')).toBe(true);
    expect(collected).toHaveLength(pages);
    const billedSum = collected.reduce((sum, response) => sum + nanos(response.cost_usd), 0n);
    expect(billedSum).toBe(nanos(cost));
    // X is billed per post returned ($0.30 per 1,000). A search is paged back in time with
    // `until_time:` (whole seconds), so each later page asks the previous page's last second
    // again, lest a post of that second be lost; that one post is paid again and kept once. So the
    // service served the 300 posts kept plus at most one repeat per later page, never more.
    const postsBilled = billedSum / 300_000n;
    expect(postsBilled >= 300n && postsBilled <= 300n + BigInt(pages - 1)).toBe(true);
    const requests = bodyLog()
      .slice(sentBefore)
      .filter((line) => line.status === 200)
      .map((line) => `${line.method} ${line.target}`);
    expect(new Set(requests).size).toBe(requests.length);
    // History: the search, then each page of the collection, once.
    expect(await historyTotal()).toBe(historyBefore + 1 + pages);
    // Each page names its collection and shows the query as written, not its time bound.
    const queries = await browser.execute(() => Array.from(document.querySelectorAll('button.row .query')).map((query) => query.textContent ?? ''));
    expect(queries.filter((text) => text.startsWith('Collection: ')).length).toBeGreaterThan(1);
    expect(queries.join('\n')).not.toContain('_time:');
    await auditBothThemes('history-collection-pages');
  });

  it("opens the collection's posts from its card by keyboard, 50 at a time, newest first", async () => {
    await openMonitors('Collections');
    const open = collections().$('a[aria-label^="Open its posts"]');
    await open.waitForDisplayed();
    // From the tab, Tab reaches the card's link.
    await $('#monitors-tab-collections').click();
    let reached = false;
    for (let step = 0; step < 8 && !reached; step++) {
      await browser.keys(['Tab']);
      reached = await browser.execute(() => document.activeElement?.getAttribute('aria-label')?.startsWith('Open its posts') ?? false);
    }
    expect(reached).toBe(true);
    await browser.keys(['Enter']);
    await expect($('h1*=#AI')).toBeDisplayed();
    await expect($('p*=300 posts, newest first')).toBeDisplayed({ wait: 10_000 });
    await expect($('button=Show more (250 left)')).toBeExisting();
    const times = await browser.execute(() => Array.from(document.querySelectorAll('article.post')).map((post) => post.querySelector('time')?.getAttribute('datetime') ?? ''));
    expect(times.length).toBeGreaterThan(0);
    expect([...times].sort().reverse()).toEqual(times);
    await auditBothThemes('collection-posts');
    await $('a=← All collections').click();
    await expect(collections()).toBeDisplayed();
  });
});
