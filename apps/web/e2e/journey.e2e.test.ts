// The whole journey in Debian's Chromium against the started product (local chain, demo platform) with
// the Phantom-compatible test wallet: faucet → register → admitted → activate Tier 1 → go live → mining
// updates → stop → collect → deactivate, with the on-chain token balance checked at each money step.
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { toBaseUnits } from '@strm/shared';
import type { Page } from '@strm/testing';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInAs } from './api-client.ts';
import { screenshot, seriousA11yViolations, VIEWPORTS } from './artifacts.ts';
import { activateFromDashboard, launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

const admin = Keypair.generate();
const user = Keypair.generate();
const wallet = user.publicKey.toBase58();
let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let adminToken: string;
let rpc: Connection;
let tokenAccount: PublicKey;
let page: Page;
/** The collect's payout signature, once the server has answered it. */
let payout: string | undefined;

const onChainUnits = async () =>
  BigInt((await rpc.getTokenAccountBalance(tokenAccount, 'confirmed')).value.amount);
const status = () => page.getByTestId('mining-status').textContent();

beforeAll(async () => {
  // The browser's time zone, which the dashboard records at first sign-in.
  chromium = await launchChromium({ timezoneId: 'Asia/Tokyo' });
  product = await startProduct({
    ADMIN_WALLETS: admin.publicKey.toBase58(),
    MINING_UPDATE_INTERVAL_MS: '500',
  });
  adminToken = await signInAs(product.url, admin);
  rpc = new Connection(product.rpcUrl, 'confirmed');
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

describe('a streamer from a new wallet to collected rewards', () => {
  it('gets STRM from the faucet and sees Beta Registration without accessibility violations', async () => {
    const faucet = await callApi(product.url, null, 'POST', '/dev/faucet', { wallet });
    expect(faucet.status).toBe(200);
    tokenAccount = new PublicKey((faucet.body as { tokenAccount: string }).tokenAccount);
    expect(await onChainUnits()).toBe(1_100_000_000_000n);

    page = await chromium.browser.newPage();
    // The payout's signature, from the server's rewards-collected event as the page receives it.
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const frame = String(payload);
        if (frame.includes('"rewards-collected"'))
          payout ??= /"signature":"([1-9A-HJ-NP-Za-km-z]{64,88})"/.exec(frame)?.[1];
      }),
    );
    await installPhantomTestProvider(page, { keypair: user, rpcUrl: product.rpcUrl });
    await page.goto(product.url);
    await page.getByRole('button', { name: 'Connect Wallet' }).click();
    await page.getByRole('heading', { name: 'Beta Registration', exact: true }).waitFor();
    await page.getByTestId('token-balance').getByText('1,100,000 STRM').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('registers, is admitted by an admin, and reaches the dashboard', async () => {
    const token = await signInAs(product.url, user);
    const registered = await callApi(product.url, token, 'POST', '/registrations', {
      name: 'Ada',
      email: 'ada@example.com',
      platform: 'twitch',
      platform_username: 'ada_live',
      streaming_frequency: 'Daily',
      follower_count: 10,
      content_type: 'Gaming',
      project_interest: 'Mining while I stream',
    });
    expect(registered.status).toBe(201);
    expect((await callApi(product.url, adminToken, 'PUT', `/admin/beta-access/${wallet}`)).status).toBe(200);

    await page.reload();
    await page.getByText('v1.1.0-Beta').waitFor();
    await page.getByRole('banner').getByText('No Active Tier').waitFor();
    expect(await status()).toBe('Inactive');
    await page.getByTestId('wallet-balance').getByText('1,100,000 STRM').waitFor();
    expect(await page.getByText('Holder tier: elite').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toContain(wallet);
    await page.getByTestId('tier-card-9').waitFor();
    expect(await page.locator('[data-testid^="tier-card-"]').count()).toBe(9);
    // First sign-in: the browser's time zone, not counted as a change.
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await expect.poll(() => zone.inputValue()).toBe('Asia/Tokyo');
    await expect.poll(() => zone.isEnabled()).toBe(true);
    const record = await callApi(product.url, token, 'GET', `/streamer?wallet=${wallet}`);
    expect((record.body as { streamer: object }).streamer).toMatchObject({
      timezone: 'Asia/Tokyo',
      timezoneChangedTimes: 0,
    });
    // Nothing pending yet: Collect is disabled.
    expect(await page.getByRole('button', { name: 'Collect Rewards' }).isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('activates Tier 1: the wallet signs, the deposit leaves the wallet on chain', async () => {
    const before = await onChainUnits();
    await activateFromDashboard(page, 1);
    await page.locator('header').getByText('Tier 1', { exact: true }).waitFor();
    expect(await status()).toBe('Ready');
    expect(before - (await onChainUnits())).toBe(1000n * 1_000_000n);
    // Only one tier at a time.
    expect(await page.getByTestId('tier-card-2').getByRole('button', { name: 'Activate' }).isDisabled()).toBe(
      true,
    );
    expect(
      await page.getByTestId('tier-card-2').getByText('Only 1 tier can be active at a time').isVisible(),
    ).toBe(true);
    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await screenshot(page, `dashboard-${name}`);
      // Usable at phone width: nothing overflows sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
        size.width,
      );
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('goes live on the demo platform and sees mining updates', async () => {
    const panel = page.getByTestId('demo-panel');
    await panel.getByRole('textbox', { name: 'Demo username' }).fill('ada_demo');
    await panel.getByRole('button', { name: 'Create Demo Account' }).click();
    await panel.getByText('Verified').waitFor();
    await panel.getByRole('button', { name: 'Start Mining' }).click();
    await panel
      .getByText('Live', { exact: true })
      .or(panel.getByRole('alert'))
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await panel.getByRole('alert').allTextContents()).toEqual([]);
    expect(await status()).toBe('Mining');
    expect(await page.getByTestId('mining-rate').textContent()).toBe('0.25 STRM/h');
    // Updates arrive: the duration and the mined amount grow.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="mined-amount"]')?.textContent !== '0 STRM',
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForFunction(
      () =>
        !/^0h 0m [0-2]s$/.test(document.querySelector('[data-testid="stream-duration"]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    // Not while live: collecting, deactivating.
    expect(await page.getByRole('button', { name: 'Collect Rewards' }).isDisabled()).toBe(true);
    expect(
      await page.getByTestId('tier-card-1').getByRole('button', { name: 'Deactivate' }).isDisabled(),
    ).toBe(true);
    expect(
      await page
        .getByTestId('tier-card-1')
        .getByText('Cannot deactivate tier while mining is active')
        .isVisible(),
    ).toBe(true);
    await screenshot(page, 'dashboard-live-desktop');
  });

  it('stops, then collects: the on-chain balance rises by exactly the collected amount', async () => {
    await page.getByTestId('demo-panel').getByRole('button', { name: 'Disconnect' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="mining-status"]')?.textContent === 'Ready',
    );
    const token = await signInAs(product.url, user);
    let pending = 0;
    await expect
      .poll(async () => {
        pending = (
          (await callApi(product.url, token, 'GET', `/streamer?wallet=${wallet}`)).body as {
            streamer: { pendingReward: number };
          }
        ).streamer.pendingReward;
        return pending;
      })
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Collect Rewards' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Collect Rewards' }).isEnabled()).toBe(true);
    const before = await onChainUnits();
    await page.getByRole('button', { name: 'Collect Rewards' }).click();
    const message = page.getByText(/^Successfully collected .+ STRM!$/);
    await message.waitFor({ timeout: 60_000 });
    const amount = /^Successfully collected (.+) STRM!$/.exec((await message.textContent()) ?? '')![1]!;
    expect(Number(amount.replaceAll(',', ''))).toBe(pending);
    await expect.poll(onChainUnits).toBe(before + toBaseUnits(pending.toFixed(6)));
    await page.getByTestId('pending-reward').getByText('0 STRM').waitFor();
    // The payout read back from the validator's own history (getTransaction), on either validator.
    expect(payout).toBeDefined();
    const landed = await rpc.getTransaction(payout!, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta?.err).toBeNull();
    const paid = landed?.meta?.postTokenBalances?.find((b) => b.owner === wallet)?.uiTokenAmount.amount;
    expect(BigInt(paid ?? 0)).toBe(before + toBaseUnits(pending.toFixed(6)));
  });

  it('deactivates: the deposit comes back', async () => {
    const before = await onChainUnits();
    await page.getByTestId('tier-card-1').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('banner').getByText('No Active Tier').waitFor({ timeout: 60_000 });
    expect(await status()).toBe('Inactive');
    expect((await onChainUnits()) - before).toBe(1000n * 1_000_000n);
  });
});
