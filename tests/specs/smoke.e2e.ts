import { browser, $, expect } from '@wdio/globals';
import { screenshotBothThemes } from '../support/screenshots.ts';

const sidebar = () => $('nav[aria-label="Screens"]');

describe('the Sightline shell', () => {
  it('opens a window titled Sightline with the screen navigation', async () => {
    await expect(sidebar()).toBeDisplayed();
    await expect(browser).toHaveTitle(expect.stringContaining('Sightline'));
  });

  it('shows Settings with the version, data folder and a reachable keychain', async () => {
    await sidebar().$('a=Settings').click();
    await expect($('h1=Settings')).toBeDisplayed();
    await expect($('[data-testid="app-version"]')).toHaveText(/^\d+\.\d+\.\d+/);
    // The app runs in the throw-away folders the harness made for this session.
    await expect($('[data-testid="data-dir"]')).toHaveText(expect.stringContaining('sightline-e2e-'));
    await expect($('[data-testid="keychain-status"]')).toHaveText('Reachable');
    await screenshotBothThemes('settings');
  });

  it('marks the open screen in the sidebar and keeps keyboard focus visible on it', async () => {
    const settings = sidebar().$('a=Settings');
    await settings.click();
    await expect(settings).toHaveAttribute('aria-current', 'page');
    await expect(settings).toBeFocused();
  });
});
