// YouTube Live and Kick end to end in Debian's Chromium, as Twitch's: the product started against
// a fake YouTube and a fake Kick (in this process); for each, a streamer with Tier 1 active connects through
// the real popup (the fake's consent page, then our /callback handing the code to the dashboard, which has
// the server exchange it with its PKCE verifier), is refused while offline, mines while live, and is stopped
// when the polls show the stream ended (docs/platforms.md#live-detection).
import { Keypair } from '@solana/web3.js';
import { FakeKick, FakeYouTube, type Page } from '@strm/testing';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInAs } from './api-client.ts';
import { screenshot, seriousA11yViolations } from './artifacts.ts';
import { activateFromDashboard, launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

const POLL_MS = 1000;
const admin = Keypair.generate();
const youtube = new FakeYouTube();
const kick = new FakeKick();
let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  await Promise.all([youtube.start(), kick.start()]);
  chromium = await launchChromium();
  product = await startProduct({
    ...youtube.env(),
    ...kick.env(),
    ADMIN_WALLETS: admin.publicKey.toBase58(),
    MINING_UPDATE_INTERVAL_MS: '500',
    YOUTUBE_POLL_INTERVAL_MS: String(POLL_MS),
    KICK_POLL_INTERVAL_MS: String(POLL_MS),
  });
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
  await Promise.all([youtube.stop(), kick.stop()]);
});

describe.each([
  { platform: 'youtube', name: 'YouTube', account: 'ada_on_youtube', consentPath: '/o/oauth2/v2/auth' },
  { platform: 'kick', name: 'Kick', account: 'ada_on_kick', consentPath: '/oauth/authorize' },
] as const)('a streamer on $name', ({ platform, name, account, consentPath }) => {
  const user = Keypair.generate();
  const wallet = user.publicKey.toBase58();
  const notLive = `Your ${name} stream is not live. Go live on ${name}, then connect again.`;
  const fake = platform === 'youtube' ? youtube : kick;
  /** What the product polls a live session's status with. */
  const statusPath = platform === 'youtube' ? '/youtube/v3/videos' : '/public/v1/channels';
  /**
   * Polls that end a session (docs/platforms.md#live-detection): YouTube states the end (actualEndTime), Kick's
   * read needs a second offline read in a row.
   */
  const readsToEnd = platform === 'youtube' ? 1 : 2;
  const setLive = (live: boolean, viewers = 0) =>
    platform === 'youtube' ? youtube.setLive(account, live, viewers) : kick.setLive(account, live, viewers);
  let page: Page;
  const status = () => page.getByTestId('mining-status').textContent();
  const panel = () => page.getByTestId(`${platform}-panel`);

  beforeAll(async () => {
    expect((await callApi(product.url, null, 'POST', '/dev/faucet', { wallet })).status).toBe(200);
    const token = await signInAs(product.url, user);
    const registered = await callApi(product.url, token, 'POST', '/registrations', {
      name: 'Ada',
      email: `ada-${platform}@example.com`,
      platform,
      platform_username: account,
      streaming_frequency: 'Daily',
      follower_count: 10,
      content_type: 'Gaming',
      project_interest: 'Mining while I stream',
    });
    expect(registered.status).toBe(201);
    const adminToken = await signInAs(product.url, admin);
    expect((await callApi(product.url, adminToken, 'PUT', `/admin/beta-access/${wallet}`)).status).toBe(200);
  });

  it('activates Tier 1 from the dashboard', async () => {
    page = await chromium.browser.newPage();
    await installPhantomTestProvider(page, { keypair: user, rpcUrl: product.rpcUrl });
    await page.goto(product.url);
    await page.getByRole('button', { name: 'Connect Wallet' }).click();
    await activateFromDashboard(page, 1);
    expect(await status()).toBe('Ready');
  });

  it(`verifies the account through the ${name} popup and the /callback page`, async () => {
    if (platform === 'youtube') youtube.authorizeAs(account);
    else kick.authorizeAs(account);
    const popupOpened = page.waitForEvent('popup');
    await panel()
      .getByRole('button', { name: `Connect With ${name}` })
      .click();
    const popup = await popupOpened;
    // The platform's (the fake's) consent page: our client id, /callback as the return, PKCE S256.
    await popup.waitForURL((url) => url.pathname === consentPath);
    const authorize = new URL(popup.url());
    expect(authorize.origin).toBe(fake.url);
    expect(authorize.searchParams.get('client_id')).toBe(fake.clientId);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${product.url}/callback`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([600, 800]);
    await popup.getByRole('button', { name: 'Allow' }).click();
    // The platform sends the popup to /callback?code=…&state=…, which hands them to this page and closes.
    await popup.waitForEvent('close', { timeout: 30_000 });

    await panel().getByText('Verified', { exact: true }).waitFor({ timeout: 30_000 });
    await panel().getByText(account, { exact: true }).waitFor();
    expect(await panel().getByRole('alert').allTextContents()).toEqual([]);
    // The server exchanged the code with its verifier at the platform's token endpoint.
    const tokenPath = platform === 'youtube' ? '/token' : '/oauth/token';
    expect(fake.requests.some((r) => r.method === 'POST' && r.url.pathname === tokenPath)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('is refused while the channel is offline, with the message Twitch has', async () => {
    await panel().getByRole('button', { name: 'Start Mining' }).click();
    await panel().getByRole('alert').getByText(notLive).waitFor({ timeout: 30_000 });
    expect(await status()).toBe('Ready');
  });

  it(`mines while ${name} reports the channel live, with its viewers`, async () => {
    setLive(true, 37);
    await panel().getByRole('button', { name: 'Start Mining' }).click();
    await panel().getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await status()).toBe('Mining');
    expect(await page.getByTestId(`${platform}-metrics`).textContent()).toBe('Viewers37');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="mined-amount"]')?.textContent !== '0 STRM',
      undefined,
      { timeout: 30_000 },
    );
    await screenshot(page, `dashboard-${platform}-live-desktop`);
  });

  it(`ends the session on the poll that completes the evidence when the ${name} stream ends`, async () => {
    // A poll sees the stream live first, so the next ones are those that read it ended.
    const liveFrom = fake.answers.length;
    await expect
      .poll(() => fake.answers.slice(liveFrom).some((a) => a.path === statusPath), { timeout: POLL_MS * 10 })
      .toBe(true);
    const offlineFrom = fake.answers.length;
    setLive(false);
    await panel()
      .getByRole('alert')
      .getByText(notLive)
      .waitFor({ timeout: POLL_MS * 10 });
    await expect.poll(status).toBe('Ready');
    const token = await signInAs(product.url, user);
    const stats = (await callApi(product.url, token, 'GET', `/streamer/mining-stats?wallet=${wallet}`))
      .body as {
      isLive: boolean;
      pendingReward: number;
      recentSessions: Array<{ endedAt: string; endReason: string }>;
    };
    expect(stats.isLive).toBe(false);
    expect(stats.pendingReward).toBeGreaterThan(0);
    const session = stats.recentSessions[0]!;
    expect(session.endReason).toBe('not-live');
    // Ended by the poll that completed the evidence: that many answers before the session's end, not one more
    // (the fake's clock and the server's are this machine's), not a bound on how long the machine took.
    const polledBeforeEnd = fake.answers
      .slice(offlineFrom)
      .filter((a) => a.path === statusPath && a.at <= Date.parse(session.endedAt));
    expect(polledBeforeEnd).toHaveLength(readsToEnd);
    await page.close();
  });
});
