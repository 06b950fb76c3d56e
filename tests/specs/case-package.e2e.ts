import { $, $$, browser, expect } from '@wdio/globals';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { firstMachine, secondMachine, switchTo, type SecondMachine } from '../support/secondMachine.ts';

/**
 * Issue 33 end to end, in the real app in demo mode: a small case is built by "Ana Ruiz" (her
 * "Collected by"), exported for a colleague, and opened in a second installation on the same
 * computer, with its own data folder, HOME, XDG folders and keychain, and no API key
 * (support/secondMachine.ts: the same binary behind a script tauri-driver starts, switched to
 * with `browser.reloadSession`; one app runs at a time). There the package is verified before
 * anything is written, the case arrives with its posts, notes and tags named as Ana's, and its
 * custody log continues with the import, its chain unbroken. A copy changed by one byte is
 * refused with why. The colleague's work then goes back to the first installation and merges:
 * both notes kept, the difference listed, nothing overwritten. Screenshots and axe in both
 * themes at each step.
 */

const NAME = 'Harbour fire';
const ANA = 'Ana Ruiz';
const BEN = 'Ben Okafor';
const ANA_NOTE = 'Says the fire started at the fuel depot: check the port authority statement';
const BEN_NOTE = 'The port authority denies it: see their 09:40 statement';

const main = () => $('main');
const caseExport = () => $('.case-export');
const openSection = () => $('section.open-package');

async function setUp(folder: string, collector: string) {
  await openScreen('Settings');
  await $('#pref-exportFolder').setValue(folder);
  await $('button=Save settings').click();
  await expect($('span.note=Saved.')).toBeDisplayed();
  await $('#signing-collector').setValue(collector);
  await $('button=Save name').click();
  await expect($('form.collector').$('span.ok')).toHaveText('Saved.', { wait: 15_000 });
}

async function openCase() {
  await openScreen('Investigations');
  const link = await main().$(`a=${NAME}`);
  await link.scrollIntoView({ block: 'center' });
  await link.click();
  await expect($(`h1=${NAME}`)).toBeDisplayed();
  await $('main article.post').waitForDisplayed({ timeout: 15_000 });
}

/** Exports the open case for a colleague and answers the file written. */
async function exportForColleague(): Promise<string> {
  await caseExport().$('button=Export for a colleague').click();
  const saved = caseExport().$('p[role="status"]');
  await expect(saved).toHaveText(expect.stringMatching(/^Saved .+\.zip: /), { wait: 60_000 });
  const file = (await saved.getText()).replace(/^Saved /, '').replace(/: \d[\d,]* requests?, .*$/, '');
  expect(existsSync(file)).toBe(true);
  return file;
}

/** Opens a package from the Investigations screen by its path, as the field beside the dialog's button takes it. */
async function openPackage(file: string) {
  await openScreen('Investigations');
  const field = openSection().$('input[type="text"]');
  await field.setValue(file);
  await openSection().$('button=Open').click();
  await browser.waitUntil(async () => (await $('[data-testid="case-opened"]').isExisting()) || (await $('[data-testid="case-refused"]').isExisting()), {
    timeout: 90_000,
    timeoutMsg: `Opening ${file} did not end`,
  });
}

/** The note field on the case's page that holds `text` (cards may come in another order here). */
async function noteHolding(text: string) {
  const id = await browser.waitUntil(
    () =>
      browser.execute(
        (wanted: string) => Array.from(document.querySelectorAll<HTMLTextAreaElement>('main textarea[id$="-note"]')).find((field) => field.value === wanted)?.id ?? false,
        text,
      ),
    { timeout: 15_000, timeoutMsg: `No note field holds "${text}"` },
  );
  return $(`#${id}`);
}

/** The posts' cards on the case's page: their text, in order. */
async function cardTexts(): Promise<string[]> {
  return browser.execute(() => Array.from(document.querySelectorAll('main article.post')).map((card) => card.textContent?.replace(/\s+/g, ' ').trim() ?? ''));
}

describe('a case handed to a colleague', () => {
  const anaFolder = mkdtempSync(path.join(tmpdir(), 'sightline-case-ana-'));
  const benFolder = mkdtempSync(path.join(tmpdir(), 'sightline-case-ben-'));
  let second: SecondMachine;
  let fromAna = '';
  let postCount = '';
  let anaCards: string[] = [];

  before(() => {
    second = secondMachine();
  });
  after(() => second?.stop());

  it('builds a small case in demo mode and exports it for a colleague', async function () {
    await enterDemo();
    await setUp(anaFolder, ANA);

    await openScreen('Investigations');
    await $('#investigation-name').setValue(NAME);
    await $('#investigation-description').setValue('What was said about the fire at the harbour');
    await $('button=Create investigation').click();
    await expect(main().$(`a=${NAME}`)).toBeDisplayed({ wait: 10_000 });
    await $('#picker-select').selectByVisibleText(NAME);
    await openScreen('X', 'X search');
    await $('#x-query').setValue('harbour fire');
    await browser.keys(['Enter']);
    await $('article.post').waitForDisplayed({ timeout: 30_000 });
    await $('#picker-select').selectByVisibleText('No investigation');

    await openCase();
    const tagFields = () => $$('main input[role="combobox"][id^="post-"][id$="-tag"]');
    await tagFields()[0]!.setValue('claim');
    await browser.keys(['Enter']);
    await expect($('main button[aria-label="Remove the tag claim"]')).toBeDisplayed({ wait: 10_000 });
    const note = $('main textarea[id^="post-"][id$="-note"]');
    await note.setValue(ANA_NOTE);
    await note.parentElement().$('button=Save note').click();
    await expect(note.parentElement().$('span.state')).toHaveText('Saved', { wait: 10_000 });
    postCount = await $('[data-testid="investigation-figures"]').getText();
    anaCards = await cardTexts();

    // What the file carries is said beside the button, in words.
    await expect(caseExport()).toHaveText(expect.stringContaining('requests and the exact responses, the posts, notes, tags, still-there checks, kept media, capture receipts and the custody log'));
    fromAna = await exportForColleague();
    expect(path.dirname(fromAna)).toBe(anaFolder);
    await expect(caseExport().$('p[role="status"]')).toHaveText(expect.stringContaining('signed by this installation’s key'));
    await caseExport().scrollIntoView({ block: 'center' });
    await screenshotBothThemes('case-package-exported');
    await auditBothThemes('case-package-exported');
  });

  it('opens it in a second installation with no API key: verified first, then the case with its notes, tags and posts', async () => {
    await switchTo(second.launcher);
    await $('nav[aria-label="Screens"]').waitForDisplayed({ timeout: 30_000 });
    // Its own data folder: none of Ana's cases is here.
    await openScreen('Investigations');
    expect(await main().$(`a=${NAME}`).isExisting()).toBe(false);

    await openPackage(fromAna);
    const verified = $('[data-testid="case-verified"]');
    await expect(verified).toHaveText(expect.stringContaining(`Every file's hash reproduced`));
    await expect(verified).toHaveText(expect.stringContaining(`made with a key the package names as ${ANA}’s`));
    await expect($('[data-testid="case-headline"]')).toHaveText(`Opened as a new case, ${NAME}.`);
    await expect($('ul[aria-label="What opening the package added"]')).toHaveText(expect.stringContaining('custody log entries received as written'));
    // Ana's requests arrived with their cost as a fact about the case; this installation spent nothing.
    await expect($('[data-testid="today-spend"]')).toHaveText('$0.00');
    await verified.scrollIntoView({ block: 'center' });
    await screenshotBothThemes('case-package-opened');
    await auditBothThemes('case-package-opened');

    // The case, as Ana left it: the same figures and posts, her note and her tag, named as hers.
    await openSection().$(`a=Open ${NAME}`).click();
    await expect($(`h1=${NAME}`)).toBeDisplayed();
    await $('main article.post').waitForDisplayed({ timeout: 15_000 });
    await expect($('[data-testid="investigation-figures"]')).toHaveText(expect.stringMatching(new RegExp(`^${postCount.split(' · cost')[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));
    expect((await cardTexts()).length).toBe(anaCards.length);
    const received = await noteHolding(ANA_NOTE);
    // Named as hers: the note's label and the tag's chip.
    const notes = received.parentElement();
    await expect(notes.$('[data-testid="note-by"]')).toHaveText(`by ${ANA}`);
    await expect($('main button[aria-label="Remove the tag claim"]')).toBeDisplayed();
    await expect($('main li.tag[data-by]')).toHaveAttribute('data-by', ANA);
    await expect($('main li.tag[data-by]')).toHaveText(expect.stringContaining(`claim · by ${ANA}`));
    await received.scrollIntoView({ block: 'center' });
    await screenshotBothThemes('case-package-received-posts');
    await auditBothThemes('case-package-received-posts');

    // The custody log goes on from Ana's: her entries as written, then the import; the chain holds.
    await $('#investigation-tab-custody').click();
    const custody = $('#investigation-panel-custody');
    await expect(custody.$('table')).toHaveText(expect.stringContaining('Package imported'), { wait: 15_000 });
    await expect(custody.$('table')).toHaveText(expect.stringContaining('Created'));
    await custody.$('button=Check the chain').click();
    await expect($('[data-testid="custody-check"]')).toHaveText(expect.stringContaining('Unbroken'), { wait: 15_000 });
    await screenshotBothThemes('case-package-custody-continued');
    await auditBothThemes('case-package-custody-continued');

    // Ana's request is here with its cost and key as facts about the case, never this installation's spending.
    await $('#investigation-tab-queries').click();
    const queries = $('#investigation-panel-queries');
    const row = queries.$('button.row');
    await expect(row).toHaveText(expect.stringContaining('· received'), { wait: 10_000 });
    await row.click();
    await expect($('[data-testid="received-from"]')).toHaveText(
      `Received from ${ANA} in a case package: sent with demo data; $0.006 was charged to ${ANA}. A fact about the case, not counted in this installation's Spend or budgets.`,
    );
    await screenshotBothThemes('case-package-received-request');
    await auditBothThemes('case-package-received-request');
    await expect($('[data-testid="today-spend"]')).toHaveText('$0.00');
  });

  it('refuses a copy changed by one byte, saying why, and imports nothing', async () => {
    const changed = path.join(benFolder, 'changed.zip');
    copyFileSync(fromAna, changed);
    const bytes = readFileSync(changed);
    // A byte in the middle of the file: inside some entry's data.
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(changed, bytes);
    await openPackage(changed);
    await expect($('[data-testid="case-refused"] [role="alert"]')).toHaveText(expect.stringMatching(/^Refused: .+ Nothing was imported\.$/));
    await $('[data-testid="case-refused"]').scrollIntoView({ block: 'center' });
    await screenshotBothThemes('case-package-refused');
    await auditBothThemes('case-package-refused');
  });

  it('merges the colleague’s work back: both notes kept and named, the difference listed, nothing overwritten', async () => {
    // Ben, in the second installation, names himself, writes his own note on the same post and
    // exports the case back.
    await setUp(benFolder, BEN);
    await openCase();
    const note = await noteHolding(ANA_NOTE);
    await note.setValue(BEN_NOTE);
    await note.parentElement().$('button=Save note').click();
    await expect(note.parentElement().$('span.state')).toHaveText('Saved', { wait: 10_000 });
    const fromBen = await exportForColleague();

    // Back to Ana's installation, where her case and note are as she left them.
    await switchTo(firstMachine());
    await $('nav[aria-label="Screens"]').waitForDisplayed({ timeout: 30_000 });
    await openPackage(fromBen);
    await expect($('[data-testid="case-verified"]')).toHaveText(expect.stringContaining(`made with a key the package names as ${BEN}’s`));
    await expect($('[data-testid="case-headline"]')).toHaveText(`Merged into ${NAME}, the case this installation already held: nothing here was overwritten.`);
    const conflicts = $('ul[aria-label="Differences kept on both sides"]');
    await expect(conflicts).toHaveText(expect.stringContaining(ANA_NOTE));
    await expect(conflicts).toHaveText(expect.stringContaining(BEN_NOTE));
    await expect(conflicts).toHaveText(expect.stringContaining(`${BEN}’s`));
    await conflicts.scrollIntoView({ block: 'center' });
    await screenshotBothThemes('case-package-merged');
    await auditBothThemes('case-package-merged');

    // On the case: Ana's note kept, Ben's listed beside it; the custody log's chain still holds.
    await openSection().$(`a=Open ${NAME}`).click();
    await $('main article.post').waitForDisplayed({ timeout: 15_000 });
    const kept = await noteHolding(ANA_NOTE);
    // Her own note carries no "by"; Ben's is beside it, named.
    expect(await kept.parentElement().$('[data-testid="note-by"]').isExisting()).toBe(false);
    const beside = kept.parentElement().$('[data-testid="other-notes"]');
    await expect(beside).toHaveText(`${BEN}: ${BEN_NOTE}`);
    await beside.scrollIntoView({ block: 'center' });
    await expect($('[data-testid="standing-conflicts"]')).toBeDisplayed();
    // Unfolded from the keyboard: the summary takes focus, Enter opens it.
    const summary = await $('[data-testid="standing-conflicts"] summary');
    await summary.scrollIntoView({ block: 'center' });
    await browser.execute((element: HTMLElement) => element.focus(), summary as unknown as HTMLElement);
    await browser.keys(['Enter']);
    await expect($('[data-testid="standing-conflicts"]')).toHaveText(expect.stringContaining(BEN_NOTE));
    await screenshotBothThemes('case-package-merged-posts');
    await auditBothThemes('case-package-merged-posts');
    await $('#investigation-tab-custody').click();
    const custody = $('#investigation-panel-custody');
    await custody.$('button=Check the chain').click();
    await expect($('[data-testid="custody-check"]')).toHaveText(expect.stringContaining('Unbroken'), { wait: 15_000 });
  });
});
