import { $, $$, browser, expect } from '@wdio/globals';
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';

const signing = () => $('section[aria-labelledby="signing-title"]');
const fingerprint = async () => (await signing().$('[data-testid="signing-fingerprint"]').getText()).replace(/\s+/g, '');

/**
 * Settings → Signing identity in the real app, over the real keychain of the test session
 * (scripts/with-keyring.sh): the key pair made at first use, "Collected by" kept across a
 * reload, the public key exported as PEM whose SHA-256 is the fingerprint shown, and a new key
 * pair made after the dialog, the old one listed.
 */
describe('Settings: the signing identity', () => {
  before(async () => {
    await enterDemo();
  });

  it('shows the fingerprint, saves the collector, exports the key and rotates it', async () => {
    await openScreen('Settings');
    await signing().$('[data-testid="signing-fingerprint"]').waitForDisplayed({ timeout: 15_000 });
    const first = await fingerprint();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    await expect(signing()).toHaveText(expect.stringContaining("None: this is the installation's first key."));

    // A name too long is refused under its field; a fitting one is saved and kept.
    await signing().$('#signing-collector').setValue('x'.repeat(121));
    await signing().$('button=Save name').click();
    await expect(signing().$('#signing-collector-error')).toHaveText('Keep the name under 120 characters.');
    await signing().$('#signing-collector').setValue('Jane Doe, Newsroom');
    await signing().$('button=Save name').click();
    await expect(signing().$('span=Saved.')).toBeDisplayed();
    await browser.refresh();
    await openScreen('Settings');
    await expect(signing().$('#signing-collector')).toHaveValue('Jane Doe, Newsroom');
    expect(await fingerprint()).toBe(first);

    // The public key, saved in the export folder: its DER's SHA-256 is the fingerprint shown.
    const folder = mkdtempSync(path.join(tmpdir(), 'sightline-signing-exports-'));
    await $('#pref-exportFolder').setValue(folder);
    await $('button=Save settings').click();
    await expect($('span=Saved.')).toBeDisplayed();
    await signing().$('button=Export public key…').click();
    const note = signing().$('p*=Public key saved to');
    await expect(note).toBeDisplayed();
    const file = (await note.getText()).replace('Public key saved to ', '');
    const pem = readFileSync(file, 'utf8');
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const der = createPublicKey(pem).export({ type: 'spki', format: 'der' });
    expect(createHash('sha256').update(der).digest('hex')).toBe(first);
    // Saving Preferences did not undo the collector's name.
    await expect(signing().$('#signing-collector')).toHaveValue('Jane Doe, Newsroom');

    // Rotation asks first, in words; Cancel changes nothing.
    await signing().$('button=Make a new key pair…').click();
    const dialog = $('dialog[aria-labelledby="rotate-title"]');
    await expect(dialog).toBeDisplayed();
    await expect(dialog).toHaveText(expect.stringContaining('what it signed still checks out'));
    await auditBothThemes('settings-rotate-dialog');
    // Focus opens on Cancel, so Enter cannot make a new key by accident.
    expect(await browser.execute(() => document.activeElement?.textContent?.trim())).toBe('Cancel');
    await browser.keys('Enter');
    await expect(dialog).not.toBeDisplayed();
    expect(await fingerprint()).toBe(first);

    await signing().$('button=Make a new key pair…').click();
    await dialog.$('button=Make a new key pair').click();
    await expect(dialog).not.toBeDisplayed();
    await browser.waitUntil(async () => (await fingerprint()) !== first, { timeout: 10_000 });
    const earlier = signing().$('[data-testid="earlier-keys"]');
    await expect(earlier).toBeDisplayed();
    const listed = await earlier.$$('li code').map(async (code) => (await code.getText()).replace(/\s+/g, ''));
    expect(listed).toEqual([first]);
    await expect(earlier).toHaveText(expect.stringContaining('replaced by a new key'));
    expect(await $$('[data-testid="signing-fingerprint"]').length).toBe(1);

    await signing().scrollIntoView();
    await auditBothThemes('settings-signing');
  });
});
