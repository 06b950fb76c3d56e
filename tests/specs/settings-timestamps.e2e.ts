import { $, browser, expect } from '@wdio/globals';
import { auditBothThemes } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';

const SECTION = 'section[aria-labelledby="tsa-title"]';
const section = () => $(SECTION);
const address = () => section().$('#tsa-url');
const certificate = () => section().$('#tsa-certificate');
const sees = () => section().$('[data-testid="tsa-sees"]');

/** Scrolls the section's top to the window's, so its screenshots show it from its heading. */
async function showSection(): Promise<void> {
  await browser.execute((selector: string) => document.querySelector(selector)?.scrollIntoView({ block: 'start' }), SECTION);
}

/** A certificate's frame with no certificate inside: it looks like PEM but cannot be read. */
const MALFORMED = '-----BEGIN CERTIFICATE-----\nthis is not a certificate\n-----END CERTIFICATE-----';

/** The id of the element just before `id`'s, in the same field. */
function previousId(id: string): Promise<string | undefined> {
  return browser.execute((of: string) => document.getElementById(of)?.previousElementSibling?.id, id);
}

/**
 * Settings → Trusted timestamps in the real app: an address that is not one and a certificate
 * that cannot be read are each refused under their own field, and nothing is kept; a public
 * authority picked from the list is named with what it will see (each capture's hash and when,
 * never the data) and kept across a reload; cleared, no authority is asked. The section alone
 * passes axe in both themes, with its errors showing and with an authority picked.
 */
describe('Settings: trusted timestamps', () => {
  before(async () => {
    await enterDemo();
  });

  it('refuses each wrong field beside it, names what a picked authority sees, and clears back to none', async () => {
    await openScreen('Settings');
    await address().waitForDisplayed({ timeout: 15_000 });
    // None by default: nobody is named.
    await expect(address()).toHaveValue('');
    await expect(sees()).not.toBeExisting();
    await expect(section()).toHaveText(expect.stringContaining('never the data itself'));

    // An address without its scheme and a certificate that cannot be read: each error under its
    // own field, the field marked invalid and described by it.
    await address().setValue('freetsa.org/tsr');
    await certificate().setValue(MALFORMED);
    await section().$('button=Save').click();
    const addressError = section().$('#tsa-url-error');
    await expect(addressError).toHaveText(
      "Enter the authority's full address, starting with https:// or http://, like https://freetsa.org/tsr.",
    );
    await expect(section().$('#tsa-certificate-error')).toHaveText(
      'This certificate could not be read: check that the whole PEM text was pasted, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.',
    );
    expect(await previousId('tsa-url-error')).toBe('tsa-url');
    expect(await previousId('tsa-certificate-error')).toBe('tsa-certificate');
    await expect(address()).toHaveAttribute('aria-invalid', 'true');
    await expect(certificate()).toHaveAttribute('aria-invalid', 'true');
    expect(await address().getAttribute('aria-describedby')).toContain('tsa-url-error');
    expect(await certificate().getAttribute('aria-describedby')).toContain('tsa-certificate-error');
    await expect(section().$('span=Saved.')).not.toBeExisting();
    await showSection();
    await auditBothThemes('settings-timestamps-errors', SECTION);

    // Nothing was kept: after a reload the section is as it was.
    await browser.refresh();
    await openScreen('Settings');
    await address().waitForDisplayed({ timeout: 15_000 });
    await expect(address()).toHaveValue('');
    await expect(certificate()).toHaveValue('');

    // A public authority from the list: its address filled in, the button pressed, and the words
    // that it sees each capture's hash and when, never the data.
    const freeTsa = section().$('[role="group"][aria-label="Public timestamp authorities"]').$('button=FreeTSA');
    await freeTsa.click();
    await expect(address()).toHaveValue('https://freetsa.org/tsr');
    await expect(freeTsa).toHaveAttribute('aria-pressed', 'true');
    await expect(sees()).toHaveText("FreeTSA will see each capture's SHA-256 and when it was asked, never the captured data itself.");
    expect(await address().getAttribute('aria-describedby')).toContain('tsa-url-sees');
    await section().$('button=Save').click();
    await expect(section().$('span=Saved. Each new capture is sent to this authority to be stamped.')).toBeDisplayed();
    await showSection();
    await auditBothThemes('settings-timestamps-picked', SECTION);
    await browser.refresh();
    await openScreen('Settings');
    await address().waitForDisplayed({ timeout: 15_000 });
    await expect(address()).toHaveValue('https://freetsa.org/tsr');
    await expect(sees()).toHaveText(expect.stringContaining('FreeTSA will see'));

    // Cleared back to none: saved as none, nobody named, and so after a reload.
    // Emptied from the keyboard, as a user would (a WebDriver clear need not fire input).
    await address().click();
    await browser.keys(['Control', 'a']);
    await browser.keys('Backspace');
    await expect(address()).toHaveValue('');
    await expect(sees()).not.toBeExisting();
    await section().$('button=Save').click();
    await expect(section().$('span=Saved. New captures are not stamped.')).toBeDisplayed();
    await expect(freeTsa).toHaveAttribute('aria-pressed', 'false');
    await browser.refresh();
    await openScreen('Settings');
    await address().waitForDisplayed({ timeout: 15_000 });
    await expect(address()).toHaveValue('');
    await expect(sees()).not.toBeExisting();
  });
});
