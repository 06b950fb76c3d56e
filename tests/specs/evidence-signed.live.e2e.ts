import { browser, $, $$, expect } from '@wdio/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { auditBothThemes } from '../support/a11y.ts';
import { repoRoot } from '../support/app.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { sandbox } from '../support/sandbox.ts';

const NAME = 'Harbour fire';
const sidebar = () => $('nav[aria-label="Screens"]');
const verdict = () => $('.verify p.verdict');

async function open(screen: string, title = screen) {
  await sidebar().$(`a=${screen}`).click();
  await expect($(`h1=${title}`)).toBeDisplayed();
}

/** The local test timestamp authority (`sightline-test-tsa`: `openssl ts -reply` behind HTTP). */
function startTsa(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const binary = path.join(repoRoot, 'target', 'debug', 'sightline-test-tsa');
  if (!existsSync(binary)) throw new Error(`No test TSA at ${binary}: cargo build -p sightline-sandbox --features test-tsa --bin sightline-test-tsa`);
  const child = spawn(binary, ['--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The test TSA did not start within 20 s')), 20_000);
    child.on('error', reject);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('tsa_url=')) {
        clearTimeout(timer);
        resolve({ url: line.slice('tsa_url='.length).trim(), child });
      }
    });
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir`, as paths relative to it with `/`. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    return statSync(path.join(dir, relative)).isDirectory() ? filesUnder(dir, relative) : [relative];
  });
}

/**
 * What a forger does: unzip, edit a post, write the new hash into the manifest's list and
 * every line of SHA256SUMS, zip it again. Only the signature cannot be redone.
 */
function forgedCopy(bundle: string, work: string): string {
  const dir = path.join(work, 'forged');
  execFileSync('unzip', ['-q', bundle, '-d', dir]);
  const posts = path.join(dir, 'posts.jsonl');
  const text = readFileSync(posts, 'utf8');
  const edited = text.replace(/"text":"([^"]*?)"/, '"text":"Nothing happened at the harbour"');
  expect(edited).not.toBe(text);
  writeFileSync(posts, edited);
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: { path: string; bytes: number; sha256: string }[] };
  for (const file of manifest.files) {
    const bytes = readFileSync(path.join(dir, file.path));
    file.sha256 = sha256(bytes);
    file.bytes = bytes.length;
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const sums = filesUnder(dir)
    .filter((file) => file !== 'SHA256SUMS')
    .map((file) => `${sha256(readFileSync(path.join(dir, file)))}  ${file}\n`)
    .join('');
  writeFileSync(path.join(dir, 'SHA256SUMS'), sums);
  // The forger's copy passes sha256sum -c: only the signature tells.
  execFileSync('sha256sum', ['-c', '--strict', '--quiet', 'SHA256SUMS'], { cwd: dir });
  const copy = path.join(work, 'forged.zip');
  execFileSync('zip', ['-q', '-r', '-X', copy, '.'], { cwd: dir });
  return copy;
}

async function verify(file: string) {
  await open('Investigations');
  const field = $('.verify label.path input');
  await field.setValue(file);
  await $('button=Verify').click();
  await expect($('.verify ul.checks')).toBeDisplayed({ wait: 30_000 });
}

async function checkLine(kind: string): Promise<{ state: string; text: string }> {
  const line = $(`.verify ul.checks li[data-check="${kind}"]`);
  // Its first class is its state (holds, fails, absent); Svelte adds its scoping class after.
  const state = ((await line.getAttribute('class')) ?? '').split(' ')[0] ?? '';
  return { state, text: await line.getText() };
}

/**
 * Issue 30 end to end, against the service (the sandbox) and a local timestamp authority: the
 * authority set in Settings, a case's captures stamped, its bundle exported and verified
 * exactly as written (the fingerprint it names the one Settings shows); a copy edited with its
 * sums and manifest recomputed is caught by its signature, and a copy with bytes planted before
 * its first entry by the strict reader. Each state is audited with axe in both themes.
 */
describe('a signed, stamped bundle, verified and tampered with', () => {
  const exportFolder = mkdtempSync(path.join(tmpdir(), 'sightline-signed-exports-'));
  const work = mkdtempSync(path.join(tmpdir(), 'sightline-signed-work-'));
  let tsa: ChildProcess | null = null;
  let bundle = '';

  after(() => {
    tsa?.kill('SIGTERM');
  });

  it('sets a key, the export folder and the local timestamp authority', async () => {
    const started = await startTsa(path.join(work, 'tsa'));
    tsa = started.child;
    await sidebar().waitForDisplayed({ timeout: 60_000 });
    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed({ wait: 30_000 });

    await open('Settings');
    await $('#pref-exportFolder').setValue(exportFolder);
    await $('button=Save settings').click();
    await expect($('span.note=Saved.')).toBeDisplayed();
    await $('#tsa-url').setValue(started.url);
    await $('section[aria-labelledby="tsa-title"]').$('button=Save').click();
    await expect($('#tsa-url')).toHaveValue(started.url);
  });

  it('stamps the captures of a case filed under it', async () => {
    await open('Investigations');
    await $('#investigation-name').setValue(NAME);
    await $('#investigation-description').setValue('What was said about the harbour fire');
    await $('button=Create investigation').click();
    await expect($('main').$(`a=${NAME}`)).toBeDisplayed({ wait: 10_000 });
    await $('#picker-select').selectByVisibleText(NAME);
    await open('X', 'X search');
    await $('#x-query').setValue('harbour fire');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });

    await open('Investigations');
    await $('main').$(`a=${NAME}`).click();
    await expect($(`h1=${NAME}`)).toBeDisplayed();
    const counts = $('[data-testid="stamp-counts"]');
    await counts.waitForDisplayed({ timeout: 30_000 });
    if (await $('button=Stamp now').isExisting()) await $('button=Stamp now').click();
    await browser.waitUntil(async () => /^Trusted timestamps: \d+ captures? stamped$/.test((await counts.getText()).trim()), {
      timeout: 60_000,
      timeoutMsg: 'The captures were not all stamped by the local authority',
    });
  });

  it('exports the bundle and verifies it exactly as written, by the key Settings shows', async () => {
    await $('button=Export evidence bundle').click();
    const saved = $('.evidence-export p[role="status"]');
    await expect(saved).toHaveText(expect.stringMatching(/^Saved .+\.zip: /), { wait: 60_000 });
    bundle = (await saved.getText()).replace(/^Saved /, '').replace(/: \d[\d,]* posts?, .*$/, '');
    expect(existsSync(bundle)).toBe(true);

    // The custody log names the export, and its chain checks out; the tab passes the audit.
    await $('#investigation-tab-custody').click();
    const custody = $('#investigation-panel-custody');
    await expect(custody.$('table')).toHaveText(expect.stringContaining('Evidence bundle exported'), { wait: 15_000 });
    await custody.$('button=Check the chain').click();
    await expect($('[data-testid="custody-check"]')).toHaveText(expect.stringContaining('Unbroken'), { wait: 15_000 });
    await screenshotBothThemes('investigation-custody');
    await auditBothThemes('investigation-custody');

    // The same case as a web archive, into the export folder.
    await $('button=Export as web archive (WACZ)').click();
    await expect($('.wacz-export')).toHaveText(expect.stringMatching(/Saved .+\.wacz: /), { wait: 60_000 });

    await verify(bundle);
    await expect(verdict()).toHaveText(expect.stringMatching(/^Exactly as Sightline on this computer wrote it: every file matches its sum, the manifest is signed with this computer's key, \d+ timestamp tokens are valid, the custody log is unbroken and this computer recorded exporting it\.$/));
    for (const kind of ['files', 'signature', 'timestamps', 'custody', 'export']) {
      expect((await checkLine(kind)).state).toBe('holds');
    }
    expect((await checkLine('timestamps')).text).toMatch(/timestamp tokens are valid/);
    const shown = await $('[data-testid="verify-fingerprint"]').getText();
    expect(shown).toMatch(/^([0-9a-f]{4} ){15}[0-9a-f]{4}$/);
    await verdict().scrollIntoView({ block: 'center' });
    await screenshotBothThemes('evidence-signed-verified');
    await auditBothThemes('evidence-signed-verified');

    // Settings shows the same key.
    await open('Settings');
    const settingsFingerprint = $('[data-testid="signing-fingerprint"]');
    await settingsFingerprint.waitForDisplayed({ timeout: 15_000 });
    expect(await settingsFingerprint.getText()).toBe(shown);
  });

  it('catches a copy edited with its sums and manifest recomputed by its signature', async () => {
    const copy = forgedCopy(bundle, work);
    await verify(copy);
    await expect(verdict()).toHaveText(expect.stringContaining('the signature is not valid: the manifest was changed after it was signed'));
    await expect(verdict()).toHaveText(expect.stringMatching(/^The files match their sums/));
    expect((await checkLine('files')).state).toBe('holds');
    const signature = await checkLine('signature');
    expect(signature.state).toBe('fails');
    expect(signature.text).toContain('The signature is not valid');
    expect((await checkLine('export')).state).toBe('fails');
    await verdict().scrollIntoView({ block: 'center' });
    await screenshotBothThemes('evidence-signed-forged');
    await auditBothThemes('evidence-signed-forged');
  });

  it('names bytes planted before the first entry, and the findings list passes the audit', async () => {
    const prefixed = path.join(work, 'prefixed.zip');
    writeFileSync(prefixed, Buffer.concat([Buffer.from('planted before the first entry\n'), readFileSync(bundle)]));
    execFileSync('zip', ['-q', '-A', prefixed]);
    await verify(prefixed);
    await expect(verdict()).toHaveText(expect.stringContaining('the ZIP holds more than its files'));
    await expect($('.verify ul.findings')).toHaveText(expect.stringMatching(/^31 bytes before the first entry \(.+\) are listed in no index: data no tool shows\.$/));
    expect((await checkLine('signature')).state).toBe('holds');
    expect((await checkLine('files')).state).toBe('fails');
    expect(await $$('.verify ul.checks li').length).toBe(5);
    await $('.verify ul.findings').scrollIntoView({ block: 'center' });
    await auditBothThemes('evidence-signed-findings');

    // From the keyboard: the path field, then Verify, run a check again.
    await $('.verify label.path input').click();
    await browser.keys(['Enter']);
    await expect($('.verify ul.findings')).toBeDisplayed({ wait: 30_000 });
  });
});
