// bench:web's overlay figure: what the overlay page (an OBS browser source, loaded on every scene switch)
// downloads, scripts and stylesheets, gzip-compressed, against the target of 60 KB.
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from '@strm/testing';

export const OVERLAY_TARGET_KB = 60;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** Prints the overlay page's files and total; returns the total (bytes, gzip) and whether it is met. */
export async function overlayBundle(
  browser: BrowserContext,
  baseUrl: string,
): Promise<{ bytes: number; met: boolean }> {
  const page = await browser.newPage();
  const files = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      res.body().then(
        (body) => void files.set(new URL(res.url()).pathname, gzipSync(body, { level: 9 }).length),
        () => {},
      ),
    );
  });
  // A token that opens nothing: the page loads all it ever loads, then says the link is not valid.
  await page.goto(`${baseUrl}/overlay#ovl_bench`, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await page.close();
  if (files.size === 0) throw new Error('the overlay page loaded no file the bench could read');
  console.log('Overlay page (overlay.html) scripts and stylesheets (gzip):');
  for (const [path, size] of files) console.log(`  ${path}  ${kb(size)}`);
  const total = [...files.values()].reduce((s, x) => s + x, 0);
  const met = total <= OVERLAY_TARGET_KB * 1024;
  console.log(
    `  overlay total: ${kb(total)} gzip (target ≤ ${OVERLAY_TARGET_KB} KB: ${met ? 'met' : 'NOT met'})`,
  );
  return { bytes: total, met };
}
