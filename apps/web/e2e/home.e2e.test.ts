import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { type Product, startProduct } from './product.ts';

let product: Product;
let chromium: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  [product, chromium] = await Promise.all([startProduct(), launchChromium()]);
});
afterAll(async () => {
  await chromium?.close();
  await product?.stop();
});

describe('the started product in Chromium', () => {
  it('renders / with the tiers from the API and no console errors', async () => {
    const page = await chromium.browser.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));

    await page.goto(product.url);
    await page.getByText('Tier 9').waitFor();
    expect(await page.getByRole('heading', { name: 'Mining Tiers' }).isVisible()).toBe(true);
    expect(await page.locator('article').count()).toBe(9);
    expect(await page.getByText('Best Value').count()).toBe(1);
    expect(problems).toEqual([]);
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

  it('reports the database and the local chain healthy', async () => {
    const res = await fetch(`${product.url}/api/v1/health`);
    expect(await res.json()).toEqual({ status: 'ok', database: { ok: true }, chain: { ok: true } });
  });

  it('serves client routes it does not know with the app, not an error', async () => {
    const page = await chromium.browser.newPage();
    const res = await page.goto(`${product.url}/some/unknown/route`);
    expect(res?.status()).toBe(200);
    await page.getByText('Mining Tiers').waitFor();
  });
});
