import { browser, $, $$, expect } from '@wdio/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { axeViolations } from '../support/axe.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes, setTheme } from '../support/screenshots.ts';

/**
 * Forecasts in demo mode: the embedded sandbox runs each job for about four seconds (waiting,
 * then running, then done). A question that mentions security gets a reasoning that quotes
 * markup verbatim; it must stay inert.
 */
describe('Forecasts, in demo mode', () => {
  before(async () => {
    await enterDemo();
  });

  it('stops a question without words, and a resolution time in the past, before sending', async () => {
    await openScreen('Forecast');
    await $('button=Ask').click();
    await expect($('#forecast-query-error')).toHaveText('Type the question, or give the event a title below.');
    await $('#forecast-query').setValue('Will it rain in Lisbon tomorrow?');
    // Typed in the app's order, YYYY-MM-DD HH:MM (a plain field: WebKitGTK's picker is month-first).
    await $('#forecast-cutoff').setValue('2020-01-01 00:00');
    await $('button=Ask').click();
    await expect($('#forecast-cutoff-error')).toHaveText('The resolution time has passed: choose a time in the future.');
    await browser.execute(() => {
      const input = document.querySelector<HTMLInputElement>('#forecast-cutoff')!;
      input.value = '';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  });

  it('asks, watches the job move to done, and reads the probability and reasoning', async () => {
    await $('#forecast-query').setValue('Will the EU adopt the flood directive before 1 March 2027?');
    await $('#forecast-topics').setValue('climate');
    await browser.keys(['Enter']);
    await expect($('.chip*=climate')).toBeDisplayed();
    await $('button=Ask').click();

    const state = $('[data-testid="forecast-state"]');
    await expect(state).toHaveText(expect.stringMatching(/^(Waiting|Running)/), { wait: 15_000 });
    await screenshotBothThemes('forecast-running');
    await expect(state).toHaveText(expect.stringMatching(/^(Done|Failed)$/), { wait: 30_000 });
    if ((await state.getText()) === 'Done') {
      await expect($('[data-testid="forecast-probability"]')).toHaveText(expect.stringMatching(/^\d+(\.\d)?%$/));
      await expect($('.reading')).toHaveText(expect.stringMatching(/^chance: (very unlikely|unlikely|as likely as not|likely|very likely)/));
      await expect($('[data-testid="forecast-reasoning"]')).toHaveText(expect.stringContaining('Base rate'));
      await expect($('h3=How the service read the question')).toBeDisplayed();
    }
    await screenshotBothThemes('forecast-done');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      expect(await axeViolations()).toEqual([]);
    }
    await expect($('section[aria-labelledby="forecast-earlier-title"] li')).toBeDisplayed();
  });

  it('keeps a hostile reasoning inert', async () => {
    // Security questions quote a source's markup; one in eight questions fails, so try a few.
    await browser.execute(() => {
      window.alert = () => {
        (window as unknown as { __alerted?: boolean }).__alerted = true;
      };
    });
    let done = false;
    for (let n = 1; n <= 4 && !done; n++) {
      await $('#forecast-query').setValue(`Will web application security incident ${n} be disclosed this year?`);
      await $('button=Ask').click();
      const state = $('[data-testid="forecast-state"]');
      // The new job first, then its end.
      await expect(state).toHaveText(expect.stringMatching(/^(Waiting|Running)/), { wait: 15_000 });
      await expect(state).toHaveText(expect.stringMatching(/^(Done|Failed)$/), { wait: 30_000 });
      done = (await state.getText()) === 'Done';
    }
    expect(done).toBe(true);
    const reasoning = $('[data-testid="forecast-reasoning"]');
    await expect(reasoning).toHaveText(expect.stringContaining('One source was quoted as found'));
    const active = await browser.execute(() => {
      const root = document.querySelector('[data-testid="forecast-reasoning"]');
      return {
        dangerous: root?.querySelectorAll('script, style, img, iframe, svg, object, embed, form, [onload], [onerror], [onclick]').length ?? -1,
        scriptLinks: Array.from(root?.querySelectorAll('a[href]') ?? []).filter((a) => !/^https?:\/\//.test(a.getAttribute('href') ?? '')).length,
        alerted: (window as unknown as { __alerted?: boolean }).__alerted ?? false,
      };
    });
    expect(active).toEqual({ dangerous: 0, scriptLinks: 0, alerted: false });
    await screenshotBothThemes('forecast-hostile');
  });

  it('lists the forecast in History and re-opens its answer from disk', async () => {
    await openScreen('History');
    const rows = () => $$('[aria-label="Requests, newest first"] [role="listitem"] button.row');
    await browser.waitUntil(async () => (await rows().length) >= 2, { timeout: 15_000, timeoutMsg: 'History did not list the forecasts' });
    const texts = await rows().map((row) => row.getText());
    // The first forecast asked is the oldest row: the list is newest first.
    const index = texts.length - 1;
    expect(texts[index]).toMatch(/^Forecast\b/);
    expect(texts[index]).toMatch(/\bDone\b/);
    await rows()[index]!.click();
    // Beside the detail pane too, the row shows the question it asked.
    // (WebKit's driver reads no text from a clipped, ellipsised span: check its words and its width.)
    const asked = rows()[index]!.$('.query');
    expect(await asked.getProperty('textContent')).toMatch(/^"Will the EU adopt the flood directive/);
    expect(await asked.getSize('width')).toBeGreaterThan(150);
    await $('button=Open result').click();
    const stored = $('section[aria-label="Stored result"]');
    await expect(stored).toHaveText(expect.stringContaining('no request was sent'));
    await expect(stored.$('[data-testid="forecast-probability"], .failed')).toBeDisplayed();
    await screenshotBothThemes('forecast-history');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      expect(await axeViolations()).toEqual([]);
    }
  });

  it('exports the forecast from History as a citation naming forecaster, probability and job id', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sightline-forecast-exports-'));
    await openScreen('Settings');
    await $('#pref-exportFolder').setValue(folder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();

    await openScreen('History');
    const rows = () => $$('[aria-label="Requests, newest first"] [role="listitem"] button.row');
    await browser.waitUntil(async () => (await rows().length) >= 2, { timeout: 15_000 });
    const texts = await rows().map((row) => row.getText());
    const done = texts.findIndex((text) => /\bDone\b/.test(text));
    await rows()[done]!.click();
    await $('#history-forecast-export-format').selectByVisibleText('Citation (Markdown)');
    await $('button=Export this forecast').click();
    const note = $('p.note*=Saved this forecast to');
    await expect(note).toBeDisplayed();
    const file = (await note.getText()).replace('Saved this forecast to ', '');
    const citation = readFileSync(file, 'utf8');
    expect(citation).toMatch(/^1\. \*\*[^*]+\*\*, “Will .+”, forecast \d+(\.\d)?% on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, prediction id [0-9a-f-]{36}, via Sightline\n/);
    await screenshotBothThemes('forecast-export');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      expect(await axeViolations()).toEqual([]);
    }
  });
});
