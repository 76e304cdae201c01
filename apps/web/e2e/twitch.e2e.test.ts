// Twitch end to end in Debian's Chromium: the product started against a fake Twitch (in this process), a
// streamer with Tier 1 active verifies through the real popup (the fake's authorize page, then our /callback
// posting TWITCH_AUTH to the opener), goes live when Twitch says the channel is live, and is stopped within
// two polls when Twitch says it went offline (docs/platforms.md#live-detection).
import { Keypair } from '@solana/web3.js';
import { FakeTwitch, type Page } from '@strm/testing';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInAs } from './api-client.ts';
import { screenshot, seriousA11yViolations } from './artifacts.ts';
import { activateFromDashboard, launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

const POLL_MS = 1000;
const LOGIN = 'ada_on_twitch';
const NOT_LIVE = 'Your Twitch stream is not live. Go live on Twitch, then connect again.';
const admin = Keypair.generate();
const user = Keypair.generate();
const wallet = user.publicKey.toBase58();
const twitch = new FakeTwitch();
let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;

const status = () => page.getByTestId('mining-status').textContent();
const panel = () => page.getByTestId('twitch-panel');

beforeAll(async () => {
  await twitch.start();
  chromium = await launchChromium();
  product = await startProduct({
    ...twitch.env(),
    ADMIN_WALLETS: admin.publicKey.toBase58(),
    MINING_UPDATE_INTERVAL_MS: '500',
    TWITCH_POLL_INTERVAL_MS: String(POLL_MS),
  });
  // A registered, admitted wallet with STRM to lock.
  expect((await callApi(product.url, null, 'POST', '/dev/faucet', { wallet })).status).toBe(200);
  const token = await signInAs(product.url, user);
  const registered = await callApi(product.url, token, 'POST', '/registrations', {
    name: 'Ada',
    email: 'ada@example.com',
    platform: 'twitch',
    platform_username: LOGIN,
    streaming_frequency: 'Daily',
    follower_count: 10,
    content_type: 'Gaming',
    project_interest: 'Mining while I stream',
  });
  expect(registered.status).toBe(201);
  const adminToken = await signInAs(product.url, admin);
  expect((await callApi(product.url, adminToken, 'PUT', `/admin/beta-access/${wallet}`)).status).toBe(200);
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
  await twitch.stop();
});

describe('a streamer on Twitch', () => {
  it('activates Tier 1 from the dashboard', async () => {
    page = await chromium.browser.newPage();
    await installPhantomTestProvider(page, { keypair: user, rpcUrl: product.rpcUrl });
    await page.goto(product.url);
    await page.getByRole('button', { name: 'Connect Wallet' }).click();
    await activateFromDashboard(page, 1);
    expect(await status()).toBe('Ready');
  });

  it('verifies the account through the Twitch popup and the /callback page', async () => {
    twitch.authorizeAs(LOGIN);
    await panel().getByRole('textbox', { name: 'Twitch username' }).fill(LOGIN);
    const popupOpened = page.waitForEvent('popup');
    await panel().getByRole('button', { name: 'Connect With Twitch' }).click();
    const popup = await popupOpened;
    // The popup is Twitch's (the fake's) authorize page, with our client id and /callback as the return.
    await popup.waitForURL((url) => url.pathname === '/oauth2/authorize');
    const authorize = new URL(popup.url());
    expect(authorize.origin).toBe(twitch.url);
    expect(authorize.searchParams.get('client_id')).toBe(twitch.clientId);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${product.url}/callback`);
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([600, 800]);
    await popup.getByRole('button', { name: 'Authorize' }).click();
    // Twitch sends the popup to /callback#access_token=…, which posts TWITCH_AUTH to this page and closes.
    await popup.waitForEvent('close', { timeout: 30_000 });

    await panel().getByText('Verified', { exact: true }).waitFor({ timeout: 30_000 });
    await panel().getByText(LOGIN, { exact: true }).waitFor();
    expect(await panel().getByRole('alert').allTextContents()).toEqual([]);
    // The server validated that token with Twitch (the fake's /oauth2/validate) before recording it.
    expect(twitch.requests.some((r) => r.url.pathname === '/oauth2/validate')).toBe(true);
    const platforms = await callApi(
      product.url,
      await signInAs(product.url, user),
      'GET',
      `/streamer-platforms?wallet=${wallet}`,
    );
    expect(platforms.body).toMatchObject({
      platforms: expect.arrayContaining([{ platform: 'twitch', isVerified: true, username: LOGIN }]),
    });
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('is refused while the channel is offline, with the not-live message', async () => {
    await panel().getByRole('button', { name: 'Start Mining' }).click();
    await panel().getByRole('alert').getByText(NOT_LIVE).waitFor({ timeout: 30_000 });
    expect(await status()).toBe('Ready');
  });

  it('mines while Twitch reports the channel live', async () => {
    twitch.setLive(LOGIN, true, 37);
    await panel().getByRole('button', { name: 'Start Mining' }).click();
    await panel().getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await panel().getByRole('alert').allTextContents()).toEqual([]);
    expect(await status()).toBe('Mining');
    expect(await panel().getByRole('button', { name: 'Disconnect' }).isEnabled()).toBe(true);
    // The metrics list: the viewer count Twitch reported (Helix viewer_count).
    expect(await page.getByTestId('twitch-metrics').textContent()).toBe('Viewers37');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="mined-amount"]')?.textContent !== '0 STRM',
      undefined,
      { timeout: 30_000 },
    );
    await screenshot(page, 'dashboard-twitch-live-desktop');
  });

  it('ends the session at the second poll that reads the channel offline', async () => {
    // A poll sees the channel live first, so the next ones are those that read it offline.
    const liveFrom = twitch.streamAnswers.length;
    await expect
      .poll(() => twitch.streamAnswers.slice(liveFrom).some((a) => a.live.includes(LOGIN)), {
        timeout: POLL_MS * 10,
      })
      .toBe(true);
    const offlineFrom = twitch.answers.length;
    twitch.setLive(LOGIN, false);
    await panel()
      .getByRole('alert')
      .getByText(NOT_LIVE)
      .waitFor({ timeout: POLL_MS * 10 });
    await expect.poll(status).toBe('Ready');
    expect(await panel().getByText('Live', { exact: true }).count()).toBe(0);
    await panel().getByRole('button', { name: 'Start Mining' }).waitFor();
    // The server ended it at the second poll that read it offline (docs/platforms.md#live-detection): two answers
    // of Twitch's before the session's end, not three (the fake's and the server's clocks are this machine's;
    // what the page shows meanwhile depends on the browser's share of a busy machine, not on the engine).
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
    const polledBeforeEnd = twitch.answers
      .slice(offlineFrom)
      .filter((a) => a.path === '/helix/streams' && a.at <= Date.parse(session.endedAt));
    expect(polledBeforeEnd).toHaveLength(2);
  });
});
