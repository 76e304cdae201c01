// The mining engine end to end: socket.io-client against a real server, real PostgreSQL, the local chain,
// the demo platform and a fake clock.
import { describe, expect, it } from 'vitest';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  connect,
  deactivate,
  type EngineServer,
  next,
  readyStreamer,
  recorder,
  request,
  startStream,
  type TestChain,
  useEngineServer,
  waitFor,
} from './support/engine-harness.ts';

const DAY = 86_400_000;
const H = 3_600_000;

let chain: TestChain;
let server: EngineServer;
useEngineServer(
  (c, s) => {
    chain = c;
    server = s;
  },
  { programSuite: true },
);

const pending = async (wallet: string) =>
  (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

describe('a live session', () => {
  it('starts, updates every 5 s from timestamps, and credits what it mined when stopped', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(s.activatedAt);
    const started = await startStream(s);
    expect(started).toMatchObject({
      event: 'stream-started',
      payload: { miningRate: 0.25, platform: 'demo', currentDailyDuration: 0, dailyLimitSeconds: 28_800 },
    });
    expect(started.payload.nextRateIncrease).toBe(new Date(s.activatedAt.getTime() + 10 * DAY).toISOString());
    expect(started.payload.startedAt).toBe(s.activatedAt.toISOString());

    const update = next(s.socket, 'mining-update');
    server.clock.advance(5000);
    expect(await update).toEqual({
      duration: 5,
      minedAmount: 0.000347, // 0.25 STRM/h × 5 s, floored to base units
      miningRate: 0.25,
      platform: 'demo',
      currentDailyDuration: 5,
    });

    server.clock.advance(H - 5000);
    const stopped = await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, [
      'stream-stopped',
    ]);
    expect(stopped.payload).toEqual({
      duration: 3600,
      amountMined: 0.25,
      pendingReward: 0.25,
      reason: 'stopped',
    });
    expect(await pending(s.wallet)).toBe(250_000n);
    s.socket.close();
  });

  it.each([
    [0, 0.25],
    [9, 0.25],
    [10, 0.5],
    [25, 1],
    [120, 2],
  ])('after %s days the rate is %s STRM/h', async (days, rate) => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + days * DAY));
    const started = await startStream(s);
    expect(started.payload.miningRate).toBe(rate);
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });

  it('ends at the 10-day boundary, pushes rate-increased, and restarts at the doubled rate', async () => {
    const s = await readyStreamer(chain, server);
    const boundary = s.activatedAt.getTime() + 10 * DAY;
    server.clock.set(new Date(boundary - 10_000));
    expect((await startStream(s)).payload.miningRate).toBe(0.25);

    const stopped = next(s.socket, 'stream-stopped');
    const increased = next(s.socket, 'rate-increased');
    server.clock.set(new Date(boundary + 20_000));
    expect(await increased).toEqual({
      status: 'success',
      miningRate: 0.5,
      nextRateIncrease: new Date(boundary + 10 * DAY).toISOString(),
    });
    // Credited up to the boundary only, at the old rate: 10 s × 0.25/h.
    expect(await stopped).toMatchObject({ duration: 10, amountMined: 0.000694, reason: 'rate-increased' });

    // The client's increase-rate after the countdown is answered too.
    const reply = await request(s.socket, 'increase-rate', { platform: 'demo', wallet: s.wallet }, [
      'rate-increased',
      'error',
    ]);
    expect(reply).toMatchObject({ event: 'rate-increased', payload: { status: 'success', miningRate: 0.5 } });
    expect((await startStream(s)).payload.miningRate).toBe(0.5);
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });

  it('answers increase-rate before the boundary with an error', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + 3 * DAY));
    await startStream(s);
    const reply = await request(s.socket, 'increase-rate', { platform: 'demo', wallet: s.wallet }, [
      'rate-increased',
      'error',
    ]);
    expect(reply).toEqual({
      event: 'error',
      payload: { message: 'Your rate cannot increase yet', event: 'increase-rate' },
    });
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });
});

describe('the daily cap', () => {
  it('ends the session when reached mid-session and refuses a new one until the next local day', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date('2027-02-10T08:00:00Z'));
    const started = await startStream(s);
    expect(started.event).toBe('stream-started');
    const limit = next(s.socket, 'dailyLimitReached');
    const stopped = next(s.socket, 'stream-stopped');
    server.clock.advance(8 * H + 60_000);
    expect(await limit).toEqual({
      message: 'Daily mining limit reached. Please try again after the cooldown period.',
      currentDailyDuration: 28_800,
    });
    expect(await stopped).toMatchObject({
      duration: 28_800,
      reason: 'daily-limit',
      amountMined: (started.payload.miningRate as number) * 8,
    });

    server.clock.set(new Date('2027-02-10T23:00:00Z'));
    expect(await startStream(s)).toMatchObject({
      event: 'dailyLimitReached',
      payload: { currentDailyDuration: 28_800 },
    });
    server.clock.set(new Date('2027-02-11T00:00:01Z'));
    expect(await startStream(s)).toMatchObject({
      event: 'stream-started',
      payload: { currentDailyDuration: 0 },
    });
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });

  it.each([
    ['Asia/Tokyo', '2027-02-10T14:30:00Z'], // 23:30 in Tokyo
    ['America/Los_Angeles', '2027-02-11T07:30:00Z'], // 23:30 in Los Angeles
  ])('counts a session crossing midnight in %s on both local days', async (timezone, start) => {
    const s = await readyStreamer(chain, server, { timezone });
    server.clock.set(new Date(start));
    await startStream(s);
    const update = next<{ currentDailyDuration: number; duration: number }>(s.socket, 'mining-update');
    server.clock.advance(H);
    // 30 minutes fell on yesterday, 30 on today: today's count restarted at local midnight.
    expect(await update).toMatchObject({ duration: 3600, currentDailyDuration: 1800 });
    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });

  it('uses the 23-hour local day of a DST change', async () => {
    // Europe/Berlin springs forward on 28 March 2027: that day runs 23:00 UTC (27th) to 22:00 UTC (28th).
    const s = await readyStreamer(chain, server, { timezone: 'Europe/Berlin' });
    server.clock.set(new Date('2027-03-28T15:00:00Z'));
    await startStream(s);
    const limit = next(s.socket, 'dailyLimitReached');
    const stopped = next<{ duration: number }>(s.socket, 'stream-stopped');
    server.clock.set(new Date('2027-03-29T08:00:00Z'));
    expect(await limit).toMatchObject({ currentDailyDuration: 28_800 });
    // 7 h to local midnight at 22:00 UTC (a 24-hour day would put it at 23:00), then the 29th's 8 h.
    expect((await stopped).duration).toBe(15 * 3600);
    s.socket.close();
  });
});

describe('the chain and the platform end sessions', () => {
  it('a deactivation on chain while live ends the session at that moment, credited up to it', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    server.clock.advance(H);
    const stopped = next(s.socket, 'stream-stopped', 20_000);
    await deactivate(chain, s.keypair);
    expect(await stopped).toMatchObject({ duration: 3600, amountMined: 0.25, reason: 'tier-deactivated' });
    expect(await pending(s.wallet)).toBe(250_000n);
    s.socket.close();
  });

  it('the platform going offline ends the session', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    server.clock.advance(600_000);
    const stopped = next(s.socket, 'stream-stopped');
    server.demo.setLive(s.username, false);
    expect(await stopped).toMatchObject({ duration: 600, reason: 'not-live' });
    expect(await startStream(s)).toMatchObject({
      event: 'room-error',
      payload: { message: 'Your stream is not live' },
    });
    s.socket.close();
  });
});

describe('sockets', () => {
  it('a socket dropped and back within the grace period keeps the session', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    s.socket.close();
    await waitFor(() => (server.app.services.engine.connectionCount(s.wallet) === 0 ? true : undefined));
    server.clock.advance(20_000);
    const again = await connect(server, s.wallet);
    const update = next<{ duration: number }>(again, 'mining-update');
    server.clock.advance(25_000);
    expect((await update).duration).toBe(45);
    const stopped = await request(again, 'stop-stream', { platform: 'demo', wallet: s.wallet }, [
      'stream-stopped',
    ]);
    expect(stopped.payload).toMatchObject({ duration: 45, reason: 'stopped' });
    again.close();
  });

  it('a socket dropped past the grace period ends the session, credited up to the drop', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    server.clock.advance(H);
    s.socket.close();
    await waitFor(() => (server.app.services.engine.connectionCount(s.wallet) === 0 ? true : undefined));
    server.clock.advance(31_000);
    // The engine forgets the session before its closing write lands: wait for what a caller can read.
    const session = await waitFor(
      async () =>
        (await server.prisma.miningSession.findFirst({
          where: { wallet: s.wallet, endedAt: { not: null } },
        })) ?? undefined,
    );
    expect(server.app.services.engine.isLive(s.wallet)).toBe(false);
    expect(session.endReason).toBe('disconnected');
    expect(session.endedAt!.getTime() - session.startedAt.getTime()).toBe(H);
    expect(await pending(s.wallet)).toBe(250_000n);
  });

  it('a second tab cannot start a second session; both tabs see the updates', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    const tab2 = await connect(server, s.wallet);
    const refused = await request(
      tab2,
      'start-stream',
      { platform: 'demo', wallet: s.wallet, username: s.username, tier: 'Tier 1' },
      ['stream-started', 'error'],
    );
    expect(refused).toEqual({
      event: 'error',
      payload: {
        message: 'You are already mining in another tab or on another platform',
        event: 'start-stream',
      },
    });
    const update = next(tab2, 'mining-update');
    server.clock.advance(5000);
    expect(await update).toMatchObject({ duration: 5 });
    expect(await server.prisma.miningSession.count({ where: { wallet: s.wallet, endedAt: null } })).toBe(1);
    await request(tab2, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    tab2.close();
    s.socket.close();
  });

  it("refuses events naming another wallet, and never touches that wallet's session", async () => {
    const victim = await readyStreamer(chain, server);
    const attacker = await readyStreamer(chain, server);
    server.clock.set(new Date(victim.activatedAt.getTime() + DAY));
    await startStream(victim);
    const seen = recorder(victim.socket);
    for (const [event, payload] of [
      ['stop-stream', { platform: 'demo', wallet: victim.wallet }],
      ['leave-room', { platform: 'demo', walletId: victim.wallet }],
      ['collect-rewards', { signature: victim.activation, wallet: victim.wallet }],
      [
        'start-stream',
        { platform: 'demo', wallet: victim.wallet, username: victim.username, tier: 'Tier 1' },
      ],
    ] as const) {
      const reply = await request(attacker.socket, event, payload, ['error']);
      expect(reply.payload).toEqual({
        message: 'This event names another wallet than the signed-in one',
        event,
      });
    }
    expect(server.app.services.engine.isLive(victim.wallet)).toBe(true);
    expect(seen.filter((e) => e.event === 'stream-stopped')).toEqual([]);
    await request(victim.socket, 'stop-stream', { platform: 'demo', wallet: victim.wallet }, [
      'stream-stopped',
    ]);
    victim.socket.close();
    attacker.socket.close();
  });

  it('answers every event with an invalid payload with an error naming the problem', async () => {
    const s = await readyStreamer(chain, server);
    const platforms = 'platform: Invalid option: expected one of "tiktok"|"twitch"|"youtube"|"kick"|"demo"';
    const cases: Array<[string, unknown, string]> = [
      ['join-room', { platform: 'myspace', walletId: s.wallet }, platforms],
      ['join-room', null, platforms],
      ['leave-room', { platform: 'demo' }, 'walletId: Invalid input: expected string, received undefined'],
      [
        'start-stream',
        { platform: 'demo', wallet: s.wallet, username: '', tier: 'Tier 1' },
        'username: Too small: expected string to have >=1 characters',
      ],
      ['start-stream', 'not an object', 'Invalid input: expected object, received string'],
      ['stop-stream', { platform: 'demo', wallet: 'not-a-wallet' }, 'Invalid wallet address'],
      ['increase-rate', { platform: 42, wallet: s.wallet }, platforms],
      ['collect-rewards', { signature: 'short', wallet: s.wallet }, 'Invalid transaction signature'],
      [
        'activate-tier',
        { signature: s.activation, tier: 'x'.repeat(40) },
        'tier: Too big: expected string to have <=32 characters',
      ],
      ['deactivate-tier', { signature: 7 }, 'signature: Invalid input: expected string, received number'],
      [
        'start-stream',
        { platform: 'demo', wallet: s.wallet, username: 'a', tier: 'Tier 1', extra: true },
        'Unrecognized key: "extra"',
      ],
    ];
    for (const [event, payload, message] of cases) {
      const reply = await request(s.socket, event as never, payload, ['error']);
      expect(reply.payload).toEqual({ event, message });
    }
    // Still serving afterwards.
    expect(
      (await request(s.socket, 'join-room', { platform: 'demo', walletId: s.wallet }, ['joined-room']))
        .payload,
    ).toEqual({
      platform: 'demo',
      room: `demo:${s.username}`,
    });
    s.socket.close();
  });
});

describe('rooms', () => {
  it('join-room answers the verified account and its live state; leave-room stops the stream', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    const data = next(s.socket, 'room-data');
    await request(s.socket, 'join-room', { platform: 'demo', walletId: s.wallet }, ['joined-room']);
    expect(await data).toEqual({
      platform: 'demo',
      room: `demo:${s.username}`,
      username: s.username,
      isLive: true,
      viewers: 12,
    });
    await startStream(s);
    server.clock.advance(60_000);
    const stopped = next(s.socket, 'stream-stopped');
    const left = await request(s.socket, 'leave-room', { platform: 'demo', walletId: s.wallet }, [
      'left-room',
    ]);
    expect(left.payload).toEqual({ platform: 'demo' });
    expect(await stopped).toMatchObject({ duration: 60, reason: 'left-room' });
    const twitch = await request(s.socket, 'join-room', { platform: 'twitch', walletId: s.wallet }, [
      'room-error',
    ]);
    expect(twitch.payload).toEqual({ message: 'Please verify your Twitch account first' });
    s.socket.close();
  });
});

describe('the demo account', () => {
  it('cannot be renamed while its stream is live (its name stays the session’s); offline it can', async () => {
    const s = await readyStreamer(chain, server);
    expect((await startStream(s)).event).toBe('stream-started');
    const rename = (username: string) =>
      fetch(`${server.url}/api/v1/dev/demo/account`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${issueAuthToken(server.config, s.wallet, server.clock)}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ username }),
      });
    const live = await rename(`${s.username}_new`);
    expect(live.status).toBe(409);
    expect(await live.json()).toEqual({
      error: 'streamer_live',
      message: 'Stop your stream before renaming your demo account',
    });
    // The name is still this wallet's: another wallet cannot take it while the session runs under it.
    const account = await server.prisma.platformAccount.findFirstOrThrow({
      where: { wallet: s.wallet, platform: 'demo' },
    });
    expect(account.username).toBe(s.username);
    // Saying the same name again changes nothing and is not refused.
    expect((await rename(s.username)).status).toBe(200);

    await request(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    const offline = await rename(`${s.username}_new`);
    expect(offline.status).toBe(200);
    s.socket.close();
  });
});
