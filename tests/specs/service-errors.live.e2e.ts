import { browser, $, expect } from '@wdio/globals';
import { openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { billed, queueFault, sandbox } from '../support/sandbox.ts';

/**
 * What the service itself refuses, shown where it belongs: a 422 under its field, a 429 with a
 * countdown before Retry, and a stream cut mid-answer that keeps what arrived. The sandbox
 * process plays the service and is told what to answer through its fault routes.
 */
describe('service errors, with a key', () => {
  before(async () => {
    await $('#welcome-key').waitForDisplayed({ timeout: 30_000 });
    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed();
  });

  it('shows the service’s 422 under the field it names', async () => {
    await queueFault('/twitter', {
      type: 'status',
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['query', 'query'], msg: 'Query uses an operator the service does not support', input: 'rain', ctx: {} }] },
    });
    await $('#x-query').setValue('rain lang:xx');
    await browser.keys(['Enter']);
    const message = $('#x-query-error');
    await expect(message).toBeDisplayed({ wait: 20_000 });
    await expect(message).toHaveText(expect.stringContaining('operator the service does not support'));
    await expect($('#x-query')).toHaveAttribute('aria-invalid', 'true');
    await screenshotBothThemes('x-search-422');
  });

  it('counts down a 429 before Retry, then the retry goes through', async () => {
    // Longer than the client waits by itself (10 s), so the wait is handed to the user to count down.
    await queueFault('/twitter', { type: 'status', status: 429, headers: { 'Retry-After': '12' } });
    await $('#x-query').setValue('#JWST');
    await browser.keys(['Enter']);
    await expect($('p*=You can try again in')).toBeDisplayed({ wait: 20_000 });
    const retry = $('button*=Retry');
    await expect(retry).toBeDisabled();
    await screenshotBothThemes('x-search-429');
    await browser.waitUntil(async () => (await retry.getText()) === 'Retry', { timeout: 20_000, timeoutMsg: 'The countdown never ended' });
    const before = (await billed()).responses.length;
    await retry.click();
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    expect((await billed()).responses.length).toBe(before + 1);
  });

  it('keeps the part of an answer that arrived before the stream was cut', async () => {
    await queueFault('/service/ai/search', { type: 'cut_stream', after_events: 12, abrupt: true });
    await openScreen('Ask');
    await $('#ask-prompt').setValue('What are people saying about solar power?');
    await browser.keys(['Enter']);
    const status = $('[data-testid="ask-status"]');
    await browser.waitUntil(async () => (await status.getText()).startsWith('Interrupted'), {
      timeout: 60_000,
      timeoutMsg: 'The cut stream was not reported',
    });
    await expect($('[role="alert"]')).toBeDisplayed();
    const kept = await $('[data-testid="answer"]').getText();
    expect(kept.trim().length).toBeGreaterThan(0);
    await screenshotBothThemes('ask-stream-cut');

    // The interrupted request is in History, kept with what it cost.
    await openScreen('History');
    const newest = $('[aria-label="Requests, newest first"] button.row');
    await expect(newest).toHaveText(expect.stringMatching(/AI search[\s\S]*(Cut off|Failed|Stopped)/));
  });
});
