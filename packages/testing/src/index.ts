// Helpers the test suites share: free loopback ports and Debian's Chromium for browser tests.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, utimesSync } from 'node:fs';
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

/**
 * Test servers take their ports below the kernel's ephemeral range: a port the kernel chose (listen on 0) is
 * one it may give the next outgoing connection of any process before our server binds it, which a loaded
 * machine did ("binding 127.0.0.1:N"). Below the range only another server can take it. A port handed out is
 * reserved on the machine for a while (a file in the temporary directory, created exclusively), so no other
 * test process, of this suite's parallel files or of another suite, is handed it while its server starts.
 */
const LOWEST_PORT = 20_000;
const ephemeralStart = (() => {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
    return start > LOWEST_PORT + 1000 ? start : 32_768;
  } catch {
    return 32_768;
  }
})();
/** Long enough for any server to have bound its port (after which it is not listenable anyway). */
const RESERVATION_MS = 10 * 60_000;
const reservations = join(tmpdir(), 'strm-test-ports');

/** Takes the machine-wide reservation of `port`: false when another process holds a fresh one. */
function reserve(port: number): boolean {
  const file = join(reservations, String(port));
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // An old reservation is taken over (its server bound long ago, or its process is gone).
  if (Date.now() - statSync(file).mtimeMs < RESERVATION_MS) return false;
  const now = new Date();
  utimesSync(file, now, now);
  return true;
}

/** `count` consecutive ports nothing listens on right now (127.0.0.1), outside the ephemeral range. */
async function freePorts(count: number): Promise<number> {
  mkdirSync(reservations, { recursive: true });
  for (let attempt = 0; attempt < 1000; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (ephemeralStart - LOWEST_PORT - count));
    const ports = Array.from({ length: count }, (_, i) => port + i);
    if (!ports.every(reserve)) continue;
    let free = true;
    for (const p of ports) if ((await listenable(p)) === null) free = false;
    if (free) return port;
  }
  throw new Error('no free port');
}

/** A port nothing listens on right now (127.0.0.1). */
export function freePort(): Promise<number> {
  return freePorts(1);
}

/** Two consecutive free ports, e.g. a Solana RPC port and its PubSub port (RPC + 1). */
export function freePortPair(): Promise<number> {
  return freePorts(2);
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
export { FakeTikTok, type TikTokMisbehaviour } from './fake-tiktok.ts';
export { FakeTwitch } from './fake-twitch.ts';
export { FakeKick, type KickMisbehaviour } from './fake-kick.ts';
export { FakeYouTube, type YouTubeMisbehaviour } from './fake-youtube.ts';
export { type StartedProcess, type StartOptions, startProcess } from './process.ts';
