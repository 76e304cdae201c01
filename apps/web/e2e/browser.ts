import type { Page } from '@strm/testing';

export { launchChromium } from '@strm/testing';

/**
 * Opens `url` in `page` with its origin's storage empty. The pages of one browser share storage per origin, and
 * the app writes to it while it starts (the wallet adapter's remembered wallet, a sign-in's token): cleared on
 * the app's own page, a write still under way put the previous test's wallet back before the reload, which then
 * connected it on its own (no 'Connect Wallet' button). So it is cleared on a page of the origin that runs none
 * of the app.
 */
export async function gotoWithEmptyStorage(page: Page, url: string): Promise<void> {
  await page.goto(new URL('/robots.txt', url).href);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto(url);
}
