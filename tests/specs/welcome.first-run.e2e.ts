import { browser, $, expect } from '@wdio/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { screenshotBothThemes } from '../support/screenshots.ts';
import { sandbox } from '../support/sandbox.ts';

/** The app's data folder (wdio.conf passes it on for first-run and live specs). */
function dataDir(): string {
  const dir = process.env.SIGHTLINE_E2E_DATA_DIR;
  if (!dir) throw new Error('No data folder: only *.first-run.e2e.ts and *.live.e2e.ts specs are given one');
  return dir;
}

/** The app's entries in the Secret Service of this test session (scripts/with-keyring.sh). */
function keychainEntries(): string[] {
  const answer = execFileSync(
    'gdbus',
    [
      'call',
      '--session',
      '--dest',
      'org.freedesktop.secrets',
      '--object-path',
      '/org/freedesktop/secrets',
      '--method',
      'org.freedesktop.Secret.Service.SearchItems',
      "{'service': 'app.sightline.desktop'}",
    ],
    { encoding: 'utf8' },
  );
  return answer.match(/'\/org\/freedesktop\/secrets\/collection\/[^']+'/g) ?? [];
}

/**
 * A first run starts from an empty keychain: the test session's keyring is shared by every spec
 * of the run, and an earlier one (keys-and-spend.live) leaves its key there, which a new key
 * under the same name would replace in place.
 */
function emptyKeychain() {
  for (const item of keychainEntries()) {
    execFileSync('gdbus', ['call', '--session', '--dest', 'org.freedesktop.secrets', '--object-path', item.slice(1, -1), '--method', 'org.freedesktop.Secret.Item.Delete'], { encoding: 'utf8' });
  }
  expect(keychainEntries()).toEqual([]);
}

/** Nothing of a failed check was kept: no key in the keychain, no keys.json, no address. */
function assertNothingKept() {
  expect(keychainEntries()).toEqual([]);
  expect(existsSync(path.join(dataDir(), 'keys.json'))).toBe(false);
  expect(existsSync(path.join(dataDir(), 'settings.json'))).toBe(false);
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function check(key: string, address: string) {
  await $('#welcome-key').setValue(key);
  await $('#welcome-address').setValue(address);
  await $('button=Use this key').click();
}

async function expectProblem(field: 'address' | 'key', words: string) {
  const message = $(`#welcome-${field}-error`);
  await expect(message).toBeDisplayed({ wait: 30_000 });
  await expect(message).toHaveText(expect.stringContaining(words));
  await expect($(`#welcome-${field}`)).toHaveAttribute('aria-invalid', 'true');
  await expect($('button=Use this key')).toBeEnabled();
}

/**
 * A new user with a real key and no address known (no SIGHTLINE_BASE_URL, no settings): the
 * welcome asks for both and checks them together against the sandbox standing in for the
 * service. Each wrong answer is named next to its field, and nothing is kept until both are right.
 */
describe('the first run, with a key and the service address', () => {
  before(emptyKeychain);
  it('names a wrong address next to the address, keeping nothing', async () => {
    await expect($('h2=Paste your API key')).toBeDisplayed({ wait: 60_000 });
    await expect($('#welcome-address')).toBeDisplayed();

    await check(sandbox().key, `http://127.0.0.1:${await closedPort()}`);
    await expectProblem('address', 'nothing is listening there');
    await expect($('#welcome-address')).toBeFocused();
    assertNothingKept();
    await screenshotBothThemes('welcome-address-refused');

    await check(sandbox().key, 'https://nonexistent.invalid');
    await expectProblem('address', 'No computer has this name');
    assertNothingKept();
    await screenshotBothThemes('welcome-address-unknown');
  });

  it('names a placeholder key (403) and a refused key (401) next to the key, keeping nothing', async () => {
    // Long enough for Sightline's own shape check, cut short for the service: "not a key".
    await check(`dt_$${'Q'.repeat(25)}`, sandbox().baseUrl);
    await expectProblem('key', 'not an API key at all (403)');
    await expect($('#welcome-address')).not.toHaveAttribute('aria-invalid', 'true');
    assertNothingKept();
    await screenshotBothThemes('welcome-key-not-a-key');

    await check(`dt_$${'Q'.repeat(43)}`, sandbox().baseUrl);
    await expectProblem('key', 'refused this key (401)');
    assertNothingKept();
    await screenshotBothThemes('welcome-key-refused-401');
  });

  it('keeps both once the key works at the address, and goes live', async () => {
    await check(sandbox().key, sandbox().baseUrl);
    await expect($('h1=X search')).toBeDisplayed({ wait: 30_000 });
    await expect($('[data-testid="demo-badge"]')).not.toBeDisplayed();
    expect(keychainEntries()).toHaveLength(1);
    const settings = JSON.parse(readFileSync(path.join(dataDir(), 'settings.json'), 'utf8')) as { baseUrl: string };
    expect(settings.baseUrl).toBe(sandbox().baseUrl);
    const keys = JSON.parse(readFileSync(path.join(dataDir(), 'keys.json'), 'utf8')) as { keys: { verifiedAt: string | null }[] };
    expect(keys.keys).toHaveLength(1);
    expect(keys.keys[0]?.verifiedAt).toBeTruthy();
    // The key is never shown again in full.
    await expect($('body')).not.toHaveText(expect.stringContaining(sandbox().key));
    await screenshotBothThemes('welcome-live');
  });
});
