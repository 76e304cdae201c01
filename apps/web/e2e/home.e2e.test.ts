import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousA11yViolations, VIEWPORTS } from './artifacts.ts';
import { launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let dex: Server;

beforeAll(async () => {
  // A fake DEX pair API the product polls for market data.
  dex = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        pairs: [
          {
            priceUsd: '0.00412345',
            fdv: 4123450,
            volume: { h24: 98765.4 },
            txns: { h24: { buys: 321, sells: 123 } },
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => dex.listen(0, '127.0.0.1', resolve));
  chromium = await launchChromium();
  product = await startProduct({
    DEX_PAIR_API_URL: `http://127.0.0.1:${(dex.address() as AddressInfo).port}/pairs/solana/PAIR`,
    DEX_CHART_URL: 'https://dex.example/solana/PAIR',
    TOKEN_EXPLORER_URL: 'https://explorer.example/token/MINT',
  });
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
  dex?.closeAllConnections();
  await new Promise((resolve) => dex?.close(resolve));
});

describe('the started product in Chromium', () => {
  it('renders the landing page: market, calculator, tiers, chart, join, footer; no console errors or DevTools issues', async () => {
    const page = await chromium.browser.newPage();
    // DevTools issues (a Content-Security-Policy violation, a cookie or a form problem…), as Lighthouse
    // reads them.
    const issues: string[] = [];
    const devtools = await page.context().newCDPSession(page);
    devtools.on('Audits.issueAdded', (event) => issues.push(JSON.stringify(event.issue)));
    await devtools.send('Audits.enable');
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));

    await page.goto(product.url);
    // The tiers have arrived (the calculator, in view, shows them), but their cards, below the fold, render
    // only when they come near the viewport; their heading is there from the start.
    await page.getByTestId('mining-calculator').getByRole('button', { name: 'Tier 9' }).waitFor();
    expect(await page.locator('article').count()).toBe(0);
    await page.getByRole('heading', { name: 'Mining Tiers' }).scrollIntoViewIfNeeded();
    await page.locator('article').filter({ hasText: 'Tier 9' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Mining Tiers' }).isVisible()).toBe(true);
    expect(await page.locator('article').count()).toBe(9);
    expect(await page.getByText('Best Value').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'DEX Chart' }).getAttribute('href')).toBe(
      'https://dex.example/solana/PAIR',
    );
    expect(await page.getByRole('link', { name: 'Token Explorer' }).getAttribute('href')).toBe(
      'https://explorer.example/token/MINT',
    );

    const market = page.getByTestId('market-stats');
    await market.getByText('$0.00412345').waitFor();
    expect(await market.getByText('$4,123,450.00').isVisible()).toBe(true);
    expect(await market.getByText('321', { exact: true }).isVisible()).toBe(true);
    // The calculator starts from the market price.
    const calculator = page.getByTestId('mining-calculator');
    expect(await calculator.getByRole('spinbutton', { name: 'STRM price (USD)' }).inputValue()).toBe(
      '0.00412345',
    );
    expect(await calculator.getByRole('button', { name: 'Tier 9' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // The chart is drawn when it scrolls into view.
    const bars = page.getByTestId('earning-chart').locator('rect[data-bar]');
    await page.getByRole('heading', { name: 'Earning Potential by Tier' }).scrollIntoViewIfNeeded();
    await page.getByTestId('earning-chart').scrollIntoViewIfNeeded();
    await bars.first().waitFor();
    expect(await bars.count()).toBe(18);
    expect(await page.getByRole('heading', { name: 'Join the Beta' }).isVisible()).toBe(true);
    for (const link of ['Discord', 'Privacy Policy', 'Terms of Service']) {
      expect(await page.getByRole('link', { name: link }).isVisible(), link).toBe(true);
    }
    expect(problems).toEqual([]);
    expect(issues).toEqual([]);
    // The wallet adapter (with web3.js) is not part of the landing page: it comes with Connect.
    expect(scripts.filter((path) => path.includes('WalletAuth'))).toEqual([]);

    expect(await seriousA11yViolations(page)).toEqual([]);
    for (const [name, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await screenshot(page, `landing-${name}`);
    }
    // Nothing overflows sideways at phone width.
    await page.setViewportSize(VIEWPORTS.phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );

    // Connect loads the wallet code, which then finds no wallet in this browser.
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
    await page.getByText('Phantom Wallet not found').waitFor();
    expect(scripts.some((path) => path.includes('WalletAuth'))).toBe(true);
    expect(await page.getByRole('button', { name: 'Connect Wallet' }).first().isEnabled()).toBe(true);
  });

  it('renders what is below the fold at the first key press, without scrolling (keyboard, Find in page)', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(product.url);
    await page.getByTestId('mining-calculator').getByRole('button', { name: 'Tier 9' }).waitFor();
    expect(await page.locator('article').count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    await page.keyboard.press('Tab');
    await page.locator('article').filter({ hasText: 'Tier 9' }).waitFor({ state: 'attached' });
    expect(await page.locator('article').count()).toBe(9);
    // The earning chart's figures for screen readers are in the page too.
    expect(await page.getByRole('table').count()).toBe(1);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('/callback without a token or code tells its opener and closes', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(product.url);
    const message = await page.evaluate(
      () =>
        new Promise((resolve) => {
          window.addEventListener('message', (event) => resolve({ origin: event.origin, data: event.data }));
          window.open('/callback?error=access_denied', 'auth', 'width=600,height=800');
        }),
    );
    expect(message).toEqual({
      origin: product.url,
      data: { type: 'AUTH_ERROR', error: 'No authorization code or token found' },
    });
  });

  it('describes itself to search engines and link previews: description, sharing tags, manifest, icons', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(product.url);
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await meta('meta[name="description"]')).toMatch(/mining tier/);
    expect(await meta('meta[property="og:url"]')).toBe(`${product.url}/`);
    expect(await meta('meta[property="og:image"]')).toBe(`${product.url}/icon-512.png`);
    expect(await meta('meta[name="twitter:card"]')).toBe('summary');
    const manifest = await fetch(
      `${product.url}${await page.locator('link[rel="manifest"]').getAttribute('href')}`,
    );
    const { icons } = (await manifest.json()) as { icons: Array<{ src: string; type: string }> };
    for (const icon of icons) {
      const res = await fetch(`${product.url}${icon.src}`);
      expect([res.status, res.headers.get('content-type')], icon.src).toEqual([200, icon.type]);
    }
    const robots = await fetch(`${product.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toContain(`Sitemap: ${product.url}/sitemap.xml`);
    const sitemap = await fetch(`${product.url}/sitemap.xml`);
    expect(await sitemap.text()).toContain(`<loc>${product.url}/</loc>`);
  });

  it('reports the database and the local chain healthy', async () => {
    const res = await fetch(`${product.url}/api/v1/health`);
    expect(await res.json()).toEqual({
      status: 'ok',
      database: { ok: true, state: 'ok', restarts: 0 },
      chain: { ok: true, state: 'ok', restarts: 0 },
    });
  });

  it('serves client routes it does not know with the app, not an error', async () => {
    const page = await chromium.browser.newPage();
    const res = await page.goto(`${product.url}/some/unknown/route`);
    expect(res?.status()).toBe(200);
    await page.getByText('Mining Tiers').first().waitFor();
  });
});
