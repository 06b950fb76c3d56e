import { browser, $, $$, expect } from '@wdio/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { countColour, decodePng } from '../support/png.ts';
import { screenshot, screenshotBothThemes, setTheme } from '../support/screenshots.ts';
import { screenshotDir } from '../support/app.ts';

/**
 * The network and the conversation tree in the real app (demo mode, the embedded sandbox): an X
 * search for #JWST, whose first post (by @markets_jordan) has replies and reposters; its first
 * page of reposters fetched; the search's analysis then draws a repost edge from each of those
 * reposters to the author. The account with most posts, chosen in the network's table, lists
 * exactly its posts in the scope (as many as its node counts, each its own), closes with Esc and
 * narrows the analysis; the top account of the top lists lists as many as it counts. The GEXF
 * export, parsed as XML, holds as many nodes and edges as the view's tables. The post's
 * conversation holds the replies its replies tab showed; the post it answers, never fetched, is
 * offered with its estimate and fetched, and the tree then starts at it.
 */

const handleOf = (label: string) => label.replace(/^@/, '').toLowerCase();

/** The post ids a list of cards links to ("View post"), in order. */
function linkedPostIds(container: string): Promise<string[]> {
  return browser.execute((selector: string) => {
    return [...document.querySelectorAll(`${selector} article.post a[href^="#/post?id="]`)].map((link) =>
      decodeURIComponent((link.getAttribute('href') ?? '').replace('#/post?id=', '')),
    );
  }, container);
}

/**
 * Every card of the account-posts dialog (scrolled through, as its list renders only the rows
 * near view, each page loaded): its post id, author handle and aria-setsize.
 */
async function listedPosts(): Promise<{ id: string; author: string; setSize: number }[]> {
  const seen = new Map<string, { id: string; author: string; setSize: number }>();
  for (let step = 0; step < 200; step++) {
    const more = $('[data-testid="account-posts"]').$('button*=Show more');
    if ((await more.isExisting()) && (await more.isEnabled())) await more.click();
    const { cards, end } = await browser.execute(() => {
      const scroller = document.querySelector<HTMLElement>('[data-testid="account-posts"] .scroller');
      const cards = [...document.querySelectorAll<HTMLElement>('[data-testid="account-posts"] article.post[aria-setsize]')].map((card) => ({
        id: decodeURIComponent((card.querySelector('a[href^="#/post?id="]')?.getAttribute('href') ?? '').replace('#/post?id=', '')),
        author: decodeURIComponent(card.querySelector('a.author')?.getAttribute('href') ?? '').replace(/^.*handle=/, '').toLowerCase(),
        setSize: Number(card.getAttribute('aria-setsize')),
      }));
      const end = !scroller || scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
      if (scroller) scroller.scrollTop += scroller.clientHeight / 2;
      return { cards, end };
    });
    for (const card of cards) seen.set(card.id, card);
    // The count says "; N shown" until every page is loaded.
    const allLoaded = !(await $('[data-testid="account-posts-count"]').getText()).includes('shown');
    if (end && allLoaded) break;
    await browser.pause(100);
  }
  return [...seen.values()];
}

/**
 * The accounts, drawn by WebGL, are seen in both themes after a switch with the picture open:
 * discs in the theme's text colour, counted in a screenshot of the stage (the canvas's pixels
 * cannot be read from the page), below the zoom buttons. They once stayed near-black on the
 * dark background.
 */
async function expectAccountsDrawnInEachTheme(): Promise<void> {
  await $('[data-testid="network-stage"]').scrollIntoView({ block: 'center' });
  const drawn: Record<string, number> = {};
  for (const [theme, disc, tolerance] of [['light', '#1b1f24', 12], ['dark', '#e6edf3', 30], ['light', '#1b1f24', 12]] as const) {
    await setTheme(theme);
    await screenshot(`analysis-network-switched-${theme}`);
    const { box, width } = await browser.execute(() => {
      const stage = document.querySelector('[data-testid="network-stage"]')!.getBoundingClientRect();
      const zoom = document.querySelector('.zoom')!.getBoundingClientRect();
      return { box: { x: stage.x, y: zoom.bottom + 4, width: stage.width, height: stage.bottom - zoom.bottom - 4 }, width: window.innerWidth };
    });
    const picture = decodePng(readFileSync(path.join(screenshotDir, `analysis-network-switched-${theme}.png`)));
    drawn[theme] = countColour(picture, box, disc, tolerance, picture.width / width);
  }
  expect(drawn.light).toBeGreaterThan(100);
  // The same discs in the dark theme's colour: as many, give or take antialiasing.
  expect(drawn.dark).toBeGreaterThan((drawn.light ?? 0) * 0.6);
}

describe('network and conversation tree', () => {
  let author = '';
  let reposters: string[] = [];
  let replyIds: string[] = [];
  const folder = mkdtempSync(path.join(tmpdir(), 'sightline-network-exports-'));

  it('fetches a post of an X search with its replies and its first reposters', async () => {
    await enterDemo();
    await openScreen('Settings');
    await $('#pref-exportFolder').setValue(folder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();

    await openScreen('X', 'X search');
    await $('#x-query').setValue('#JWST');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    author = handleOf(await $('article.post a.author').getAttribute('href').then((href) => decodeURIComponent(href ?? '').replace(/^.*handle=/, '')));
    await $('article.post').$('a=View post').click();
    await $('section[aria-label="The post"] article.post').waitForDisplayed({ timeout: 30_000 });

    await $('button=Show replies').click();
    await browser.waitUntil(async () => (await $$('#post-panel-replies article.post').length) > 0, { timeout: 30_000, timeoutMsg: 'no replies were shown' });
    replyIds = await linkedPostIds('#post-panel-replies');
    expect(replyIds.length).toBeGreaterThan(0);

    await $('#post-tab-reposters').click();
    await $('button=Show who reposted').click();
    await browser.waitUntil(async () => (await $$('#post-panel-reposters article.user').length) > 0, { timeout: 30_000, timeoutMsg: 'no reposters were shown' });
    reposters = await browser.execute(() =>
      [...document.querySelectorAll('#post-panel-reposters article.user .handle')].map((handle) => (handle.textContent ?? '').replace(/^@/, '').toLowerCase()),
    );
    expect(reposters.length).toBeGreaterThan(0);
    expect(author).not.toBe('');
  });

  it("draws each reposter's repost of the author in the search's network", async () => {
    await $('button*=Back').click();
    await $('button[aria-label="Analyse these results"]').waitForDisplayed({ timeout: 15_000 });
    await $('button[aria-label="Analyse these results"]').click();
    await $('#analysis-tab-network').click();
    await $('[data-testid="network-summary"]').waitForDisplayed({ timeout: 30_000 });
    // Reposts only: every reposter fetched → the author.
    for (const kind of ['reply', 'quote', 'mention']) await $(`[data-testid="edge-kind-${kind}"]`).click();
    await browser.waitUntil(async () => /repost/.test(await $('[data-testid="network-summary"]').getText()) && !/repl|quote|mention/.test(await $('[data-testid="network-summary"]').getText()), {
      timeout: 15_000,
      timeoutMsg: 'the network did not narrow to reposts',
    });
    await $('button=Show the tables').click();
    const edges = await browser.execute(() =>
      [...document.querySelectorAll('[data-testid="network-edges"] tbody tr')].map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent?.trim() ?? '')),
    );
    const reposts = new Set(edges.filter(([, , kind]) => kind === 'repost').map(([from, to]) => `${handleOf(from ?? '')}>${handleOf(to ?? '')}`));
    for (const reposter of reposters) {
      if (reposter !== author) expect(reposts.has(`${reposter}>${author}`)).toBe(true);
    }
    await browser.waitUntil(async () => /Laid out in/.test(await $('[data-testid="layout-note"]').getText()), { timeout: 30_000, timeoutMsg: 'the layout did not finish' });
    await screenshotBothThemes('analysis-network');
    await expectAccountsDrawnInEachTheme();
    await auditBothThemes('analysis-network');
  });

  it("lists a chosen account's posts in the scope, as many as its node counts, and narrows the analysis to them", async () => {
    // Every kind of edge again; the account that wrote the most of the scope's posts.
    for (const kind of ['reply', 'quote', 'mention']) await $(`[data-testid="edge-kind-${kind}"]`).click();
    await browser.waitUntil(async () => /repl/.test(await $('[data-testid="network-summary"]').getText()), { timeout: 15_000, timeoutMsg: 'the network did not take the replies back' });
    const [label, nodePosts] = await browser.execute(() => {
      const rows = [...document.querySelectorAll('[data-testid="network-nodes"] tbody tr')].map((tr) => [tr.querySelector('th')?.textContent?.trim() ?? '', Number(tr.querySelector('td')?.textContent?.trim())] as [string, number]);
      return rows.sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    });
    expect(nodePosts).toBeGreaterThan(0);

    // Chosen from the table by keyboard: its posts, each its own, focus inside the dialog.
    await $('[data-testid="network-nodes"]').$(`button=${label}`).scrollIntoView();
    await browser.execute((name: string) => {
      [...document.querySelectorAll<HTMLButtonElement>('[data-testid="network-nodes"] tbody th button')].find((button) => button.textContent?.trim() === name)?.focus();
    }, label);
    await browser.keys(['Enter']);
    const dialog = $('[data-testid="account-posts"]');
    await dialog.waitForDisplayed({ timeout: 15_000 });
    await expect(dialog.$('h2')).toHaveText(`Posts by ${label} in this scope`);
    const count = dialog.$('[data-testid="account-posts-count"]');
    await browser.waitUntil(async () => /newest first/.test(await count.getText()), { timeout: 15_000, timeoutMsg: 'the posts were not listed' });
    expect(await count.getText()).toMatch(new RegExp(`^${nodePosts} posts?, newest first`));
    expect(await browser.execute(() => !!document.activeElement?.closest('[data-testid="account-posts"]'))).toBe(true);
    await dialog.$('article.post').waitForDisplayed({ timeout: 15_000 });
    await screenshotBothThemes('analysis-network-account-posts');
    await auditBothThemes('analysis-network-account-posts');
    const listed = await listedPosts();
    expect(listed.length).toBe(nodePosts);
    expect(new Set(listed.map((card) => card.id)).size).toBe(nodePosts);
    for (const card of listed) expect([card.author, card.setSize]).toEqual([handleOf(label), nodePosts]);

    // Esc closes the list only: the analysis stays, with the account's links.
    await browser.keys(['Escape']);
    await dialog.waitForDisplayed({ reverse: true, timeout: 5_000 });
    await expect($('h1*=Analysis of')).toBeDisplayed();
    const chosen = $('[data-testid="network-chosen"]');
    await expect(chosen).toHaveText(expect.stringMatching(/ \d+ links? out, \d+ links? in/));
    expect(await browser.execute(() => document.activeElement?.textContent?.trim() ?? '')).toBe(label);
    await chosen.scrollIntoView({ block: 'start' });
    await screenshotBothThemes('analysis-network-chosen');

    // Listed again from there, and the whole analysis narrowed to it from the list.
    await chosen.$('button*=List').click();
    await dialog.$('button*=Narrow the analysis to').waitForEnabled({ timeout: 15_000 });
    await dialog.$('button*=Narrow the analysis to').click();
    await expect($('[data-testid="filter-chip"]')).toHaveText(expect.stringContaining(label));
    await expect(dialog).not.toBeDisplayed();
    const remove = $('[data-testid="filter-chip"] button');
    await remove.scrollIntoView({ block: 'center' });
    await remove.click();
    await $('[data-testid="filter-chip"]').waitForExist({ reverse: true, timeout: 5_000 });
  });

  it('lists the top account of the top lists the same way, as many posts as it counts', async () => {
    await $('#analysis-tab-top').click();
    const top = $('[data-testid="top-accounts_by_posts"]');
    await top.$('tbody tr').waitForDisplayed({ timeout: 15_000 });
    const [label, counted] = await browser.execute(() => {
      const row = document.querySelector('[data-testid="top-accounts_by_posts"] tbody tr');
      return [row?.querySelector('th')?.textContent?.trim() ?? '', Number(row?.querySelector('[data-testid="top-count"]')?.textContent)] as const;
    });
    expect(counted).toBeGreaterThan(0);
    await top.$(`button=${label}`).click();
    const dialog = $('[data-testid="account-posts"]');
    await dialog.waitForDisplayed({ timeout: 15_000 });
    await expect(dialog.$('h2')).toHaveText(`Posts by ${label} in this scope`);
    const count = dialog.$('[data-testid="account-posts-count"]');
    await browser.waitUntil(async () => /newest first/.test(await count.getText()), { timeout: 15_000, timeoutMsg: 'the posts were not listed' });
    expect(await count.getText()).toMatch(new RegExp(`^${counted} posts?, newest first`));
    const listed = await listedPosts();
    expect(listed.length).toBe(counted);
    for (const card of listed) expect(card.author).toBe(handleOf(label));
    await browser.keys(['Escape']);
    await dialog.waitForDisplayed({ reverse: true, timeout: 5_000 });
    await expect($('h1*=Analysis of')).toBeDisplayed();
    await $('#analysis-tab-network').click();
    await $('[data-testid="network-nodes"]').waitForDisplayed({ timeout: 15_000 });
  });

  it('exports the network as GEXF with as many nodes and edges as the view shows', async () => {
    const shownNodes = Number.parseInt(await $('[data-testid="network-nodes"] caption').getText(), 10);
    const shownEdges = Number.parseInt(await $('[data-testid="network-edges"] caption').getText(), 10);
    await $('button=Export GEXF').click();
    const note = $('[data-testid="network-export-note"]');
    await browser.waitUntil(async () => (await note.getText()).startsWith('Saved to '), { timeout: 15_000, timeoutMsg: 'the GEXF was not saved' });
    const file = (await note.getText()).replace('Saved to ', '');
    expect(path.dirname(file)).toBe(folder);
    const gexf = readFileSync(file, 'utf8');
    // Parsed by the webview's own XML parser: a malformed file would give a parsererror document.
    const counted = await browser.execute((text: string) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        error: doc.getElementsByTagName('parsererror').length,
        nodes: doc.getElementsByTagName('node').length,
        edges: doc.getElementsByTagName('edge').length,
      };
    }, gexf);
    expect(counted).toEqual({ error: 0, nodes: shownNodes, edges: shownEdges });
  });

  it("opens the post's conversation tree with the replies its replies tab showed", async () => {
    await $('button*=Back').click();
    await $('article.post').$('a=View post').click();
    await $('section[aria-label="The post"] article.post').waitForDisplayed({ timeout: 30_000 });
    await $('[data-testid="post-conversation"]').click();
    await $('[data-testid="conversation-tree"]').waitForDisplayed({ timeout: 30_000 });
    const items = await browser.execute(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="conversation-tree"] [role="treeitem"]')].map((item) => ({
        id: item.dataset.id ?? '',
        level: Number(item.getAttribute('aria-level')),
        relation: item.dataset.relation ?? '',
      })),
    );
    // The replies operation returns the whole thread under the post: replies to replies sit deeper.
    const replies = items.filter((item) => item.relation === 'reply').map((item) => item.id);
    expect(new Set(replies)).toEqual(new Set(replyIds));
    expect(items[0]?.level).toBe(1);
    // The keyboard walks it: the first item takes focus, Down moves to the next.
    await $('[data-testid="conversation-tree"] [role="treeitem"][tabindex="0"]').click();
    await browser.keys(['ArrowDown']);
    const focused = await browser.execute(() => (document.activeElement as HTMLElement | null)?.dataset.id ?? '');
    expect(focused).toBe(items[1]?.id ?? items[0]?.id);
    await screenshotBothThemes('analysis-conversation');
    await auditBothThemes('analysis-conversation');

    // The post answers one never fetched: the fetch offers it with the missing replies, its
    // estimate first; fetched, the tree starts at it.
    const parentLink = $('.missing-parent a');
    await expect(parentLink).toBeExisting();
    const parentId = decodeURIComponent((await parentLink.getAttribute('href')) ?? '').replace(/^.*[?&]id=/, '');
    await expect($('[data-testid="fetch-missing"]')).toHaveText(expect.stringMatching(/^Fetch the post it answers/));
    await $('[data-testid="fetch-missing"]').click();
    await expect($('[data-testid="fetch-estimate"]')).toHaveText(expect.stringMatching(/^\d+ requests? for the post it answers/));
    await $('button=Fetch now').click();
    // The replies the service sent are told apart: new ones, and those the tree held already.
    await expect($('[data-testid="fetch-note"]')).toHaveText(
      expect.stringMatching(/^Fetched the post it answers( and \d+ new repl(y|ies))? in \d+ requests?(; \d+ repl(y|ies) (was|were) already stored)? · cost \$0\.\d+$/),
      { wait: 30_000 },
    );
    const first = await browser.execute(() => document.querySelector<HTMLElement>('[data-testid="conversation-tree"] [role="treeitem"]')?.dataset.id ?? '');
    expect(first).toBe(parentId);
    await screenshotBothThemes('analysis-conversation-parent-fetched');
  });
});
