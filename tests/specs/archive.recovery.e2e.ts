import { browser, $, expect } from '@wdio/globals';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { auditBothThemes, focused, tabTo } from '../support/a11y.ts';
import { enterDemo, openScreen } from '../support/demo.ts';
import { garblePostsPage, sha256, sqlite } from '../support/sqlite.ts';

const banner = () => $('div.banner');

/** Sends an X search and waits for its posts or its error banner. */
async function search(query: string) {
  await $('#x-query').click();
  await browser.keys(['Control', 'a']);
  await browser.keys(['Backspace']);
  await $('#x-query').setValue(query);
  await browser.keys(['Enter']);
  await browser.waitUntil(async () => (await banner().isExisting()) || (await $('article.post').isExisting()), {
    timeout: 30_000,
    timeoutMsg: `No answer for "${query}"`,
  });
}

/**
 * An archive this Sightline cannot use opens a plain screen that says why and offers the ways on,
 * never a window where every command fails. The data folder is changed between restarts as a
 * newer Sightline, then a failing disk, would leave it (see wdio.conf.ts: `*.recovery.e2e.ts`).
 */
describe('an archive Sightline cannot use', () => {
  const dataDir = process.env.SIGHTLINE_E2E_DATA_DIR as string;
  const archive = path.join(dataDir, 'demo.db');

  it('from a newer Sightline: says so, and opens it read-only', async () => {
    await enterDemo();
    await openScreen('X', 'X search');
    await search('#AI');
    expect(await banner().isExisting()).toBe(false);

    // What a newer Sightline leaves: a migration this one does not know.
    sqlite(
      archive,
      `INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
       VALUES (20991231, 'from a newer Sightline', 1, x'00', 0)`,
    );
    await browser.reloadSession();
    const title = $('h1=This archive is from a newer Sightline');
    await expect(title).toBeDisplayed();
    await expect($('main')).toHaveText(expect.stringContaining('This version cannot change it'));
    // A plain screen: no sidebar of screens whose commands would all fail.
    expect(await $('nav[aria-label="Screens"]').isExisting()).toBe(false);
    await auditBothThemes('recovery-newer');

    // From the keyboard: Tab reaches "Open it read-only", its focus drawn, and Enter takes it.
    const { reached, path: stops } = await tabTo((stop) => stop.what.startsWith('button "Open it read-only"'));
    if (!reached) throw new Error(`"Open it read-only" not reached by Tab: ${stops.map((s) => s.what).join(' → ')}`);
    expect(reached.visible).toBe(true);
    await browser.keys(['Enter']);

    const readOnly = $('p=Read-only: this archive is shown as it is. Nothing can be sent or saved. Quit and open Sightline again to choose another way.');
    await expect(readOnly).toBeDisplayed();
    // The search made before is there to read.
    await openScreen('History');
    await expect($('main')).toHaveText(expect.stringContaining('1 request'));
    await expect($('main')).toHaveText(expect.stringContaining('X search'));
    await auditBothThemes('read-only-history');
    // Nothing is sent while nothing could be recorded.
    await openScreen('X', 'X search');
    await search('#Solar');
    await expect(banner()).toHaveText(expect.stringContaining('opened this archive read-only'));
    expect((await focused())?.what ?? '').not.toMatch(/^body/);
  });

  it('damaged: says so, and starts a new archive keeping the old file', async () => {
    // The newer version's mark taken out again, and a page of the posts garbled, while the app
    // holds the file read-only (it writes nothing). The file's last clean check forgotten too:
    // the app reads the whole file only when one is due (after an unclean close, a week after
    // the last, or none recorded), and the earlier session may have ended cleanly.
    sqlite(archive, 'DELETE FROM _sqlx_migrations WHERE version = 20991231');
    sqlite(archive, "DELETE FROM archive_state WHERE key = 'last_clean_check'");
    garblePostsPage(archive);
    const damaged = sha256(archive);
    await browser.reloadSession();
    // The app may open first; its check in the background finds the damage.
    const title = $('h1=This archive’s file is damaged');
    await expect(title).toBeDisplayed({ wait: 30_000 });
    await expect($('main')).toHaveText(expect.stringContaining('There is no copy to restore'));
    await $('summary=Details').click();
    await auditBothThemes('recovery-damaged');

    await $('button=Start a new archive').click();
    await expect($('nav[aria-label="Screens"]')).toBeDisplayed();
    const notice = $('main > .notice');
    await expect(notice).toHaveText(expect.stringContaining('Nothing was deleted.'));
    const kept = readdirSync(dataDir).filter((name) => /^demo-damaged-.*\.db$/.test(name));
    expect(kept).toHaveLength(1);
    expect(sha256(path.join(dataDir, kept[0]))).toBe(damaged);
    await expect(notice).toHaveText(expect.stringContaining(kept[0]));
    // A new archive that works: a search is answered and kept.
    await openScreen('X', 'X search');
    await search('#AI');
    expect(await banner().isExisting()).toBe(false);
    await openScreen('History');
    await expect($('main')).toHaveText(expect.stringContaining('1 request'));
  });
});
