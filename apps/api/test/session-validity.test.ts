// Whole-session validity (docs/engine.md#a-sessions-life): a session holds only while its stake and its
// platform account do, from the moment it starts (a deactivation landing mid-start, a rename mid-start) to a
// takeover by another instance; live detection fails closed. Real PostgreSQL, the local chain,
// socket.io-client.
import { FakeTikTok } from '@strm/testing';
import { SERVER_MESSAGES } from '@strm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveStatus, PlatformAccountRef, PlatformAdapter } from '../src/platforms/adapter.ts';
import { DemoPlatform } from '../src/platforms/demo.ts';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  activatedWallet,
  connect,
  deactivate,
  type EngineServer,
  next,
  readyStreamer,
  recorder,
  request,
  startEngineServer,
  startStream,
  startTestChain,
  type TestChain,
} from './support/engine-harness.ts';

const H = 3_600_000;

/** The demo platform whose live-status answer waits for the test (the middle of a start). */
class GatedDemo extends DemoPlatform {
  gate: ((account: PlatformAccountRef) => Promise<void>) | undefined;
  override async liveStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    const gate = this.gate;
    this.gate = undefined;
    await gate?.(account);
    return super.liveStatus(account);
  }
}

/** A TikTok stand-in for the engine whose live-status answer waits for the test. */
class GatedTikTok implements PlatformAdapter {
  readonly platform = 'tiktok' as const;
  gate: (() => Promise<void>) | undefined;
  async liveStatus(): Promise<LiveStatus> {
    const gate = this.gate;
    this.gate = undefined;
    await gate?.();
    return { live: true, viewers: 0 };
  }
  watch(): () => void {
    return () => {};
  }
}

let chain: TestChain;
let server: EngineServer;
const demo = new GatedDemo();
const tiktok = new GatedTikTok();
beforeAll(async () => {
  chain = await startTestChain();
  server = await startEngineServer(chain, { demo, platforms: [tiktok] });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await server?.drop();
  await chain?.stop();
});

/**
 * Resolves once `clock` has been read `reads` times from now on, in a later turn of the event loop. The engine's
 * tick (every MINING_TICK_MS) reads the clock first and then does everything due by then in the same turn: so
 * by then it has run on the clock as it is now.
 */
function clockReads(clock: EngineServer['clock'], reads: number): Promise<void> {
  const now = clock.now;
  let left = reads;
  return new Promise<void>((resolve) => {
    clock.now = () => {
      if (--left === 0) {
        clock.now = now;
        setImmediate(resolve);
      }
      return now();
    };
  });
}

const pending = async (s: EngineServer, wallet: string) =>
  (await s.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

describe('a session is valid for its whole life', () => {
  it('a deactivation landing between the read of the stake and its watch ends the session with nothing credited', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + H));
    // The stake is read, then (while the platform is asked) the deposit is withdrawn on chain.
    demo.gate = async () => {
      await deactivate(chain, s.keypair);
    };
    const seen = recorder(s.socket);
    const answer = await startStream(s);
    expect(answer).toMatchObject({ event: 'room-error', payload: { message: SERVER_MESSAGES.demoNoTier } });
    const row = await server.prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
    expect(row).toMatchObject({ endReason: 'tier-deactivated', minedUnits: 0n });
    expect(row.endedAt?.getTime()).toBe(row.startedAt.getTime());
    // Nothing mines afterwards: an hour later, once the engine has ticked on that clock, the wallet is owed
    // nothing and got no update.
    const ticked = clockReads(server.clock, 3);
    server.clock.advance(H);
    await ticked;
    expect(await pending(server, s.wallet)).toBe(0n);
    expect(seen.filter((e) => e.event === 'mining-update' || e.event === 'stream-started')).toEqual([]);
    expect(await server.prisma.miningSession.count({ where: { wallet: s.wallet, endedAt: null } })).toBe(0);
    s.socket.close();
  });

  it('the username cannot be changed while a start is in progress', async () => {
    const { keypair } = await activatedWallet(chain);
    const wallet = keypair.publicKey.toBase58();
    await server.prisma.streamer.create({ data: { wallet } });
    await server.prisma.platformAccount.create({
      data: {
        wallet,
        platform: 'tiktok',
        username: 'gated_streamer',
        isVerified: true,
        verifiedAt: new Date(),
        externalId: '7000000000000000001',
      },
    });
    const socket = await connect(server, wallet);
    let rename: Response | undefined;
    tiktok.gate = async () => {
      rename = await fetch(`${server.url}/api/v1/update-streamer-username`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${issueAuthToken(server.config, wallet, server.clock)}`,
        },
        body: JSON.stringify({ platform: 'tiktok', username: 'someone_else' }),
      });
    };
    const answer = await request(
      socket,
      'start-stream',
      { platform: 'tiktok', wallet, username: 'gated_streamer', tier: 'Tier 1' },
      ['stream-started', 'room-error', 'error'],
    );
    expect(rename?.status).toBe(409);
    expect(await rename?.json()).toMatchObject({ message: SERVER_MESSAGES.usernameWhileLive });
    expect(answer.event).toBe('stream-started');
    const account = await server.prisma.platformAccount.findFirstOrThrow({ where: { wallet } });
    expect(account).toMatchObject({ username: 'gated_streamer', isVerified: true });
    await request(socket, 'stop-stream', { platform: 'tiktok', wallet }, ['stream-stopped']);
    socket.close();
  });
});

describe('every checkpoint checks the session again', () => {
  it('a platform account no longer verified ends the session where it was last confirmed, and says why', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + H));
    expect((await startStream(s)).event).toBe('stream-started');
    // Changed behind the routes' back (they refuse while live): an operator unverifies the account.
    await server.prisma.platformAccount.updateMany({
      where: { wallet: s.wallet },
      data: { isVerified: false },
    });
    const told = next<{ message: string }>(s.socket, 'error', 20_000);
    const stopped = next(s.socket, 'stream-stopped', 20_000);
    server.clock.advance(server.config.mining.checkpointIntervalMs);
    expect(await stopped).toMatchObject({ duration: 0, amountMined: 0, reason: 'not-live' });
    expect((await told).message).toBe(SERVER_MESSAGES.accountChangedWhileLive);
    expect(await pending(server, s.wallet)).toBe(0n);
    s.socket.close();
  });
});

describe('a takeover checks the session again', () => {
  it('a session taken over after its stake was withdrawn ends at its last checkpoint', async () => {
    const first = await startEngineServer(chain);
    let second: EngineServer | undefined;
    try {
      const s = await readyStreamer(chain, first);
      first.clock.set(new Date(s.activatedAt.getTime() + H));
      expect((await startStream(s)).event).toBe('stream-started');
      first.clock.advance(600_000);
      s.socket.close();
      // The instance stops (its sessions are checkpointed and released), the stake goes meanwhile.
      await first.close();
      await deactivate(chain, s.keypair);
      second = await startEngineServer(chain, { databaseUrl: first.databaseUrl, clock: first.clock });
      first.clock.advance(600_000);
      const socket = await connect(second, s.wallet);
      const stopped = await next(socket, 'stream-stopped', 20_000);
      expect(stopped).toMatchObject({ duration: 600, reason: 'tier-deactivated' });
      const row = await second.prisma.miningSession.findFirstOrThrow({ where: { wallet: s.wallet } });
      expect(row.endReason).toBe('tier-deactivated');
      expect(row.endedAt?.getTime()).toBe(row.startedAt.getTime() + 600_000);
      socket.close();
    } finally {
      await second?.close();
      await first.drop();
    }
  });
});

describe('live detection fails closed', () => {
  const fake = new FakeTikTok();
  let tiktokServer: EngineServer;
  beforeAll(async () => {
    await fake.start();
    tiktokServer = await startEngineServer(chain, {
      env: { ...fake.env(), TIKTOK_POLL_INTERVAL_MS: '100', PLATFORM_MAX_FAILED_POLLS: '3' },
    });
  });
  afterAll(async () => {
    await tiktokServer?.close();
    await tiktokServer?.drop();
    await fake.stop();
  });

  async function liveTikToker(handle: string) {
    const { keypair } = await activatedWallet(chain);
    const wallet = keypair.publicKey.toBase58();
    const user = fake.addUser(handle);
    fake.setLive(handle, true, 5);
    await tiktokServer.prisma.streamer.create({ data: { wallet } });
    await tiktokServer.prisma.platformAccount.create({
      data: {
        wallet,
        platform: 'tiktok',
        username: handle,
        isVerified: true,
        verifiedAt: new Date(),
        externalId: user.id,
      },
    });
    const socket = await connect(tiktokServer, wallet);
    const started = await request(
      socket,
      'start-stream',
      { platform: 'tiktok', wallet, username: handle, tier: 'Tier 1' },
      ['stream-started', 'room-error', 'error'],
    );
    expect(started.event).toBe('stream-started');
    return { wallet, socket };
  }

  it('an account TikTok no longer knows is offline: the session ends', async () => {
    const { socket } = await liveTikToker('vanishing_streamer');
    const stopped = next(socket, 'stream-stopped', 20_000);
    fake.users.delete('vanishing_streamer');
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    socket.close();
  });

  it('a handle that now names another TikTok account is offline: the session ends', async () => {
    const { socket } = await liveTikToker('renamed_streamer');
    const stopped = next(socket, 'stream-stopped', 20_000);
    // The verified account left the handle; someone else took it and is live.
    fake.users.delete('renamed_streamer');
    fake.addUser('renamed_streamer');
    fake.setLive('renamed_streamer', true, 50);
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    socket.close();
  });

  it('N failed polls in a row end the session and tell the user why', async () => {
    const { socket } = await liveTikToker('unreachable_streamer');
    const told = next<{ message: string }>(socket, 'error', 20_000);
    const stopped = next(socket, 'stream-stopped', 20_000);
    fake.fail('/api-live/user/room/', { status: 500, times: 1000 });
    expect(await stopped).toMatchObject({ reason: 'not-live' });
    expect((await told).message).toBe(SERVER_MESSAGES.liveUnconfirmed);
    socket.close();
  });
});
