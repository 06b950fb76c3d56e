import { $, expect } from '@wdio/globals';

const sidebar = () => $('nav[aria-label="Screens"]');

/** A fresh app with no key: take the welcome's demo data (the embedded sandbox) when it is offered. */
export async function enterDemo(): Promise<void> {
  await sidebar().waitForDisplayed({ timeout: 30_000 });
  const explore = $('button=Explore with demo data');
  if (await explore.isDisplayed().catch(() => false)) {
    await explore.click();
  }
  await expect($('[data-testid="demo-badge"]')).toBeDisplayed();
}

/** Opens a screen from the sidebar and waits for its title. */
export async function openScreen(name: string, title = name): Promise<void> {
  await sidebar().$(`a=${name}`).click();
  await expect($(`h1=${title}`)).toBeDisplayed();
}
