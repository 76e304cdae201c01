import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const heapModule = fileURLToPath(new URL('./heap.ts', import.meta.url));

/**
 * A process that holds 1.5 million objects and keeps replacing 300,000 more (each lives long enough to be
 * promoted, then is garbage in the old generation, as the engine's admissions were): the largest heap V8
 * committed on the way, in MB, and what it holds at the end.
 */
async function heapOf(args: string[], limit: boolean) {
  const script = `
    ${limit ? `const { limitHeapGrowth } = await import(${JSON.stringify(heapModule)}); limitHeapGrowth();` : ''}
    globalThis.live = Array.from({ length: 1_500_000 }, (_, i) => ({ a: i, b: 'x' + i }));
    const ring = new Array(300_000);
    let peak = 0;
    for (let r = 0; r < 12_000_000; r++) {
      ring[r % ring.length] = { r, s: 'y' + r };
      if (r % 100_000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(JSON.stringify({ peak: peak / 1e6, used: process.memoryUsage().heapUsed / 1e6 }));`;
  const { stdout } = await run(process.execPath, [
    ...args,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    script,
  ]);
  return JSON.parse(stdout) as { peak: number; used: number };
}

describe('limitHeapGrowth', () => {
  // The process with the setting, run once for both comparisons (each run takes seconds).
  let limited: { peak: number; used: number };
  beforeAll(async () => {
    limited = await heapOf([], true);
  }, 60_000);

  it('keeps the heap V8 commits within a quarter or so of what it holds, where V8 alone grows it to several times', async () => {
    const alone = await heapOf([], false);
    expect(alone.peak).toBeGreaterThan(2 * limited.peak);
    expect(limited.peak).toBeLessThan(1.6 * Math.max(limited.used, 200));
  }, 60_000);

  it('leaves a growth factor given on the command line as it is', async () => {
    const given = await heapOf(['--heap-growing-percent=300'], true);
    expect(given.peak).toBeGreaterThan(2 * limited.peak);
  }, 60_000);
});
