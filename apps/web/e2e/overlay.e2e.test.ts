// The live overlay (an OBS browser source) and the public card in Debian's Chromium against the started
// product (local chain, demo platform). The streamer's dashboard is a socket.io client here (its own page
// has a browser test of its own); the overlay is the built overlay page.
import { Connection, Keypair, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { activateTierInstructions, miningProgram, readConfig } from '@strm/mining-client';
import type { Page } from '@strm/testing';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInAs } from './api-client.ts';
import { screenshot, seriousA11yViolations } from './artifacts.ts';
import { launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

const UPDATE_INTERVAL_MS = 1000;
const admin = Keypair.generate();
const user = Keypair.generate();
const wallet = user.publicKey.toBase58();
const username = 'ada_overlay';
let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let token: string;
let dashboard: Socket;
let overlayUrl: string;

/** The next `event` on the dashboard's socket. */
const nextEvent = <T>(event: string, timeoutMs = 30_000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    dashboard.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

async function api(method: string, path: string, body?: unknown) {
  const res = await callApi(product.url, token, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

beforeAll(async () => {
  chromium = await launchChromium();
  product = await startProduct({
    ADMIN_WALLETS: admin.publicKey.toBase58(),
    MINING_UPDATE_INTERVAL_MS: String(UPDATE_INTERVAL_MS),
  });
  // A streamer with beta access, Tier 1 active on chain and a verified demo account that is live.
  await callApi(product.url, null, 'POST', '/dev/faucet', { wallet });
  token = await signInAs(product.url, user);
  await api('POST', '/registrations', {
    name: 'Ada',
    email: 'ada@example.com',
    platform: 'twitch',
    platform_username: username,
    streaming_frequency: 'Daily',
    follower_count: 10,
    content_type: 'Gaming',
    project_interest: 'An overlay for my stream',
  });
  await callApi(product.url, await signInAs(product.url, admin), 'PUT', `/admin/beta-access/${wallet}`);
  const rpc = new Connection(product.rpcUrl, 'confirmed');
  const program = miningProgram(rpc);
  const deposit = (await readConfig(program))?.tiers.find((t) => t.name === 'Tier 1')?.deposit ?? 0n;
  const signature = await sendAndConfirmTransaction(
    rpc,
    new Transaction().add(...(await activateTierInstructions(program, user.publicKey, 'Tier 1', deposit))),
    [user],
    { commitment: 'confirmed' },
  );
  dashboard = io(product.url, {
    transports: ['websocket'],
    auth: { wallet, authToken: token },
    forceNew: true,
  });
  await nextEvent('connect');
  const activated = nextEvent('tier-activated');
  dashboard.emit('activate-tier', { signature, tier: 'Tier 1' });
  await activated;
  await api('POST', '/dev/demo/account', { username });
  await api('PUT', '/dev/demo/live', { live: true, viewers: 12 });
  overlayUrl = (await api('POST', '/streamer/overlay/token')).url as string;
}, 300_000);
afterAll(async () => {
  dashboard?.close();
  await chromium?.close();
  await product?.stop();
});

async function overlayPage(size = { width: 1920, height: 1080 }): Promise<Page> {
  const page = await chromium.browser.newPage();
  await page.setViewportSize(size);
  await page.goto(overlayUrl);
  return page;
}

const amount = async (page: Page) =>
  Number((await page.getByTestId('overlay-amount').textContent())!.replace(/,/g, ''));

describe('the overlay page', () => {
  let page: Page;

  it('is transparent and shows Ready before the stream, at 1920x1080', async () => {
    expect(overlayUrl).toBe(`${product.url}/overlay#${overlayUrl.split('#')[1]}`);
    page = await overlayPage();
    await expect.poll(() => page.getByTestId('overlay-status').textContent()).toBe('Ready');
    expect(await page.getByTestId('overlay-tier').textContent()).toBe('Tier 1');
    const backgrounds = await page.evaluate(() =>
      [document.documentElement, document.body].map((e) => getComputedStyle(e).backgroundColor),
    );
    expect(backgrounds).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    // Nothing of the wallet: no balance unless opted in.
    expect(await page.getByTestId('overlay-balance').isVisible()).toBe(false);
  });

  it("follows the engine's mining-update within one update interval, counting up in between", async () => {
    const started = nextEvent('stream-started');
    dashboard.emit('start-stream', { platform: 'demo', wallet, username, tier: 'Tier 1' });
    await started;
    await expect
      .poll(() => page.getByTestId('overlay-status').textContent(), { timeout: 10_000 })
      .toBe('Mining');
    for (let i = 0; i < 3; i++) {
      const update = await nextEvent<{ duration: number; minedAmount: number }>('mining-update');
      const heardAt = Date.now();
      await page.waitForFunction(
        (d) => document.getElementById('overlay')?.dataset.sessionSeconds === String(d),
        update.duration,
        { timeout: UPDATE_INTERVAL_MS },
      );
      expect(Date.now() - heardAt).toBeLessThanOrEqual(UPDATE_INTERVAL_MS);
      expect(await amount(page)).toBeGreaterThanOrEqual(update.minedAmount);
    }
    await screenshot(page, 'overlay-corner-badge-1080p');
    // Between two updates the amount moves on by itself.
    const before = await amount(page);
    await expect.poll(() => amount(page), { timeout: UPDATE_INTERVAL_MS }).toBeGreaterThan(before);
  });

  it('fits a smaller source too', async () => {
    const small = await overlayPage({ width: 1280, height: 720 });
    await expect.poll(() => small.getByTestId('overlay-status').textContent()).toBe('Mining');
    const box = (await small.getByTestId('overlay').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(box.y + box.height).toBeLessThanOrEqual(720);
    await small.close();
  });

  it('shows Ready when the stream stops', async () => {
    const stopped = nextEvent('stream-stopped');
    dashboard.emit('stop-stream', { platform: 'demo', wallet });
    await stopped;
    await expect
      .poll(() => page.getByTestId('overlay-status').textContent(), { timeout: 5000 })
      .toBe('Ready');
  });

  it('stops working the moment its link is revoked', async () => {
    await api('DELETE', '/streamer/overlay/token');
    await page
      .getByTestId('overlay-message')
      .getByText('This overlay link was revoked')
      .waitFor({ timeout: 5000 });
    expect(await page.getByTestId('overlay-status').count()).toBe(0);
    // Opened again, the link is refused.
    const again = await overlayPage();
    await again
      .getByText('This overlay link is not valid anymore. Create a new one in your dashboard.')
      .waitFor({ timeout: 10_000 });
    await again.close();
    await page.close();
  });
});

describe('the public card', () => {
  it('previews without JavaScript (Open Graph tags in the served page) and is gone once private', async () => {
    const card = await api('PUT', '/streamer/public-card', { enabled: true });
    const html = await (await fetch(card.url as string)).text();
    expect(html).toContain(`<meta property="og:title" content="${username}&#39;s STRM mining card" />`);
    expect(html).toMatch(
      /<meta property="og:description" content="Tier 1 · [\d.,]+ STRM mined while streaming on Demo" \/>/,
    );
    expect(html).toContain(`<meta property="og:url" content="${card.url}" />`);
    // The page is whole as served: it has no script to run.
    expect(html).not.toContain('<script');
    const page = await chromium.browser.newPage();
    await page.goto(card.url as string);
    expect(await page.getByTestId('card-tier').textContent()).toBe('Tier 1');
    await screenshot(page, 'public-card');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await api('PUT', '/streamer/public-card', { enabled: false });
    expect((await page.reload())?.status()).toBe(404);
    await page.getByText('This mining card does not exist or is no longer public').first().waitFor();
    await page.close();
  });
});

describe('the dashboard panel', () => {
  it('creates a link, and previews the theme picked', async () => {
    const page = await chromium.browser.newPage();
    await installPhantomTestProvider(page, { keypair: user, rpcUrl: product.rpcUrl });
    await page.goto(product.url);
    await page.getByRole('button', { name: 'Connect Wallet' }).click();
    const panel = page.getByTestId('overlay-panel');
    await panel.getByRole('button', { name: 'Create overlay link' }).click({ timeout: 60_000 });
    const link = await panel.getByRole('textbox', { name: 'Overlay link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${product.url}/overlay#ovl_`));
    await panel.getByRole('radio', { name: 'Lower third' }).check();
    await panel.getByTestId('overlay-preview').locator('.ov-lower-third').waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-overlay-panel');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The theme reaches an overlay opened with the new link.
    overlayUrl = link;
    const overlay = await overlayPage();
    await overlay.locator('.ov-lower-third').waitFor({ timeout: 10_000 });
    await screenshot(overlay, 'overlay-lower-third-1080p');
    await overlay.close();
    await page.close();
  });
});
