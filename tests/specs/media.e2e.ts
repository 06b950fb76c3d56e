import { $, $$, browser, expect } from '@wdio/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';

/**
 * Issue 32 end to end in the real app against the sandbox (demo data): posts with pictures are
 * filed in an investigation, the app fetches and keeps their media itself, and the cards show
 * them through its own `sightline-media` protocol, greyscale and blurred until each is revealed
 * from the keyboard; the investigation's "Show media in full" shows them plainly. No request
 * from the page leaves the app, and the window's policy is the one tauri.conf.json sets.
 *
 * "Same picture elsewhere" on a kept picture finds the sandbox's planted copies in other posts
 * (exact and near), said in words, veiled, audited, and opens one from the keyboard; Settings
 * shows the fetch queue by state; the case's evidence bundle carries its media files and
 * `sha256sum -c`, as the bundle's VERIFY.txt says to run it, passes.
 */

export const NAME = 'Media case';
const VEIL = 'grayscale(1) blur(16px)';
/** The origins the page may reach: its own files, its IPC, the kept media. */
const OWN = /^(tauri:\/\/localhost|ipc:\/\/localhost|http:\/\/ipc\.localhost|sightline-media:\/\/localhost\/[0-9a-f]{64}$|data:)/;

/** The case's page, on its Posts tab. */
export async function openCase(): Promise<void> {
  await openScreen('Investigations');
  await $('main').$(`a=${NAME}`).click();
  await expect($(`h1=${NAME}`)).toBeDisplayed();
}

/**
 * Accounts of the demo world (seed 42) that post one picture each, a copy of the planted
 * family 0 (crates/sandbox/tests/fixtures/planted_media.json): two the same bytes as the
 * original, two recompressed at a lower quality, one recompressed harder. Searched together,
 * they bring only these five posts, so their media are fetched in seconds.
 */
const FAMILY = { original: ['hugotalks1381', 'sofia_martinez'], near: ['arjun_patel8184', 'louis_roux', 'gaming_grace'] };

/** Nothing the page asked for was refused but this spec's probes: it asked no other host. */
async function nothingRefused(): Promise<void> {
  const refused = await browser.execute(() => (window as unknown as { refusedLoads: string[] }).refusedLoads);
  expect(refused.filter((uri) => !uri.startsWith('http://127.0.0.1:9/probe-'))).toEqual([]);
}

/** The kept pictures shown on the page: `<img>` served by the app's protocol. */
export const keptPictures = () => $$('img[src^="sightline-media://localhost/"]');

/**
 * The policy the window enforces, as WebKit reports it when it refuses a load: a picture asked
 * of a loopback port nothing listens on (were it allowed, nothing would leave the machine).
 */
function policy(): Promise<{ text: string; directive: string } | null> {
  return browser.executeAsync((done: (found: { text: string; directive: string } | null) => void) => {
    const timer = setTimeout(() => done(null), 5000);
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        clearTimeout(timer);
        done({ text: event.originalPolicy, directive: event.effectiveDirective });
      },
      { once: true },
    );
    const probe = new Image();
    probe.src = `http://127.0.0.1:9/probe-${Date.now()}.png`;
  });
}

/** Every directive of a policy, its sources in order, nonces and hashes left out. */
function directives(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources.filter((source) => !/^'(nonce|sha256|sha384|sha512)-/.test(source));
  }
  return out;
}

describe('media kept and shown safely', () => {
  let policyAtStart: { text: string; directive: string } | null = null;

  before(async () => {
    await enterDemo();
    // Every load the policy refuses from here on is noted (the page's context lives across
    // screens): only this spec's own probes may be among them.
    await browser.execute(() => {
      const refused: string[] = [];
      (window as unknown as { refusedLoads: string[] }).refusedLoads = refused;
      document.addEventListener('securitypolicyviolation', (event) => refused.push(event.blockedURI));
    });
    policyAtStart = await policy();
  });

  it('gives the window a policy that names no remote origin, only the media scheme for pictures and video', async () => {
    // A picture from another address is refused by img-src.
    expect(policyAtStart?.directive).toBe('img-src');
    const policy = directives(policyAtStart!.text);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'sightline-media:']);
    expect(policy['media-src']).toEqual(["'self'", 'sightline-media:']);
    expect(policy['default-src']).toEqual(["'self'"]);
    for (const [name, sources] of Object.entries(policy)) {
      for (const source of sources) {
        expect(`${name} ${source}`).toMatch(/ ('self'|'none'|'unsafe-inline'|data:|ipc:|http:\/\/ipc\.localhost|sightline-media:)$/);
      }
    }
  });

  it('keeps the media of posts filed in an investigation, fetched by the app', async function () {
    this.timeout(180_000);
    await openScreen('Investigations');
    await $('#investigation-name').setValue(NAME);
    await $('#investigation-description').setValue('Pictures said to show the flood');
    await $('button=Create investigation').click();
    await expect($('main').$(`a=${NAME}`)).toBeDisplayed({ wait: 10_000 });
    await $('#picker-select').selectByVisibleText(NAME);

    await openScreen('X', 'X search');
    await expect($('[data-testid="filing-bar"]')).toHaveText(expect.stringContaining(`Results are filed under ${NAME}.`), { wait: 10_000 });
    await $('#x-query').setValue('flood filter:images');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    await $('#picker-select').selectByVisibleText('No investigation');

    await openCase();
    // The worker fetches one at a time with a gap: wait for a few to be kept and shown.
    const shown = await browser
      .waitUntil(async () => (await keptPictures().length) >= 2, { timeout: 150_000, interval: 1000 })
      .catch(() => false);
    if (!shown) {
      const media = await browser.execute(() => Array.from(document.querySelectorAll('ul[aria-label="Media"] li')).map((item) => item.textContent?.trim()));
      throw new Error(`No kept picture appeared on the investigation page; its media said: ${JSON.stringify(media.slice(0, 8))}`);
    }
    // Decoded from the bytes the app served, not a broken image (pictures load as they come into view).
    const first = await keptPictures()[0];
    await first.scrollIntoView({ block: 'center' });
    await browser.waitUntil(
      () => browser.execute((image: HTMLImageElement) => image.complete && image.naturalWidth > 0, first as unknown as HTMLImageElement),
      { timeout: 15_000, timeoutMsg: 'The kept picture did not load through the media protocol' },
    );
  });

  it('shows them greyscale and blurred until one is revealed from the keyboard', async () => {
    const first = await keptPictures()[0];
    await first.scrollIntoView({ block: 'center' });
    const name = await first.getAttribute('alt'); // "Image 1 of 2"
    expect(name).toMatch(/^Image \d+ of \d+$/);
    const filters = await browser.execute(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('img[src^="sightline-media://localhost/"]')).map((image) => getComputedStyle(image).filter),
    );
    expect(new Set(filters)).toEqual(new Set([VEIL]));
    await screenshotBothThemes('media-veiled');
    await auditBothThemes('media-veiled');

    // The reveal button right after the picture, reached with Tab from the card before it.
    const reveal = await first.parentElement().nextElement();
    await expect(reveal).toHaveText(`Reveal ${name!.replace(/^Image/, 'image')}`);
    await browser.execute((button: HTMLElement) => {
      button.closest('article')?.focus();
    }, reveal as unknown as HTMLElement);
    for (let step = 0; step < 40 && !(await reveal.isFocused()); step += 1) await browser.keys(['Tab']);
    await expect(reveal).toBeFocused();
    await browser.keys(['Enter']);
    await expect(reveal).toHaveAttribute('aria-pressed', 'true');
    expect(await browser.execute((image: HTMLElement) => getComputedStyle(image).filter, first as unknown as HTMLElement)).toBe('none');
    // Only that one: the others stay veiled.
    const stillVeiled = await browser.execute(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('img[src^="sightline-media://localhost/"]')).filter((image) => getComputedStyle(image).filter !== 'none').length,
    );
    expect(stillVeiled).toBe((await keptPictures().length) - 1);
    await screenshotBothThemes('media-revealed');
    await auditBothThemes('media-revealed');
    await browser.keys([' ']);
    await expect(reveal).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows the case plainly once "Show media in full" is on, and remembers it', async () => {
    const toggle = $('label=Show media in full').$('input');
    await toggle.scrollIntoView({ block: 'center' });
    await toggle.click();
    await expect(toggle).toBeChecked();
    await browser.waitUntil(
      async () =>
        (await browser.execute(() =>
          Array.from(document.querySelectorAll<HTMLImageElement>('img[src^="sightline-media://localhost/"]')).every((image) => getComputedStyle(image).filter === 'none'),
        )) === true,
      { timeout: 10_000, timeoutMsg: 'The pictures stayed veiled in full view' },
    );
    await expect($('button*=Reveal image')).not.toBeExisting();
    await screenshotBothThemes('media-full-view');
    await auditBothThemes('media-full-view');

    // Elsewhere (the Archive) the setting's safe view holds; back on the case, full view is kept.
    await openScreen('Archive');
    await openCase();
    await expect($('label=Show media in full').$('input')).toBeChecked();
    await $('label=Show media in full').$('input').click();
    await expect($('label=Show media in full').$('input')).not.toBeChecked();
  });

  it('asked nothing of any other host from the page, and the policy is unchanged', async () => {
    await nothingRefused();
    // Every picture and video on screen comes from the app.
    const sources = await browser.execute(() =>
      Array.from(document.querySelectorAll('img, video, source, audio')).flatMap((element) =>
        ['src', 'poster'].map((name) => element.getAttribute(name)).filter((value): value is string => !!value),
      ),
    );
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => !OWN.test(source))).toEqual([]);
    // The resource timings WebKit keeps (it lists none for the app's own schemes) name no other host.
    const reached = await browser.execute(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    expect(reached.filter((name) => !OWN.test(name))).toEqual([]);
    expect(await policy()).toEqual(policyAtStart);
  });

  // WebDriverIO times a test from the timeout its suite gives it at the start (a test's own
  // this.timeout() comes too late): these steps wait on the fetcher, paced one item at a time,
  // so they have a suite of their own with a longer one. Mocha runs it after the suite's own.
  describe('the same picture elsewhere, the queue and the bundle', function () {
    this.timeout(300_000);
    const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-media-exports-'));

    it('finds the planted copies of a picture, exact and near, from the keyboard, in safe view', async () => {
      // Every item queued so far, as Settings → Media kept counts them.
      const states = ['waiting', 'kept', 'gone', 'failed', 'too_large'];
      const count = async (state: string) => Number((await $(`[data-testid="media-count-${state}"]`).getText()).replace(/,/g, ''));
      const queued = async () => {
        let total = 0;
        for (const state of states) total += await count(state);
        return total;
      };
      await openScreen('Settings');
      await $('[data-testid="media-count-kept"]').waitForExist({ timeout: 15_000 });
      const before = await queued();

      await $('#picker-select').selectByVisibleText(NAME);
      await openScreen('X', 'X search');
      await expect($('[data-testid="filing-bar"]')).toHaveText(expect.stringContaining(`Results are filed under ${NAME}.`), { wait: 10_000 });
      const accounts = [...FAMILY.original, ...FAMILY.near];
      await $('#x-query').setValue(`filter:images ${accounts.map((name) => `from:${name}`).join(' OR ')}`);
      await $('#x-query').click();
      await browser.keys(['Enter']);
      // Its answer shown (the earlier search's cards are replaced): it is recorded and filed.
      const article = (account: string) => $(`//article[contains(., "@${account}")]`);
      await browser.waitUntil(
        async () => {
          for (const account of accounts) if (!(await article(account).isExisting())) return false;
          return true;
        },
        { timeout: 30_000, timeoutMsg: `The search did not find the ${accounts.length} posts of the planted family` },
      );
      await $('#picker-select').selectByVisibleText('No investigation');

      // Their media queued with the record and fetched, one at a time, behind the first search's.
      await openScreen('Settings');
      const started = Date.now();
      await browser.waitUntil(async () => (await queued()) >= before + accounts.length && (await count('waiting')) === 0, {
        timeout: 240_000,
        interval: 1000,
        timeoutMsg: "The family's media were not all fetched",
      });
      console.log(`media e2e: ${(await queued()) - before} family media queued and fetched in ${((Date.now() - started) / 1000).toFixed(1)} s`);

      // The original's post, found again: its picture kept, "Same picture elsewhere" under it.
      await openScreen('X', 'X search');
      await $('#x-query').setValue(`filter:images from:${FAMILY.original[0]}`);
      await $('#x-query').click();
      await browser.keys(['Enter']);
      const button = $('article.post button[aria-label^="Same picture elsewhere"]');
      await browser.waitUntil(async () => (await $$('article.post').length) === 1 && (await button.isExisting()), {
        timeout: 30_000,
        timeoutMsg: `The post of @${FAMILY.original[0]} did not show its kept picture`,
      });
      await expect($('article.post')).toHaveText(expect.stringContaining(`@${FAMILY.original[0]}`));
      await button.scrollIntoView({ block: 'center' });
      await button.click();
      const summary = $('[data-testid="picture-matches-summary"]');
      await expect(summary).toHaveText(/^\d+ other posts?:/, { wait: 15_000 });
      const text = await $('[data-testid="picture-matches-dialog"]').getText();
      // The other original is the same file; the recompressed copies are near, with their distance.
      expect(text).toContain(`@${FAMILY.original[1]}`);
      const words = await $$('[data-testid="picture-match-words"]').map((line) => line.getText());
      for (const line of words) expect(line).toMatch(/^(The same file|A near copy \(distance \d+ of 256\))$/);
      expect(words).toContain('The same file');
      expect(words.some((line) => line.startsWith('A near copy'))).toBe(true);
      expect(FAMILY.near.filter((account) => text.includes(`@${account}`)).length).toBeGreaterThanOrEqual(2);

      // Each match's thumbnail is veiled like the cards'.
      const filters = await browser.execute(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="picture-matches-dialog"] img')).map((image) => getComputedStyle(image).filter),
      );
      expect(filters.length).toBeGreaterThan(1);
      expect(new Set(filters)).toEqual(new Set([VEIL]));
      await screenshotBothThemes('media-same-picture');
      await auditBothThemes('media-same-picture', '[data-testid="picture-matches-dialog"]');

      // From the keyboard: Tab to the first match's "Open post", Enter opens that post's view.
      const open = $('[data-testid="picture-match"]').$('a=Open post');
      // WebKit's driver answers the resolved address: its fragment is the link's own.
      const href = ((await open.getAttribute('href')) ?? '').replace(/^[^#]*/, '');
      expect(href).toMatch(/^#\/post\?id=\d+$/);
      for (let step = 0; step < 20 && !(await open.isFocused()); step += 1) await browser.keys(['Tab']);
      await expect(open).toBeFocused();
      await browser.keys(['Enter']);
      await browser.waitUntil(async () => (await browser.execute(() => window.location.hash)) === href, {
        timeout: 10_000,
        timeoutMsg: 'Open post did not open the matching post',
      });
      // The dialog stays over the post it opened until closed: Esc closes it.
      if (await $('[data-testid="picture-matches-dialog"]').isExisting()) await browser.keys(['Escape']);
      await expect($('[data-testid="picture-matches-dialog"]')).not.toBeExisting();
    });

    it('shows the fetch queue by state in Settings, with Retry failed', async () => {
      await openScreen('Settings');
      const section = $('[data-testid="media-queue"]');
      await section.scrollIntoView({ block: 'center' });
      const count = async (state: string) => Number((await $(`[data-testid="media-count-${state}"]`).getText()).replace(/,/g, ''));
      await browser.waitUntil(async () => (await $('[data-testid="media-count-kept"]').isExisting()) && (await count('kept')) >= 6, {
        timeout: 15_000,
        timeoutMsg: 'Settings did not show the kept media',
      });
      for (const state of ['waiting', 'gone', 'failed', 'too_large']) expect(await count(state)).toBeGreaterThanOrEqual(0);
      await expect(section).toHaveText(expect.stringMatching(/Files\s+[\d,]+ files?, [\d.]+ (kB|MB|GB)/));
      // Nothing to send back unless something failed.
      const retry = section.$('button=Retry failed');
      if ((await count('failed')) === 0) await expect(retry).toBeDisabled();
      else await expect(retry).toBeEnabled();
      await screenshotBothThemes('media-queue-settings');
      await auditBothThemes('media-queue-settings', '[data-testid="media-queue"]');

      // The bundle goes to a folder of this test's own.
      await $('#pref-exportFolder').setValue(exportFolder);
      await $('button=Save settings').click();
      await expect($('span.note=Saved.')).toBeDisplayed();
    });

    it("exports the case's bundle with its media files, and sha256sum -c passes as VERIFY.txt says", async () => {
      await openCase();
      await $('button=Export evidence bundle').click();
      const saved = $('.evidence-export p[role="status"]');
      await expect(saved).toHaveText(expect.stringMatching(/^Saved .+\.zip: /), { wait: 90_000 });
      const bundle = (await saved.getText()).replace(/^Saved /, '').replace(/\.zip: [\s\S]*$/, '.zip');
      expect(existsSync(bundle)).toBe(true);
      const dir = mkdtempSync(path.join(tmpdir(), 'sightline-media-bundle-'));
      execFileSync('unzip', ['-q', bundle, '-d', dir]);

      // The command the bundle's own instructions give, run where they say.
      expect(readFileSync(path.join(dir, 'VERIFY.txt'), 'utf8')).toContain('sha256sum -c SHA256SUMS');
      const checked = execFileSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
      const lines = checked.trim().split('\n');
      expect(lines.filter((line) => !line.endsWith(': OK'))).toEqual([]);

      // The media files are there, each named by the SHA-256 of its bytes and checked.
      const media = readdirSync(path.join(dir, 'media'));
      expect(media.length).toBeGreaterThanOrEqual(6);
      for (const name of media) {
        const bytes = readFileSync(path.join(dir, 'media', name));
        expect(`${createHash('sha256').update(bytes).digest('hex')}.${name.split('.').pop()}`).toBe(name);
        expect(lines).toContain(`media/${name}: OK`);
      }
      const records = readFileSync(path.join(dir, 'media.jsonl'), 'utf8').trim().split('\n');
      expect(records.length).toBeGreaterThanOrEqual(media.length);
      console.log(`media e2e: ${path.basename(bundle)}: ${lines.length} files checked by sha256sum, ${media.length} media files, ${records.length} media records`);
      await nothingRefused();
    });
  });
});
