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

/**
 * Clicks the tier card's Activate and waits (60 s: the wallet signs, the chain confirms, the server checks)
 * for its Deactivate; when that never comes, the failure says what the dashboard showed instead (its alerts,
 * the card, e.g. still "Processing...").
 */
export async function activateFromDashboard(page: Page, order: number): Promise<void> {
  const card = page.getByTestId(`tier-card-${order}`);
  await card.getByRole('button', { name: 'Activate' }).click();
  await card
    .getByRole('button', { name: 'Deactivate' })
    .waitFor({ timeout: 60_000 })
    .catch(async (err: unknown) => {
      const alerts = await page.getByRole('alert').allTextContents();
      throw new Error(
        `no Deactivate after 60 s; alerts: ${JSON.stringify(alerts)}; card: ${await card.textContent()}`,
        { cause: err },
      );
    });
}
