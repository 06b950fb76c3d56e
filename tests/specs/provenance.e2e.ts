import { browser, $, $$, expect } from '@wdio/globals';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { showReplies } from '../support/replies.ts';

const captureLine = /^captured \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC · sha256 [0-9a-f]{8}…$/;

/**
 * Provenance in the real app (demo mode): a post card says when and with what hash the response
 * that brought it was captured; the record opens from the keyboard, passes the axe audit in both
 * themes, and "Re-check the hash" says it matches; Esc shuts the record only, the post's view
 * or History's detail behind it staying as it was; History's detail shows the same line, and
 * so does each History row, its record one key away; a selection of rows offers its evidence
 * bundle.
 */
describe('provenance', () => {
  it('shows a capture line under each post card, and the whole record from the keyboard', async () => {
    await enterDemo();
    await openScreen('X', 'X search');
    await $('#x-query').setValue('flood');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    const line = $('article.post button.capture-line');
    await line.waitForDisplayed({ timeout: 15_000 });
    await expect(line).toHaveText(captureLine);
    await screenshotBothThemes('provenance-post-cards');

    // From the keyboard: focus the line, Enter opens the record.
    await browser.execute(() => (document.querySelector('article.post button.capture-line') as HTMLElement).focus());
    await browser.keys(['Enter']);
    const dialog = $('dialog.provenance');
    await dialog.waitForDisplayed({ timeout: 10_000 });
    await expect(dialog.$('h2')).toHaveText('Where this response came from');
    await expect(dialog).toHaveText(expect.stringContaining('twitter_search'));
    await expect(dialog).toHaveText(expect.stringMatching(/[0-9a-f]{64}/));
    await dialog.$('button=Re-check the hash').click();
    await expect(dialog.$('[role="status"]')).toHaveText('matches: the stored bytes hash to the SHA-256 recorded when they were received');
    await auditBothThemes('provenance-record');
    await browser.keys(['Escape']);
    await expect(dialog).not.toBeDisplayed();
  });

  it("closes the record on Esc and stays on the post's view (whose own Esc is Back)", async () => {
    // A search whose first post has replies in the demo world.
    await $('#x-query').setValue('#JWST');
    await browser.keys(['Enter']);
    await browser.waitUntil(async () => /jwst/i.test(await $('article.post').getText()), { timeout: 30_000, timeoutMsg: 'the #JWST results did not come' });
    await $('article.post').$('a=View post').click();
    await expect($('h1=Post')).toBeDisplayed();
    await showReplies();
    const replyLine = $('#post-panel-replies article.post button.capture-line');
    await replyLine.waitForDisplayed({ timeout: 30_000 });
    await expect(replyLine).toHaveText(captureLine);
    await browser.execute(() => (document.querySelector('#post-panel-replies article.post button.capture-line') as HTMLElement).focus());
    await browser.keys(['Enter']);
    const dialog = $('dialog.provenance');
    await dialog.waitForDisplayed({ timeout: 10_000 });
    await expect(dialog).toHaveText(expect.stringContaining('twitter_replies_post'));
    await browser.keys(['Escape']);
    await expect(dialog).not.toBeExisting();
    // Still the post's view, its replies as they were; focus back on the line that opened it.
    await expect($('h1=Post')).toBeDisplayed();
    await expect(replyLine).toBeDisplayed();
    const focused = await browser.execute(() => (document.activeElement as HTMLElement | null)?.className ?? '');
    expect(focused).toContain('capture-line');
    // The view's own Esc still goes Back once no dialog is open.
    await browser.keys(['Escape']);
    await expect($('h1=X search')).toBeDisplayed();
  });

  it("shows the same line in History's detail", async () => {
    await openScreen('History');
    const row = $('[aria-label="Requests, newest first"] button.row');
    await row.waitForDisplayed({ timeout: 15_000 });
    await row.click();
    const detail = $('aside.detail');
    await expect(detail.$('button.capture-line')).toHaveText(captureLine);
    const terms = await $$('aside.detail dt').map((term) => term.getText());
    expect(terms).toContain('Capture');
    await auditBothThemes('provenance-history');

    // The record opened from the detail: Esc, even after a click on its text, shuts the record
    // and leaves the detail open (History's own Esc shuts the detail).
    await detail.$('button.capture-line').click();
    const dialog = $('dialog.provenance');
    await dialog.waitForDisplayed({ timeout: 10_000 });
    await dialog.$('h2').click();
    await browser.keys(['Escape']);
    await expect(dialog).not.toBeExisting();
    await expect(detail).toBeDisplayed();
  });

  it('shows the capture line under each History row, its record one key away', async () => {
    // The detail pane closed: the list at its widest, then narrow beside the detail.
    await browser.keys(['Escape']);
    const list = '[aria-label="Requests, newest first"]';
    const rowLine = $(`${list} .capture button.capture-line`);
    await rowLine.waitForDisplayed({ timeout: 15_000 });
    await expect(rowLine).toHaveText(captureLine);
    await screenshotBothThemes('provenance-history-rows');

    // Tab from a row's own button reaches its capture line (beside it, not inside); Enter opens it.
    await browser.execute((selector) => (document.querySelector(`${selector} button.row`) as HTMLElement).focus(), list);
    await browser.keys(['Tab']);
    const focused = await browser.execute(() => (document.activeElement as HTMLElement | null)?.className ?? '');
    expect(focused).toContain('capture-line');
    await browser.keys(['Enter']);
    const dialog = $('dialog.provenance');
    await dialog.waitForDisplayed({ timeout: 10_000 });
    await expect(dialog).toHaveText(expect.stringMatching(/[0-9a-f]{64}/));
    // The row keeps its own line on one line; the record opened from it wraps within its width
    // (it once inherited the row's nowrap, its parameters running far past the dialog's edge).
    const overflow = await browser.execute(() => {
      const record = document.querySelector('dialog.provenance') as HTMLElement;
      return { scroll: record.scrollWidth, client: record.clientWidth, wrap: getComputedStyle(record).whiteSpace };
    });
    expect(overflow.wrap).toBe('normal');
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
    await screenshotBothThemes('provenance-record-from-history-row');
    await browser.keys(['Escape']);
    await expect(dialog).not.toBeDisplayed();

    await $(`${list} input.pick`).click();
    await expect($('button=Export evidence bundle…')).toBeDisplayed();
    await $(`${list} button.row`).click();
    await expect($('aside.detail')).toBeDisplayed();
    await screenshotBothThemes('provenance-history-rows-narrow');
    await auditBothThemes('provenance-history-rows');
  });
});
