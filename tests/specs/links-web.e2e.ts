import { browser, $, $$, expect } from '@wdio/globals';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

/** Links and Web against the embedded sandbox of demo mode (its synthetic web of ~1,100 pages). */
describe('Links and Web, in demo mode', () => {
  before(async () => {
    await enterDemo();
  });

  it('finds web links grouped by source', async () => {
    await openScreen('Links');
    await $('#links-prompt').setValue('bitcoin inflation markets');
    await $('label*=Reddit').click();
    await $('button=Find').click();

    const summary = $('section[aria-label="Results"] [role="status"]');
    await expect(summary).toHaveText(expect.stringMatching(/^\d+ links? from /), { wait: 30_000 });
    const tabs = await $$('[role="tab"]').map((tab) => tab.getText());
    expect(tabs.length).toBeGreaterThanOrEqual(1);
    expect(tabs.every((text) => /^(Web|Reddit) \d+$/.test(text.replace(/\s+/g, ' ')))).toBe(true);
    const first = $('[role="tabpanel"] article a[href^="https://"]');
    await expect(first).toBeDisplayed();
    await expect($('form[aria-label="Link search"] [data-testid="cost-chip"]')).toHaveText('$0.004');
    await screenshotBothThemes('links-web');
  });

  it('switches to posts on X and finds posts', async () => {
    await $('label*=Posts on X').click();
    await expect($('#links-prompt')).toHaveValue('bitcoin inflation markets');
    await expect($('legend=Sources')).not.toBeExisting();
    await $('button=Find').click();
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    expect(await $$('article.post').length).toBeGreaterThan(0);
    await screenshotBothThemes('links-x');

    // The web results are still there when switching back.
    await $('label*=Web links').click();
    await expect($('[role="tabpanel"] article')).toBeDisplayed();
  });

  it('searches the web and turns the page', async () => {
    await openScreen('Web');
    await $('#web-query').setValue('bitcoin crypto markets inflation stocks');
    await browser.keys(['Enter']);
    const summary = $('section[aria-label="Search results"] [role="status"]');
    await expect(summary).toHaveText('Page 1 · results 1–10', { wait: 30_000 });
    const firstPage = await $('section[aria-label="Search results"] article').getAttribute('aria-label');

    await $('button=Next page').click();
    await expect(summary).toHaveText(expect.stringMatching(/^Page 2 · results 11–\d+$/), { wait: 30_000 });
    expect(await $('section[aria-label="Search results"] article').getAttribute('aria-label')).not.toBe(firstPage);
    await expect($('button=Previous page')).toBeEnabled();
    await screenshotBothThemes('web-search');
  });

  it('reads a result as text, then as cleaned-up HTML with nothing active in it', async () => {
    await $('section[aria-label="Search results"]').$('button*=Read here').click();
    const text = $('[data-testid="page-text"]');
    await expect(text).toBeDisplayed({ wait: 30_000 });
    expect((await text.getText()).length).toBeGreaterThan(40);
    await screenshotBothThemes('web-crawl-text');

    await $('#web-format').selectByAttribute('value', 'html');
    await $('button=Read').click();
    const view = $('[data-testid="page-html"]');
    await expect(view).toBeDisplayed({ wait: 30_000 });
    await expect(view.$('h1')).toBeDisplayed();
    const active = await browser.execute(() => {
      const root = document.querySelector('[data-testid="page-html"]');
      return {
        dangerous: root?.querySelectorAll('script, style, img, iframe, svg, form, [style], [onload], [onerror], [onclick]').length ?? -1,
        nonWebLinks: Array.from(root?.querySelectorAll('a[href]') ?? []).filter((a) => !/^https?:\/\//.test(a.getAttribute('href') ?? '')).length,
      };
    });
    expect(active).toEqual({ dangerous: 0, nonWebLinks: 0 });
    await screenshotBothThemes('web-crawl-html');
  });
});
