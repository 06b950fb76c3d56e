import { browser, $, $$, expect } from '@wdio/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

/** What one result card says of itself: its hashtags (lower-case, once each) and its UTC time. */
interface Card {
  tags: string[];
  time: string;
}

/**
 * Every result the list shows: the scope an X search's analysis reads. A post a result quotes,
 * drawn inside its card, is not one of them. The list draws only the cards in view, so it is
 * scrolled through; a result shown twice counts once.
 */
async function readCards(): Promise<Card[]> {
  const found = new Map<string, Card>();
  const places = new Set<number>();
  const total = Number(await $('article.post[data-nav-index]').getAttribute('aria-setsize'));
  const scroll = (to: 'top' | 'down') =>
    browser.execute((where: string) => {
      let box: HTMLElement | null = document.querySelector('article.post[data-nav-index]');
      while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
      if (box) box.scrollTop = where === 'top' ? 0 : box.scrollTop + box.clientHeight * 0.7;
    }, to);
  await scroll('top');
  await browser.pause(100);
  for (let step = 0; step < 200 && places.size < total; step++) {
    const shown = await browser.execute(() =>
      [...document.querySelectorAll<HTMLElement>('article.post[data-nav-index]')].map((card) => {
        // Its own text and time, not those of the post it quotes.
        const own = (selector: string) => [...card.querySelectorAll(selector)].find((element) => element.closest('article.post') === card);
        const text = own('p.text')?.textContent ?? '';
        const time = own('time')?.getAttribute('datetime') ?? '';
        return {
          place: Number(card.dataset.navIndex),
          key: `${time}|${own('a.author')?.getAttribute('href') ?? ''}|${text}`,
          tags: [...new Set([...text.matchAll(/#(\w+)/g)].map((match) => match[1]!.toLowerCase()))],
          time,
        };
      }),
    );
    for (const { place, key, ...card } of shown) {
      places.add(place);
      found.set(key, card);
    }
    await scroll('down');
    await browser.pause(100);
  }
  expect(places.size).toBe(total);
  return [...found.values()];
}

/** The heatmap's cells as shown: grid[weekday][hour], Monday first. */
function readGrid(): Promise<number[][]> {
  return browser.execute(() => {
    const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
    for (const cell of document.querySelectorAll<HTMLElement>('[data-testid="heatmap"] td[data-day]')) {
      grid[Number(cell.dataset.day)]![Number(cell.dataset.hour)] = Number(cell.dataset.count);
    }
    return grid;
  });
}

/** The grid the cards' times give when the clock is `offsetMinutes` ahead of UTC. */
function expectedGrid(cards: Card[], offsetMinutes: number): number[][] {
  const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const card of cards) {
    const local = new Date(new Date(card.time).getTime() + offsetMinutes * 60_000);
    const weekday = (local.getUTCDay() + 6) % 7;
    grid[weekday]![local.getUTCHours()]! += 1;
  }
  return grid;
}

/** Presses a Save button and answers the file it wrote, as the status beside it names it. */
async function saved(button: string, inside: string): Promise<Buffer> {
  const status = $(inside).$('.chart-actions [role="status"]');
  await $(inside).$(`button[aria-label="${button}"]`).click();
  await expect(status).toHaveText(expect.stringMatching(/^Saved to /), { wait: 15_000 });
  const file = (await status.getText()).replace(/^Saved to /, '');
  expect(path.dirname(file)).toBe(exportFolder);
  return readFileSync(file);
}

const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-analysis-exports-'));

async function chooseZone(zone: string): Promise<void> {
  await $('#hours-zone').selectByAttribute('value', zone);
  await browser.waitUntil(async () => (await $('[data-testid="heatmap"]').getAttribute('data-zone')) === zone, {
    timeout: 15_000,
    timeoutMsg: `the heatmap did not switch to ${zone}`,
  });
}

/**
 * The analysis of an X search in the real app (demo mode): opened from the results, it names the
 * search and counts its cards; the top hashtag's count is the number of cards carrying it, and
 * choosing it narrows every view; the posting-hours grid moves by 5½ hours from UTC to
 * Asia/Kolkata, cell for cell as the cards' own times say; a range picked on the activity chart
 * narrows the views until Reset range. Each view is screenshotted and audited in both themes.
 */
describe('analysis of an X search', () => {
  let cards: Card[] = [];

  it('opens from the results and names the search with its post count', async () => {
    await enterDemo();
    await openScreen('Settings');
    await $('#pref-exportFolder').setValue(exportFolder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();
    await openScreen('X', 'X search');
    await $('#x-query').setValue('flood');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    cards = await readCards();
    expect(cards.length).toBeGreaterThan(0);

    await $('button[aria-label="Analyse these results"]').click();
    await expect($('h1*=Analysis of X search')).toBeDisplayed();
    await expect($('[data-testid="analysis-count"]')).toHaveText(`${cards.length} ${cards.length === 1 ? 'post' : 'posts'}`);
    await $('#activity-title').waitForDisplayed({ timeout: 15_000 });
    await $('.plot canvas').waitForDisplayed({ timeout: 15_000 });
    await screenshotBothThemes('analysis-activity');
    await auditBothThemes('analysis-activity');
  });

  it('shows the activity as a table too, and stacks by account kind', async () => {
    await $('button=Show the table').click();
    const rows = await $$('#activity-table tbody tr').length;
    expect(rows).toBeGreaterThan(0);
    const posts = await browser.execute(() =>
      [...document.querySelectorAll('#activity-table tbody tr')].reduce((sum, row) => sum + Number(row.querySelector('td:nth-last-child(2)')?.textContent ?? 0), 0),
    );
    expect(posts).toBe(cards.length);
    await $('label=Account kind').click();
    await expect($('#activity-table caption')).toHaveText(expect.stringContaining('by account kind'));
    await auditBothThemes('analysis-activity-table');
    await $('button=Hide the table').click();

    // Saved for a report: the canvas as PNG, the same series drawn as SVG, the table as CSV.
    const png = await saved('Save PNG of the activity chart', '.activity');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const svg = (await saved('Save SVG of the activity chart', '.activity')).toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('times in UTC');
    expect(svg).toContain('Blue check');
    const csv = (await saved("Export CSV of the activity chart's table", '.activity')).toString('utf8');
    expect(csv.trim().split('\n').length).toBe(rows + 1);
  });

  it('narrows every view to a range dragged across the chart', async () => {
    const over = $('.plot .u-over');
    const { width } = await over.getSize();
    // From a quarter of the way across to the right end: whole buckets, as the chip says.
    await browser
      .action('pointer')
      .move({ origin: over, x: -Math.round(width / 4), y: 0 })
      .down()
      .move({ origin: over, x: Math.round(width / 2) - 1, y: 0, duration: 200 })
      .up()
      .perform();
    const chip = $('[data-testid="range-chip"]');
    await expect(chip).toBeDisplayed({ wait: 10_000 });
    const [from, to] = await chip.$$('time').map((time) => time.getAttribute('datetime'));
    const inside = cards.filter((card) => card.time >= from! && card.time < to!).length;
    expect(inside).toBeGreaterThan(0);
    await expect($('.chips [role="status"]')).toHaveText(`${inside} ${inside === 1 ? 'post' : 'posts'} of ${cards.length}`);
    await $('button=Reset range').click();
    await expect(chip).not.toBeExisting();
  });

  it("counts the top hashtag on exactly the cards that carry it, and narrows to it", async () => {
    await $('#analysis-tab-top').click();
    const hashtags = $('[data-testid="top-hashtags"]');
    await hashtags.$('tbody tr').waitForDisplayed({ timeout: 15_000 });
    const first = hashtags.$('tbody tr');
    // Read as text content: WebKit's driver gives no visible text for a cell that clips its overflow.
    const label = String(await first.$('th button').getProperty('textContent')).trim();
    const count = Number(await first.$('[data-testid="top-count"]').getProperty('textContent'));
    expect(label).toMatch(/^#\w+$/);
    const tag = label.replace(/^#/, '').toLowerCase();
    const carrying = cards.filter((card) => card.tags.includes(tag)).length;
    expect(count).toBe(carrying);
    await screenshotBothThemes('analysis-top');
    await auditBothThemes('analysis-top');

    const csv = (await saved("Export CSV of the hashtags list's table", '[data-testid="top-hashtags"]')).toString('utf8');
    expect(csv).toContain(tag);

    await first.$('th button').click();
    await expect($('[data-testid="filter-chip"]')).toHaveText(expect.stringContaining(`Hashtag ${label}`));
    await expect($('.chips [role="status"]')).toHaveText(`${carrying} ${carrying === 1 ? 'post' : 'posts'} of ${cards.length}`);
    await $('button[aria-label^="Remove the filter Hashtag"]').click();
    await expect($('[data-testid="filter-chip"]')).not.toBeExisting();
  });

  it('moves the posting hours by 5½ hours from UTC to Asia/Kolkata', async () => {
    await $('#analysis-tab-hours').click();
    await $('[data-testid="heatmap"]').waitForDisplayed({ timeout: 15_000 });
    await chooseZone('UTC');
    await expect($('[data-testid="heatmap-zone"]')).toHaveText('UTC');
    const utc = await readGrid();
    expect(utc).toEqual(expectedGrid(cards, 0));
    await screenshotBothThemes('analysis-hours-utc');

    await chooseZone('Asia/Kolkata');
    await expect($('[data-testid="heatmap-zone"]')).toHaveText('Asia/Kolkata (UTC+05:30)');
    const kolkata = await readGrid();
    expect(kolkata).toEqual(expectedGrid(cards, 330));
    expect(kolkata.flat().reduce((a, b) => a + b, 0)).toBe(cards.length);
    await screenshotBothThemes('analysis-hours-kolkata');
    await auditBothThemes('analysis-hours');
    const svg = (await saved('Save SVG of the posting hours heatmap', '.heatmap')).toString('utf8');
    expect(svg).toContain('in Asia/Kolkata (UTC+05:30)');
    const png = await saved('Save PNG of the posting hours heatmap', '.heatmap');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it('narrows every view to a range picked on the activity chart, until Reset range', async () => {
    await $('#analysis-tab-activity').click();
    expect(await $$('#activity-range-from option').length).toBeGreaterThan(0);
    // The keyboard way: the first bucket alone.
    await $('#activity-range-from').selectByIndex(0);
    await $('#activity-range-to').selectByIndex(0);
    await $('button*=Narrow to these').click();
    await expect($('[data-testid="range-chip"]')).toBeDisplayed();
    const narrowed = await $('.chips [role="status"]').getText();
    const [shown] = narrowed.match(/^\d+/) ?? ['0'];
    expect(Number(shown)).toBeLessThanOrEqual(cards.length);
    await auditBothThemes('analysis-range');
    await $('button=Reset range').click();
    await expect($('[data-testid="range-chip"]')).not.toBeExisting();

    // Back returns to the results as they were.
    await browser.keys(['Escape']);
    await expect($('h1=X search')).toBeDisplayed();
    expect((await readCards()).length).toBe(cards.length);
  });

  it("opens an account's posting hours from its view, over every post of theirs stored", async () => {
    await $('article.post[data-nav-index] a.author').click();
    await $('#user-panel-posts article.post').waitForDisplayed({ timeout: 30_000 });
    const handle = String(await $('#user-panel-posts article.post a.author .handle').getProperty('textContent')).trim();
    await $('button[aria-label^="Posting hours of @"]').click();
    await browser.waitUntil(async () => String(await $('#detail-title').getProperty('textContent')).toLowerCase().endsWith(`by ${handle.toLowerCase()}`), {
      timeout: 15_000,
      timeoutMsg: `the analysis is not titled with ${handle}`,
    });
    await expect($('#analysis-tab-hours')).toHaveAttribute('aria-selected', 'true');
    await $('[data-testid="heatmap"]').waitForDisplayed({ timeout: 15_000 });
    const posts = Number((await $('[data-testid="analysis-count"]').getText()).replace(/\D/g, ''));
    expect((await readGrid()).flat().reduce((a, b) => a + b, 0)).toBe(posts);
    await screenshotBothThemes('analysis-account-hours');
  });
});
