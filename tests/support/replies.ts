import { $, browser } from '@wdio/globals';

const panel = () => $('#post-panel-replies');

/** The replies panel has an answer: replies, "No replies found" or an error. */
async function answered(): Promise<boolean> {
  return (
    (await panel().$$('article.post').length) > 0 ||
    (await panel().$('p*=No replies found').isExisting()) ||
    (await panel().$('[role="alert"]').isExisting())
  );
}

/**
 * Presses "Show replies" on a post's view and waits for its answer, failing with what the panel
 * shows when it holds no reply. A press that started nothing within 10 s (no "Sending…", no
 * answer: on a loaded machine the view may still be settling under WebDriver's click) is made
 * once more, and said in the run's output; the button is disabled while a request runs, so a
 * second press never sends twice.
 */
export async function showReplies(): Promise<void> {
  const button = panel().$('button=Show replies');
  for (let press = 1; press <= 2; press++) {
    await button.waitForClickable({ timeout: 30_000 });
    await button.click();
    const began = await browser
      .waitUntil(async () => (await answered()) || (await panel().$('button=Sending…').isExisting()), { timeout: 10_000 })
      .catch(() => false);
    if (began) break;
    console.warn(`"Show replies", press ${press}: no request started within 10 s`);
  }
  await browser.waitUntil(answered, { timeout: 90_000, timeoutMsg: 'the replies request had not answered after 90 s' });
  if ((await panel().$$('article.post').length) === 0) {
    throw new Error(`no replies were shown; the panel said: ${await panel().getText()}`);
  }
}
