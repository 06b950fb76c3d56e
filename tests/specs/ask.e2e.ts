import { browser, $, $$, expect } from '@wdio/globals';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

/**
 * Ask against the embedded sandbox of demo mode. The sandbox paces its stream (30 ms between text
 * deltas, 120 ms per source: `pace_ms` in crates/sandbox), so a streamed answer visibly grows.
 */

const answer = () => $('[data-testid="answer"]');
const status = () => $('[data-testid="ask-status"]');

async function ask(question: string, options: { range?: string; model?: string } = {}): Promise<void> {
  const prompt = $('#ask-prompt');
  await prompt.clearValue();
  await prompt.setValue(question);
  await $('#ask-range').selectByAttribute('value', options.range ?? 'PAST_YEAR');
  if (options.model) {
    const advanced = $('button=Advanced');
    if ((await advanced.getAttribute('aria-expanded')) !== 'true') await advanced.click();
    await $('#ask-model').selectByAttribute('value', options.model);
  }
  await prompt.click();
  await browser.keys(['Enter']);
}

/** The answer's text length and the status line, read in one round trip. */
function snapshot(): Promise<{ length: number; status: string }> {
  return browser.execute(() => ({
    length: document.querySelector('[data-testid="answer"]')?.textContent?.trim().length ?? 0,
    status: document.querySelector('[data-testid="ask-status"]')?.textContent?.trim() ?? '',
  }));
}

describe('Ask, in demo mode', () => {
  before(async () => {
    await enterDemo();
    await openScreen('Ask');
  });

  it('streams the answer in parts beside graded sources, then shows the cost', async () => {
    // Every length the answer is drawn at, recorded in the page as the DOM changes: polling over
    // WebDriver is too slow on a loaded machine to be sure of seeing the steps.
    await browser.execute(() => {
      const seen: number[] = [];
      (window as unknown as { __answerLengths: number[] }).__answerLengths = seen;
      new MutationObserver(() => {
        const length = document.querySelector('[data-testid="answer"]')?.textContent?.trim().length ?? 0;
        if (length > 0 && seen.at(-1) !== length) seen.push(length);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await ask('What are people saying about bitcoin ETFs and inflation?');
    await browser.waitUntil(async () => (await snapshot()).status.startsWith('Done'), {
      timeout: 60_000,
      interval: 200,
      timeoutMsg: 'The answer did not finish',
    });
    const lengths = await browser.execute(() => (window as unknown as { __answerLengths: number[] }).__answerLengths);
    const last = await snapshot();
    expect(lengths.length).toBeGreaterThanOrEqual(2);
    expect(last.length).toBeGreaterThanOrEqual(Math.max(...lengths));

    await expect(status()).toHaveText(expect.stringMatching(/^Done · \$0\.004 · \d+\.\d s$/));
    await expect($('form[aria-label="Ask"] [data-testid="cost-chip"]')).toHaveText('$0.004');
    await expect(answer().$('h2')).toBeDisplayed();
    // Citations are links to the sources (the final answer is drawn on the next frame after Done).
    await browser.waitUntil(async () => (await answer().$$('a[href^="https://"]').length) > 0, {
      timeout: 5_000,
      timeoutMsg: 'The answer has no links to its sources',
    });

    // Sources: one tab per source asked for (Web and X by default), graded.
    const tabs = await $$('[role="tab"]').map((tab) => tab.getText());
    expect(tabs.some((text) => /^Web \d+$/.test(text.replace(/\s+/g, ' ')))).toBe(true);
    expect(tabs.some((text) => /^X \d+$/.test(text.replace(/\s+/g, ' ')))).toBe(true);
    await $('[role="tab"]*=Web').click();
    const panel = $('[role="tabpanel"]');
    await expect(panel.$('article')).toBeDisplayed();
    await expect(panel).toHaveText(expect.stringMatching(/HIGH|MEDIUM|LOW/));

    const marks = await browser.execute(() => {
      const received = performance.getEntriesByName('sightline:first-delta-received')[0];
      const painted = performance.getEntriesByName('sightline:first-delta-painted')[0];
      return received && painted ? { received: received.startTime, painted: painted.startTime } : null;
    });
    expect(marks).not.toBeNull();
    if (marks) {
      console.log(`first delta: received → painted ${(marks.painted - marks.received).toFixed(1)} ms`);
      expect(marks.painted).toBeGreaterThanOrEqual(marks.received);
    }

    await screenshotBothThemes('ask');
    await $('[role="tab"]*=X').click();
    await expect($('[role="tabpanel"] article.post')).toBeDisplayed();
    await screenshotBothThemes('ask-x-sources');
  });

  it('keeps the partial answer when stopped mid-stream', async () => {
    // The longest model writes the longest answer: time to stop it part-way.
    await ask('How are climate and energy policies changing this year?', { model: 'HORIZON' });
    await browser.waitUntil(async () => (await snapshot()).length > 0, { timeout: 30_000, timeoutMsg: 'No answer text arrived' });
    await $('button=Stop').click();

    await expect(status()).toHaveText(expect.stringMatching(/^Stopped — partial answer kept/), { wait: 15_000 });
    // The answer is drawn once per frame: let the last part that arrived before the stop be drawn.
    await browser.pause(300);
    const stopped = (await snapshot()).length;
    expect(stopped).toBeGreaterThan(0);
    // The closing section never arrived, and nothing more is added after the stop.
    await expect(answer()).not.toHaveText(expect.stringContaining('Bottom line'));
    await browser.pause(500);
    expect((await snapshot()).length).toBe(stopped);
    await expect($('button=Stop')).not.toBeExisting();
    await screenshotBothThemes('ask-stopped');
  });

  it('renders a hostile answer inert', async () => {
    // The sandbox's answer starts with the question as its heading: markup in the question comes
    // back inside the service's Markdown, as hostile content from a real service would.
    // (Under 80 characters: the sandbox shortens a longer heading.)
    await ask('<img src=x onerror="window.__x=1"> [prize](javascript:window.__x=2) bitcoin');
    await expect(status()).toHaveText(expect.stringMatching(/^Done/), { wait: 60_000 });
    const found = await browser.execute(() => {
      const region = document.querySelector('[data-testid="answer"]');
      return {
        pwned: (window as { __x?: unknown }).__x ?? null,
        dangerous: region?.querySelectorAll('img, script, iframe, svg, [onerror], [onclick], [style]').length ?? -1,
        scriptLinks: Array.from(region?.querySelectorAll('a[href]') ?? []).filter((a) => !/^https?:/i.test(a.getAttribute('href') ?? '')).length,
        // A defused link reads as plain text: no anchor at all, its words kept.
        prizeLink: Array.from(region?.querySelectorAll('a') ?? []).some((a) => a.textContent === 'prize'),
        prizeText: Array.from(region?.querySelectorAll('.defused-link') ?? []).some((span) => span.textContent === 'prize'),
        heading: region?.querySelector('h2')?.textContent ?? '',
      };
    });
    expect(found.pwned).toBeNull();
    expect(found.dangerous).toBe(0);
    expect(found.scriptLinks).toBe(0);
    expect(found.prizeLink).toBe(false);
    expect(found.prizeText).toBe(true);
    expect(found.heading).toContain('bitcoin');
    await answer().$('span*=prize').click();
    expect(await browser.execute(() => (window as { __x?: unknown }).__x ?? null)).toBeNull();
  });
});
