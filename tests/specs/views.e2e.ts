import { browser, $, $$, expect } from '@wdio/globals';
import { screenshotBothThemes } from '../support/screenshots.ts';

/**
 * The post and account views in demo mode, against the embedded sandbox (seed 42). The sandbox's
 * world is the same relative to its start time on every run, so these facts hold:
 * - a Top search for #JWST lists first a post by @markets_jordan with 2 replies and 62
 *   reposters (4 pages of 20, 20, 20, 2);
 * - @markets_jordan's timeline has 738 entries (37 pages of 20): far more than 4 pages.
 */

const sidebar = () => $('nav[aria-label="Screens"]');

/** The number a list's summary line starts with ("40 accounts · 2 pages · …"). */
async function leadingCount(selector: string): Promise<number> {
  const summary = $(selector);
  if (!(await summary.isExisting())) return 0;
  return Number.parseInt(await summary.getText(), 10) || 0;
}

async function waitForMore(selector: string, than: number, what: string) {
  try {
    await browser.waitUntil(async () => (await leadingCount(selector)) > than, { timeout: 30_000 });
  } catch {
    // Say what the screen showed: the summary line and any error in the list's footer.
    const footer = await browser.execute(() => document.querySelector('.page-footer')?.textContent?.trim() ?? '(no footer)');
    throw new Error(`${what}: still ${than} after asking for the next page; summary "${await $(selector).getText()}"; footer "${footer}"`);
  }
  return leadingCount(selector);
}

/**
 * Asks for a list's next page with its Load more button, as a user does: brought into view,
 * then clicked once it has stopped moving (rows measured as they come into view can push the
 * footer down between a scroll and a click). Bringing it into view can also show the
 * infinite-scroll sentinel just below it, which asks for the page itself; either way exactly
 * one more page is on its way, so the click is skipped while one already is.
 */
async function loadMore(panel: string) {
  await $(panel).$('button=Load more').waitForEnabled({ timeout: 30_000 });
  // Found afresh each time: a page arriving meanwhile re-renders the footer.
  const where = () =>
    browser.execute((selector) => {
      const button = [...document.querySelectorAll<HTMLButtonElement>(`${selector} .page-footer button`)].find((b) => b.textContent?.trim() === 'Load more');
      return button ? `${Math.round(button.getBoundingClientRect().top)}${button.disabled ? ' disabled' : ''}` : 'loading';
    }, panel);
  await browser.execute((selector) => document.querySelector(`${selector} .page-footer button`)?.scrollIntoView({ block: 'center' }), panel);
  let last = '';
  await browser.waitUntil(
    async () => {
      const at = await where();
      const settled = at === last;
      last = at;
      return settled;
    },
    { timeout: 10_000, interval: 150, timeoutMsg: `${panel}: Load more kept moving` },
  );
  if (!last.includes('disabled') && last !== 'loading') await $(panel).$('button=Load more').click();
}

/** Waits until a paged list has no page on its way (its Load more is back, or the list ended). */
async function idle(panel: string) {
  await browser.waitUntil(async () => !(await $(panel).$('button=Sending…').isExisting()), {
    timeout: 30_000,
    timeoutMsg: `${panel}: a page stayed on its way`,
  });
}

async function searchX(query: string) {
  await sidebar().$('a=X').click();
  await expect($('h1=X search')).toBeDisplayed();
  const field = $('#x-query');
  await field.clearValue();
  await field.setValue(query);
  await browser.keys(['Enter']);
  await $('article.post').waitForDisplayed({ timeout: 30_000 });
}

describe('post and account views, demo mode', () => {
  before(async () => {
    await $('button=Explore with demo data').click();
    await expect($('[data-testid="demo-badge"]')).toBeDisplayed();
  });

  it('opens a post from an X search, with its replies and its reposters paged by Load more', async () => {
    await searchX('#JWST');
    await $('article.post').$('a=View post').click();
    await expect($('h1=Post')).toBeDisplayed();
    // The post view is not a sidebar screen: X stays marked as where the user is.
    await expect(sidebar().$('a=X')).toHaveAttribute('aria-current', 'page');
    const post = $('section[aria-label="The post"] article.post');
    await post.waitForDisplayed({ timeout: 30_000 });
    await expect($('section[aria-label="The post"] [role="status"]')).toHaveText(expect.stringMatching(/^Cost \$0\.\d+/));

    await $('button=Show replies').click();
    await browser.waitUntil(async () => (await $$('#post-panel-replies article.post').length) > 0, {
      timeout: 30_000,
      timeoutMsg: 'no replies were shown',
    });
    await expect($('#post-panel-replies p.summary')).toHaveText(expect.stringMatching(/^\d+ repl(y|ies), oldest first · Cost \$/));

    await $('#post-tab-reposters').click();
    await $('button=Show who reposted').click();
    const summary = '#post-panel-reposters p.summary';
    let shown = await waitForMore(summary, 0, 'reposters');
    expect(shown).toBe(20);
    expect(await $$('#post-panel-reposters article.user').length).toBeGreaterThan(0);
    for (let ask = 0; ask < 2; ask++) {
      await loadMore('#post-panel-reposters');
      shown = await waitForMore(summary, shown, 'reposters');
      await idle('#post-panel-reposters');
    }
    // 62 reposters, 20 a page: at least three pages now, each one counted once.
    shown = await leadingCount(summary);
    const pages = Math.ceil(shown / 20);
    expect(shown === 62 || shown % 20 === 0).toBe(true);
    expect(shown).toBeGreaterThanOrEqual(60);
    await expect($(summary)).toHaveText(
      shown === 62
        ? expect.stringMatching(/^62 accounts · 4 pages · cost \$0\.\d+$/)
        : expect.stringMatching(new RegExp(`^${shown} accounts · ${pages} pages · cost \\$0\\.\\d+ · more available$`)),
    );
    await screenshotBothThemes('post-view');
  });

  it('goes back to the search as it was, opens the author, and pages the timeline three times', async () => {
    await $('button*=Back').click();
    await expect($('h1=X search')).toBeDisplayed();
    // The results were kept behind the post view: nothing was fetched again.
    await expect($('#x-query')).toHaveValue('#JWST');
    await expect($('article.post')).toBeDisplayed();

    await $('article.post a.author').click();
    await $('section[aria-label^="Profile of"]').waitForDisplayed({ timeout: 30_000 });
    const summary = '#user-panel-posts p.summary';
    let shown = await waitForMore(summary, 0, 'timeline');
    expect(shown).toBe(20);

    // 1: the Load more button.
    await loadMore('#user-panel-posts');
    shown = await waitForMore(summary, shown, 'timeline (Load more)');
    // 2: infinite scroll, by scrolling the list to its end, as a user does: rows measured as
    // they come into view make the list longer than its estimate, so keep scrolling until the
    // next page arrives.
    const before = shown;
    await browser.waitUntil(
      async () => {
        await browser.execute(() => {
          const scroller = document.querySelector('#user-panel-posts .scroller');
          if (scroller) scroller.scrollTop = scroller.scrollHeight;
        });
        return (await leadingCount(summary)) > before;
      },
      { timeout: 30_000, interval: 500, timeoutMsg: `timeline (infinite scroll): still ${before} after scrolling to the end` },
    );
    // A page the last scroll asked for may still be on its way: read the count once it is in.
    await idle('#user-panel-posts');
    shown = await leadingCount(summary);
    // 3: the button again.
    await loadMore('#user-panel-posts');
    shown = await waitForMore(summary, shown, 'timeline (Load more again)');
    expect(shown).toBeGreaterThanOrEqual(80);
    await browser.execute(() => {
      const scroller = document.querySelector('#user-panel-posts .scroller');
      if (scroller) scroller.scrollTop = 0;
    });
    await screenshotBothThemes('user-view');
  });

  it('walks the X results with the arrow keys and opens the focused post with Enter', async () => {
    // The search from the first test is still there behind the views opened since.
    await sidebar().$('a=X').click();
    await expect($('h1=X search')).toBeDisplayed();
    await $('article.post').waitForDisplayed();
    await browser.execute(() => document.querySelector<HTMLElement>('article.post[data-nav-index="0"]')?.focus());
    const focusedIndex = () => browser.execute(() => document.activeElement?.getAttribute('data-nav-index') ?? null);
    await browser.keys(['ArrowDown']);
    await browser.waitUntil(async () => (await focusedIndex()) === '1', { timeoutMsg: 'ArrowDown did not move to the second card' });
    // The last of 20 cards is below the rendered rows: the list scrolls to it first.
    await browser.keys(['End']);
    await browser.waitUntil(async () => (await focusedIndex()) === '19', { timeoutMsg: 'End did not reach the last card' });
    await browser.keys(['Home']);
    await browser.waitUntil(async () => (await focusedIndex()) === '0', { timeoutMsg: 'Home did not return to the first card' });
    await browser.keys(['Enter']);
    await expect($('h1=Post')).toBeDisplayed();
    await browser.keys(['Escape']);
    await expect($('h1=X search')).toBeDisplayed();
  });
});
