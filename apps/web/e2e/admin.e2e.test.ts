// The admin console in Debian's Chromium against the started product, signed in with the Phantom-compatible
// test wallet: an admin finds, reviews and grants ten applications, and the server refuses a non-admin.
import { Keypair } from '@solana/web3.js';
import type { Page } from '@strm/testing';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInAs } from './api-client.ts';
import { screenshot, seriousA11yViolations, VIEWPORTS } from './artifacts.ts';
import { gotoWithEmptyStorage, launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

const admin = Keypair.generate();
const secondAdmin = Keypair.generate();
let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let adminToken: string;

/** Twelve applicants registered through the real API, with follower counts 100, 200, … 1200. */
const applicants = Array.from({ length: 12 }, (_, i) => ({
  keypair: Keypair.generate(),
  name: `Applicant ${String(i + 1).padStart(2, '0')}`,
  followers: (i + 1) * 100,
}));

beforeAll(async () => {
  chromium = await launchChromium();
  product = await startProduct({
    ADMIN_WALLETS: `${admin.publicKey.toBase58()},${secondAdmin.publicKey.toBase58()}`,
  });
  adminToken = await signInAs(product.url, admin);
  for (const a of applicants) {
    const token = await signInAs(product.url, a.keypair);
    const res = await callApi(product.url, token, 'POST', '/registrations', {
      name: a.name,
      email: `${a.name.replace(' ', '.').toLowerCase()}@example.com`,
      platform: 'twitch',
      platform_username: `${a.name.replace(' ', '_').toLowerCase()}_live`,
      streaming_frequency: 'Daily',
      follower_count: a.followers,
      content_type: 'Gaming',
      project_interest: `Streaming with ${a.followers} followers.`,
    });
    if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
  }
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

async function consolePage(keypair: Keypair): Promise<Page> {
  const page = await chromium.browser.newPage();
  await installPhantomTestProvider(page, { keypair, rpcUrl: product.rpcUrl });
  await gotoWithEmptyStorage(page, `${product.url}/admin`);
  await page.getByText('Connect the wallet of an admin to open the admin console.').waitFor();
  await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
  return page;
}

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

/** A wallet that has mined once (a closed session): only such a wallet's pending reward may be raised. */
async function minedOnce(wallet: string) {
  await product.sql(
    `INSERT INTO streamers (wallet, updated_at) VALUES ($1, now()) ON CONFLICT (wallet) DO NOTHING`,
    [wallet],
  );
  await product.sql(
    `INSERT INTO mining_sessions (wallet, platform, tier_name, rate_units_per_hour, started_at, accrued_until,
       ended_at, end_reason)
     VALUES ($1, 'demo', 'Tier 1', 250000, now() - interval '1 minute', now(), now(), 'stopped')`,
    [wallet],
  );
}

describe('admin console', () => {
  it('an admin searches, sorts, reviews and grants ten applications with one confirmation', async () => {
    const page = await consolePage(admin);
    await page.getByRole('heading', { name: 'Admin console' }).waitFor();
    await page.getByText('12 registrations').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Most followers first.
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Most followers' });
    await page.getByRole('row').nth(1).filter({ hasText: 'Applicant 12' }).waitFor();

    // The search narrows to one; its details show the application.
    await page.getByRole('searchbox', { name: 'Search' }).fill('applicant_07_live');
    await page.getByText('1 registration', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Details: Applicant 07' }).click();
    await page.getByText('Streaming with 700 followers.').waitFor();
    expect(await page.getByText('applicant.07@example.com').isVisible()).toBe(true);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByText('12 registrations').waitFor();

    // Ten applicants picked by keyboard-operable checkboxes (the two with the fewest followers left out).
    for (const a of applicants.slice(2))
      await page.getByRole('checkbox', { name: `Select ${a.name}` }).check();
    await page.getByText('12 registrations · 10 selected').waitFor();
    await page.getByRole('button', { name: 'Grant access', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant beta access to 10 wallets?' });
    await dialog.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Access granted for 10 wallets.').waitFor();
    for (const a of applicants.slice(2)) await rowOf(page, a.name).getByText('Granted').waitFor();

    // The server holds exactly those ten.
    const granted = await callApi(
      product.url,
      adminToken,
      'GET',
      '/admin/registrations?access=granted&pageSize=100',
    );
    const wallets = (granted.body as { items: Array<{ wallet: string }> }).items.map((r) => r.wallet).sort();
    expect(wallets).toEqual(
      applicants
        .slice(2)
        .map((a) => a.keypair.publicKey.toBase58())
        .sort(),
    );

    // Filter: those still waiting.
    await page.getByRole('combobox', { name: 'Access' }).selectOption({ label: 'Not granted' });
    await page.getByText('2 registrations').waitFor();

    // The audit log, newest first, names the admin for each grant.
    await page.getByRole('button', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const grants = page.getByRole('row').filter({ hasText: 'Granted access' });
    await grants.nth(9).waitFor();
    expect(await grants.count()).toBe(10);
    expect(await grants.first().textContent()).toContain(admin.publicKey.toBase58());
    expect(await seriousA11yViolations(page)).toEqual([]);

    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.getByRole('button', { name: 'Registrations' }).click();
      await page
        .getByText(/\d+ registrations?/)
        .first()
        .waitFor();
      await screenshot(page, `admin-console-${name}`);
      // Nothing wider than the screen except inside the table's own scroller.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    await page.close();
  });

  it('an admin switches maintenance on with its message and off again', async () => {
    const page = await consolePage(admin);
    await page.getByRole('button', { name: 'Maintenance' }).click();
    await page.getByText('The platform is running.').waitFor();
    await page.getByRole('textbox', { name: 'Message shown to streamers' }).fill('Back at noon UTC');
    await page.getByRole('button', { name: 'Start maintenance' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The platform is in maintenance.').waitFor();
    expect(await callApi(product.url, null, 'GET', '/maintenance')).toMatchObject({
      body: { is_maintenance: true, message: 'Back at noon UTC' },
    });
    await page.getByRole('button', { name: 'End maintenance' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The platform is running.').waitFor();
    expect((await callApi(product.url, null, 'GET', '/maintenance')).body).toMatchObject({
      is_maintenance: false,
    });
    await page.close();
  });

  it('an admin promotes and demotes an admin, and adjusts a pending reward with a reason', async () => {
    const page = await consolePage(admin);
    const helper = applicants[0]!.keypair.publicKey.toBase58();
    await page.getByRole('button', { name: 'Admins' }).click();
    await page.getByRole('textbox', { name: 'Wallet to promote' }).fill('not-a-wallet');
    await page.getByRole('button', { name: 'Promote to admin' }).click();
    await page.getByText('Invalid wallet address').waitFor();
    await page.getByRole('textbox', { name: 'Wallet to promote' }).fill(helper);
    await page.getByRole('button', { name: 'Promote to admin' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: `Demote: ${helper}` }).waitFor();
    await page.getByRole('button', { name: `Demote: ${helper}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Demoted.').waitFor();
    expect(await page.getByRole('button', { name: `Demote: ${helper}` }).count()).toBe(0);

    await minedOnce(helper);
    await page.getByRole('button', { name: 'Pending rewards' }).click();
    await page.getByRole('textbox', { name: 'Streamer wallet' }).fill(helper);
    await page.getByRole('spinbutton', { name: 'New pending reward (STRM)' }).fill('12.5');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Missed session on the 3rd');
    await page.getByRole('button', { name: 'Set pending reward' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Pending reward changed from 0 to 12.5 STRM.').waitFor();
    await rowOf(page, helper).filter({ hasText: 'Applied' }).waitFor();
    await page.close();
  });

  it('a raise above the threshold waits in the console until a second admin approves it', async () => {
    const streamer = applicants[3]!.keypair.publicKey.toBase58();
    await minedOnce(streamer);
    // The second admin asks (through the API, as another admin's console would).
    const asked = await callApi(
      product.url,
      await signInAs(product.url, secondAdmin),
      'POST',
      '/streamer/pending-reward',
      {
        wallet: streamer,
        amount: 500,
        reason: 'Outage on the 12th',
      },
    );
    expect(asked.status).toBe(202);

    const page = await consolePage(admin);
    await page.getByRole('button', { name: 'Pending rewards' }).click();
    const row = rowOf(page, streamer);
    await row.filter({ hasText: 'Waiting for approval' }).waitFor();
    expect(await row.getByText('Outage on the 12th').isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'admin-adjustment-waiting');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(`Approve raising the pending reward of ${streamer} by 500 STRM?`).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await row.filter({ hasText: 'Applied' }).waitFor();
    expect(await row.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // In the audit log: asked by one admin, approved by the other.
    await page.getByRole('button', { name: 'Audit log' }).click();
    await page.getByText('Approved a raise').first().waitFor();
    await page.getByText('Asked to raise a pending reward').first().waitFor();
    await page.close();
  });

  it('a signed-in wallet that is not an admin is refused by the server and told so', async () => {
    const page = await consolePage(applicants[1]!.keypair);
    await page.getByText('This page is for admins only.').waitFor();
    expect(await page.getByRole('heading', { name: 'Admin console' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });
});
