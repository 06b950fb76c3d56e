import { browser, $, $$, expect } from '@wdio/globals';
import { screenshotBothThemes } from '../support/screenshots.ts';

const sidebar = () => $('nav[aria-label="Screens"]');

async function open(screen: string, title = screen) {
  await sidebar().$(`a=${screen}`).click();
  await expect($(`h1=${title}`)).toBeDisplayed();
}

/**
 * A first run with no key and no network: the welcome offers demo data, and every screen works
 * against the embedded sandbox.
 */
describe('demo mode, first run', () => {
  it('welcomes a new user and offers demo data', async () => {
    await expect($('h2=Explore with demo data')).toBeDisplayed();
    await screenshotBothThemes('welcome');
    await $('button=Explore with demo data').click();
    await expect($('[data-testid="demo-badge"]')).toBeDisplayed();
  });

  it('shows trends, and a trend opens an X search with post cards', async () => {
    await open('Trends');
    await $('button=Show trends').click();
    const firstTrend = $('button.trend');
    await firstTrend.waitForDisplayed({ timeout: 30_000 });
    await screenshotBothThemes('trends');
    await firstTrend.click();
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    expect(await $$('article.post').length).toBeGreaterThan(1);
    await screenshotBothThemes('x-search');
  });

  it('hands a trend to Ask as a question, filled in and not sent', async () => {
    await open('Trends');
    await $('button=Show trends').click();
    const ask = $('a.ask');
    await ask.waitForDisplayed({ timeout: 30_000 });
    const trend = (await ask.getAttribute('aria-label'))?.replace(/^Ask about /, '') ?? '';
    expect(trend).not.toBe('');
    const today = await $('[data-testid="today-spend"]').getText();
    await ask.click();
    await expect($('h1=Ask')).toBeDisplayed();
    const question = $('#ask-prompt');
    await expect(question).toHaveValue(expect.stringContaining(trend));
    await expect(question).toBeFocused();
    // Nothing was sent: today's spend is what it was.
    await expect($('[data-testid="today-spend"]')).toHaveText(today);
  });

  it('stops a bad search before sending, with the reason next to the field', async () => {
    await open('X', 'X search');
    const count = $('#x-count');
    await count.setValue('500');
    await $('#x-query').setValue('rain');
    await browser.keys(['Enter']);
    await expect($('#x-count-error')).toHaveText('Choose a number from 1 to 100 (you entered 500).');
    await expect(count).toHaveAttribute('aria-describedby', 'x-count-error');
  });

  it('lists both requests in History and their cost in Spend', async () => {
    await open('History');
    await browser.waitUntil(async () => (await $$('[aria-label="Requests, newest first"] [role="listitem"] button.row').length) >= 2, {
      timeout: 15_000,
      timeoutMsg: 'History did not list the requests',
    });
    await screenshotBothThemes('history');
    await open('Spend');
    await expect($('main')).toHaveText(expect.stringMatching(/\$0\.\d+/));
    await screenshotBothThemes('spend');
  });

  it('finds fetched posts in the Archive, offline', async () => {
    await open('Archive');
    await $('#archive-text').setValue('a*');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 15_000 });
    await screenshotBothThemes('archive');
  });
});
