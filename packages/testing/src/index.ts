// Helpers the test suites share: free loopback ports and Debian's Chromium for browser tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export type { BrowserContext, Page } from 'playwright-core';

function listenable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/** A port nothing listens on right now (127.0.0.1). */
export async function freePort(): Promise<number> {
  const port = await listenable(0);
  if (port === null) throw new Error('no free port');
  return port;
}

/** Two consecutive free ports, e.g. a Solana RPC port and its PubSub port (RPC + 1). */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65_000 && (await listenable(port + 1)) !== null) return port;
  }
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium (`CHROMIUM_PATH` to override), headless, with a fresh profile removed on close. */
export async function launchChromium(
  options: {
    /** The time zone pages see (Intl), e.g. 'Asia/Tokyo'; the machine's by default. */
    timezoneId?: string;
  } = {},
): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'strm-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    ...options,
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export type { Fault } from './fake-http.ts';
export { FakeTikTok } from './fake-tiktok.ts';
export { FakeTwitch } from './fake-twitch.ts';
