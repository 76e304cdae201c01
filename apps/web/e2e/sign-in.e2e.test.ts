// The gate every user passes, in Debian's Chromium against the started product with a Phantom-compatible
// test wallet: sign in, register, be admitted, see maintenance pushed by the socket.
import { Keypair } from '@solana/web3.js';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import type { Page } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signInAs } from './api-client.ts';
import { gotoWithEmptyStorage, launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

const admin = Keypair.generate();
let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let adminToken: string;

beforeAll(async () => {
  // Started one after the other so that a failure leaves nothing running behind (afterAll stops both).
  chromium = await launchChromium();
  product = await startProduct({ ADMIN_WALLETS: admin.publicKey.toBase58() });
  adminToken = await signInAs(product.url, admin);
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

/**
 * A page with the test wallet on a clean origin. Pages of one browser share local storage per origin, so
 * each starts with it cleared; a second party (the admin) uses the other loopback name.
 */
async function walletPage(
  keypair: Keypair,
  options: { reject?: boolean; origin?: 'localhost' } = {},
): Promise<Page> {
  const page = await chromium.browser.newPage();
  await installPhantomTestProvider(page, { keypair, rpcUrl: product.rpcUrl, reject: options.reject });
  await gotoWithEmptyStorage(
    page,
    options.origin ? product.url.replace('127.0.0.1', options.origin) : product.url,
  );
  return page;
}

async function connect(page: Page) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

const field = (page: Page, role: 'textbox' | 'combobox' | 'spinbutton', name: string) =>
  page.getByRole(role, { name, exact: true });

async function fillValidForm(page: Page) {
  await field(page, 'textbox', 'Name').fill('Ada Lovelace');
  await field(page, 'textbox', 'Email').fill('ada@example.com');
  await field(page, 'combobox', 'Streaming Platform').selectOption('twitch');
  await field(page, 'textbox', 'Platform Username').fill('ada_live');
  await field(page, 'textbox', 'Discord Username').fill('ada#1815');
  await field(page, 'combobox', 'Streaming Frequency').selectOption('3-5 times per week');
  await field(page, 'spinbutton', 'Follower Count').fill('1200');
  await field(page, 'combobox', 'Content Type').selectOption('Crypto/Web3');
  await field(page, 'textbox', 'Why are you interested in this project?').fill('Rewarding my community.');
}

describe('signing in and registering for the beta', () => {
  const user = Keypair.generate();

  it('connects, signs, shows the form with the chain balance, and every validation error', async () => {
    const faucet = await callApi(product.url, null, 'POST', '/dev/faucet', {
      wallet: user.publicKey.toBase58(),
    });
    expect(faucet.status).toBe(200);
    const page = await walletPage(user);
    await connect(page);
    await heading(page, 'Beta Registration').waitFor();
    expect(
      await page
        .getByText(
          'Join the STRM Mining Platform beta program and start earning rewards for your content creation.',
        )
        .isVisible(),
    ).toBe(true);
    expect(await page.getByText('v1.1.1-Beta').isVisible()).toBe(true);
    await page.getByTestId('token-balance').waitFor();
    expect(await page.getByTestId('token-balance').textContent()).toBe('1,100,000 STRM');
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toMatch(/^ey/);

    await page.getByRole('button', { name: 'Submit Registration' }).click();
    for (const message of [
      'Name is required',
      'Enter a valid email address',
      'Platform username is required',
      'Choose a streaming frequency',
      'Follower count is required',
      'Choose a content type',
      'Project interest is required',
    ]) {
      expect(await page.getByText(message, { exact: true }).isVisible(), message).toBe(true);
    }
    // The error is tied to its field for assistive technology.
    expect(await field(page, 'textbox', 'Name').getAttribute('aria-invalid')).toBe('true');

    await fillValidForm(page);
    await field(page, 'textbox', 'Email').fill('ada.example.com');
    await field(page, 'spinbutton', 'Follower Count').fill('12.5');
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    expect(await page.getByText('Enter a valid email address').isVisible()).toBe(true);
    expect(await page.getByText('Follower count must be a whole number').isVisible()).toBe(true);
    await field(page, 'spinbutton', 'Follower Count').fill('-5');
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    expect(await page.getByText('Follower count cannot be negative').isVisible()).toBe(true);
    await field(page, 'textbox', 'Discord Username').fill('d'.repeat(101));
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    expect(await page.getByText('Discord username is too long').isVisible()).toBe(true);
    // Nothing reached the server.
    const list = await callApi(product.url, adminToken, 'GET', '/admin/registrations');
    expect((list.body as { total: number }).total).toBe(0);

    await field(page, 'textbox', 'Email').fill('ada@example.com');
    await field(page, 'spinbutton', 'Follower Count').fill('1200');
    await field(page, 'textbox', 'Discord Username').fill('ada#1815');
    expect(await page.getByRole('button', { name: 'Disconnect Wallet' }).isVisible()).toBe(true);
    // Held at the network so the submitting state can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/registrations', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    const submitting = page.getByRole('button', { name: 'Submitting...' });
    await submitting.waitFor();
    expect(await submitting.isDisabled()).toBe(true);
    release();
    await heading(page, 'Already Registered').waitFor();
    expect(await page.getByRole('button', { name: 'Disconnect Wallet' }).isVisible()).toBe(true);
    expect(
      await page
        .getByText(
          'Your registration has been received and is under review. Selected participants will be contacted.',
        )
        .isVisible(),
    ).toBe(true);
    expect(await page.getByText('Thank you for being a loyal member of our community!').isVisible()).toBe(
      true,
    );

    const stored = await callApi(product.url, adminToken, 'GET', '/admin/registrations');
    expect(stored.body).toMatchObject({
      total: 1,
      items: [
        {
          wallet: user.publicKey.toBase58(),
          token_balance: 1_100_000,
          follower_count: 1200,
          hasAccess: false,
        },
      ],
    });

    await page.reload();
    await heading(page, 'Already Registered').waitFor();
    await page.close();
  });

  it("shows the server's message in a red banner and re-enables the button", async () => {
    const other = Keypair.generate();
    const page = await walletPage(other);
    await connect(page);
    await heading(page, 'Beta Registration').waitFor();
    await fillValidForm(page);
    // The same wallet registers from elsewhere meanwhile.
    const token = await signInAs(product.url, other);
    const first = await callApi(product.url, token, 'POST', '/registrations', {
      name: 'Elsewhere',
      email: 'e@example.com',
      platform: 'kick',
      platform_username: 'e',
      streaming_frequency: 'Daily',
      follower_count: 1,
      content_type: 'Art',
      project_interest: 'x',
    });
    expect(first.status).toBe(201);
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'This wallet is already registered for the beta' });
    await banner.waitFor();
    expect(await page.getByRole('button', { name: 'Submit Registration' }).isEnabled()).toBe(true);
    await page.close();
  });

  it('admitted by an admin, the user reaches the dashboard; maintenance is pushed within a second', async () => {
    const wallet = user.publicKey.toBase58();
    expect((await callApi(product.url, adminToken, 'PUT', `/admin/beta-access/${wallet}`)).status).toBe(200);
    expect(
      (await callApi(product.url, adminToken, 'PUT', `/admin/beta-access/${admin.publicKey.toBase58()}`))
        .status,
    ).toBe(200);

    const userPage = await walletPage(user);
    // The account cannot be read at first: the dashboard says so and offers to try again.
    await userPage.route('**/api/v1/streamer?*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"x","message":"x"}' }),
    );
    await connect(userPage);
    await userPage
      .getByRole('alert')
      .filter({ hasText: 'Your account could not be loaded.' })
      .waitFor({ timeout: 30_000 });
    await userPage.unroute('**/api/v1/streamer?*');
    await userPage.getByRole('button', { name: 'Try again' }).click();
    await userPage.getByText('v1.1.0-Beta').waitFor();
    await userPage.getByTestId('tier-card-1').waitFor();
    expect(await userPage.getByRole('button', { name: 'Disconnect', exact: true }).isVisible()).toBe(true);
    expect(await userPage.getByRole('button', { name: 'Turn Maintenance Mode On' }).count()).toBe(0);

    const adminPage = await walletPage(admin, { origin: 'localhost' });
    await connect(adminPage);
    await adminPage.getByRole('button', { name: 'Turn Maintenance Mode On' }).click();

    // Polling runs every 30 s: seeing it within a second is the socket's push.
    await heading(userPage, 'System Maintenance').waitFor({ timeout: 1000 });
    expect(
      await userPage
        .getByText('We are performing scheduled maintenance. Please check back soon.')
        .isVisible(),
    ).toBe(true);
    expect(await userPage.getByText('v1.1.1-Beta').isVisible()).toBe(true);
    expect(await userPage.getByRole('button', { name: 'Turn Maintenance Mode Off' }).count()).toBe(0);
    expect(await userPage.getByRole('link', { name: 'Discord' }).isVisible()).toBe(true);

    await heading(adminPage, 'System Maintenance').waitFor({ timeout: 1000 });
    await adminPage.getByRole('button', { name: 'Turn Maintenance Mode Off' }).click();
    await userPage.getByText('v1.1.0-Beta').waitFor({ timeout: 1000 });
    await adminPage.getByRole('button', { name: 'Turn Maintenance Mode On' }).waitFor();
    expect((await callApi(product.url, null, 'GET', '/maintenance')).body).toMatchObject({
      is_maintenance: false,
    });

    // Disconnect: everything stored is cleared and the page reloads to the landing page.
    await userPage.evaluate(() => sessionStorage.setItem('scratch', '1'));
    await userPage.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await userPage.getByRole('button', { name: 'Connect Wallet' }).waitFor();
    expect(
      await userPage.evaluate(() => [
        localStorage.getItem('authToken'),
        localStorage.getItem('walletName'),
        sessionStorage.length,
      ]),
    ).toEqual([null, null, 0]);
  });
});

describe('while signing in', () => {
  it("shows 'Authenticating...' while signing and 'Loading...' while checking access", async () => {
    const page = await walletPage(Keypair.generate());
    let releaseAuth!: () => void;
    const authHeld = new Promise<void>((resolve) => {
      releaseAuth = resolve;
    });
    await page.route('**/api/v1/authenticate', async (route) => {
      await authHeld;
      await route.continue();
    });
    let releaseAccess!: () => void;
    const accessHeld = new Promise<void>((resolve) => {
      releaseAccess = resolve;
    });
    await page.route('**/api/v1/beta-access', async (route) => {
      await accessHeld;
      await route.continue();
    });
    await connect(page);
    await page.getByText('Authenticating...').first().waitFor();
    releaseAuth();
    await page.getByText('Loading...').waitFor();
    releaseAccess();
    await heading(page, 'Beta Registration').waitFor();
  });

  it('signs in through Phantom without web3.js; the wallet adapter loads after and keeps the session', async () => {
    const page = await walletPage(Keypair.generate());
    const web3 = (url: string) => /\/index\.browser\.esm-[^/]*\.js$/.test(new URL(url).pathname);
    // What the page asked for, in order: web3.js's script, and the sign-in's answer.
    const seen: string[] = [];
    page.on('request', (r) => {
      if (web3(r.url())) seen.push('web3.js');
    });
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/authenticate') seen.push('signed in');
    });
    const web3Loaded = page.waitForResponse((r) => web3(r.url()), { timeout: 15_000 });
    await connect(page);
    await heading(page, 'Beta Registration').waitFor();
    // The adapter arrives once the page is idle, reconnects the same wallet and the page stays signed in.
    await web3Loaded;
    expect(seen.indexOf('signed in')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('signed in')).toBeLessThan(seen.indexOf('web3.js'));
    await page.waitForFunction(() => !document.body.innerText.includes('Loading'), null, { timeout: 5000 });
    await page.waitForTimeout(500);
    expect(await heading(page, 'Beta Registration').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Connect Wallet', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Disconnect Wallet' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('walletName'))).toBe('"Phantom"');
  });
});

describe('when signing in does not work', () => {
  it("says 'Phantom Wallet not found' without a wallet", async () => {
    const page = await chromium.browser.newPage();
    await page.goto(product.url);
    await page.getByRole('button', { name: 'Connect Wallet' }).click();
    await page.getByText('Phantom Wallet not found').waitFor();
  });

  it('declining to sign cancels quietly', async () => {
    const page = await walletPage(Keypair.generate(), { reject: true });
    await connect(page);
    await page.getByRole('button', { name: 'Connect Wallet' }).waitFor();
    await page.getByRole('button', { name: 'Connect Wallet' }).isEnabled();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
  });

  it("'Authentication failed' disconnects and shows the hint; the parameter goes after 5 s", async () => {
    const page = await walletPage(Keypair.generate());
    await page.route('**/api/v1/authenticate', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":"internal","message":"x"}',
      }),
    );
    await connect(page);
    const banner = page.getByRole('alert').filter({ hasText: 'Authentication failed' });
    await banner.waitFor();
    expect(
      await banner.getByText('Please connect your wallet and sign the message to continue.').isVisible(),
    ).toBe(true);
    expect(new URL(page.url()).searchParams.get('authError')).toBe('Authentication failed');
    expect(await page.getByRole('button', { name: 'Connect Wallet' }).isEnabled()).toBe(true);
    await page.waitForURL((url) => !url.searchParams.has('authError'), { timeout: 7000 });
  });

  it("'Failed to get nonce' when the nonce cannot be fetched", async () => {
    const page = await walletPage(Keypair.generate());
    await page.route('**/api/v1/nonce*', (route) => route.abort());
    await connect(page);
    await page.getByRole('alert').filter({ hasText: 'Failed to get nonce' }).waitFor();
  });
});
