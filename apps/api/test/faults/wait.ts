// The fault suite's waiting: a pause, a probe polled until it holds, work run a batch at a time.
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitUntil(probe: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Runs `work` over `items`, `width` at a time. */
export async function inBatches<T, R>(
  items: T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  }
  return results;
}
