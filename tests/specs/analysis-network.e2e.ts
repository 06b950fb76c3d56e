import { browser, $, $$, expect } from '@wdio/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

/**
 * The network and the conversation tree in the real app (demo mode, the embedded sandbox): an X
 * search for #JWST, whose first post (by @markets_jordan) has replies and reposters; its first
 * page of reposters fetched; the search's analysis then draws a repost edge from each of those
 * reposters to the author. The GEXF export, parsed as XML, holds as many nodes and edges as the
 * view's tables. The post's conversation tree holds the replies its replies tab showed.
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

    await $('#post-tab-retweeters').click();
    await $('button=Show who reposted').click();
    await browser.waitUntil(async () => (await $$('#post-panel-retweeters article.user').length) > 0, { timeout: 30_000, timeoutMsg: 'no reposters were shown' });
    reposters = await browser.execute(() =>
      [...document.querySelectorAll('#post-panel-retweeters article.user .handle')].map((handle) => (handle.textContent ?? '').replace(/^@/, '').toLowerCase()),
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
    await auditBothThemes('analysis-network');

    // The author, chosen from the table by keyboard: its links, then the analysis narrowed to its posts.
    const authorLabel = edges.find(([from, to, kind]) => kind === 'repost' && handleOf(to ?? '') === author && from)?.[1] ?? `@${author}`;
    const authorButton = $('[data-testid="network-nodes"]').$(`button=${authorLabel}`);
    await authorButton.scrollIntoView();
    await authorButton.click();
    const chosen = $('[data-testid="network-chosen"]');
    await expect(chosen).toHaveText(expect.stringMatching(/ \d+ links? out, \d+ links? in/));
    await screenshotBothThemes('analysis-network-chosen');
    await chosen.$('button*=posts here').click();
    await expect($('[data-testid="filter-chip"]')).toHaveText(expect.stringContaining(authorLabel));
    await $('[data-testid="filter-chip"] button').click();
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
  });
});
