// The mining REST endpoints, maintenance and tier actions, against a real server, PostgreSQL and the chain.
import { Keypair, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { readKeypair } from '@strm/local-chain';
import { miningProgram, updateTierInstruction } from '@strm/mining-client';
import type { ServerEventName } from '@strm/shared';
import bs58 from 'bs58';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import { setMaintenance } from '../src/services/maintenance.ts';
import {
  activatedWallet,
  connect,
  deactivate,
  type EngineServer,
  next,
  readyStreamer,
  request as socketRequest,
  startEngineServer,
  startStream,
  startTestChain,
  type TestChain,
  verifiedDemoAccount,
  waitFor,
} from './support/engine-harness.ts';
import { grantAccess, minedOnce as minedOnceIn } from './support/test-app.ts';

const H = 3_600_000;
const DAY = 86_400_000;
const admin = Keypair.generate().publicKey.toBase58();
let chain: TestChain;
let server: EngineServer;
beforeAll(async () => {
  chain = await startTestChain({ programSuite: true });
  server = await startEngineServer(chain, {
    env: { ADMIN_WALLETS: admin, PENDING_REWARD_ADJUSTMENT_MAX: '1000' },
  });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await server?.drop();
  await chain?.stop();
});

const bearer = (wallet: string) => `Bearer ${issueAuthToken(server.config, wallet, server.clock)}`;
const api = () => request(server.app.app);

describe('GET /api/v1/tiers', () => {
  it('serves the deposits of the chain config with the rates of the database', async () => {
    const res = await api().get('/api/v1/tiers');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(9);
    expect(res.body[0]).toMatchObject({ name: 'Tier 1', deposit_requirement: 1000, hourly_base_rate: 0.25 });
  });

  it('follows a reprice on chain (the config account subscription), not the database', async () => {
    const authority = readKeypair(chain.local.info.keypairs.authority);
    const program = miningProgram(chain.local.connection);
    const reprice = async (deposit: bigint) =>
      sendAndConfirmTransaction(
        chain.local.connection,
        new Transaction().add(
          await updateTierInstruction(program, authority.publicKey, { name: 'Tier 9', deposit }),
        ),
        [authority],
        { commitment: 'confirmed' },
      );
    await reprice(1_234_567_000_000n);
    try {
      await waitFor(async () => {
        const res = await api().get('/api/v1/tiers');
        return res.body[8].deposit_requirement === 1_234_567 ? true : undefined;
      });
      const row = await server.prisma.tier.findUniqueOrThrow({ where: { name: 'Tier 9' } });
      expect(row.depositRequirementUnits).toBe(1_000_000_000_000n);
    } finally {
      await reprice(1_000_000_000_000n);
    }
  });
});

describe('GET /api/v1/streamer and mining-stats', () => {
  it('report the tier, rate, today and totals, the live session included', async () => {
    const s = await readyStreamer(chain, server, { timezone: 'Asia/Tokyo' });
    server.clock.set(new Date(s.activatedAt.getTime() + 12 * DAY));
    const streamer = await api()
      .get(`/api/v1/streamer?wallet=${s.wallet}`)
      .set('Authorization', bearer(s.wallet));
    expect(streamer.status).toBe(200);
    expect(streamer.body.streamer).toMatchObject({
      wallet: s.wallet,
      pendingReward: 0,
      timezone: 'Asia/Tokyo',
      activeTier: 'Tier 1',
      tierActivatedAt: s.activatedAt.toISOString(),
      miningRate: 0.5,
      nextRateIncrease: new Date(s.activatedAt.getTime() + 20 * DAY).toISOString(),
      isLive: false,
    });
    await startStream(s);
    server.clock.advance(H);
    const stats = await api().get('/api/v1/streamer/mining-stats').set('Authorization', bearer(s.wallet));
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      tier: 'Tier 1',
      isLive: true,
      miningRate: 0.5,
      dailyLimitSeconds: 28_800,
      sessionCount: 1,
      totalMined: 0.5,
      pendingReward: 0,
    });
    expect(stats.body.currentDailyDuration + stats.body.remainingDailySeconds).toBe(28_800);
    await socketRequest(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    const after = await api().get('/api/v1/streamer/mining-stats').set('Authorization', bearer(s.wallet));
    expect(after.body).toMatchObject({ isLive: false, pendingReward: 0.5, totalMined: 0.5, sessionCount: 1 });
    expect(after.body.recentSessions[0]).toMatchObject({
      duration: 3600,
      amountMined: 0.5,
      endReason: 'stopped',
    });
    s.socket.close();
  });

  it("says 'Approaching daily limit' under 1800 s left", async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date('2027-05-01T08:00:00Z'));
    await startStream(s);
    server.clock.advance(7.75 * H);
    const stats = await api().get('/api/v1/streamer/mining-stats').set('Authorization', bearer(s.wallet));
    expect(stats.body).toMatchObject({
      remainingDailySeconds: 900,
      dailyStatus: 'approaching',
      dailyMessage: 'Approaching daily limit',
    });
    await socketRequest(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });

  it("refuses another wallet's stats and requests without a token", async () => {
    const me = Keypair.generate().publicKey.toBase58();
    const other = Keypair.generate().publicKey.toBase58();
    await grantAccess(server.prisma, me);
    const res = await api()
      .get(`/api/v1/streamer/mining-stats?wallet=${other}`)
      .set('Authorization', bearer(me));
    expect(res.status).toBe(403);
    expect((await api().get('/api/v1/streamer/mining-stats')).status).toBe(401);
  });
});

describe('PUT /api/v1/streamer/timezone', () => {
  it('sets the first zone without counting it, allows two changes and refuses the third', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await grantAccess(server.prisma, wallet);
    const put = (timezone: string) =>
      api().put('/api/v1/streamer/timezone').set('Authorization', bearer(wallet)).send({ timezone });
    expect((await put('Europe/Paris')).body).toMatchObject({
      timezone: 'Europe/Paris',
      timezoneChangedTimes: 0,
    });
    expect((await put('Asia/Tokyo')).body).toMatchObject({ timezone: 'Asia/Tokyo', timezoneChangedTimes: 1 });
    expect((await put('America/New_York')).body).toMatchObject({ timezoneChangedTimes: 2 });
    const third = await put('UTC');
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ error: 'refused', message: 'Cannot change timezone anymore!' });
    const bad = await put('Mars/Olympus');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Unknown time zone');
  });

  it('is refused while live', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    const res = await api()
      .put('/api/v1/streamer/timezone')
      .set('Authorization', bearer(s.wallet))
      .send({ timezone: 'Asia/Tokyo' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Cannot change timezone while mining is active');
    await socketRequest(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });
});

const minedOnce = (wallet: string) => minedOnceIn(server.prisma, wallet, server.clock.now());

describe('POST /api/v1/streamer/pending-reward', () => {
  it('lets an admin set a pending reward, with an audit record', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await minedOnce(wallet);
    const res = await api()
      .post('/api/v1/streamer/pending-reward')
      .set('Authorization', bearer(admin))
      .send({ wallet, amount: 12.5, reason: 'support ticket 42' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      wallet,
      previousPendingReward: 0,
      pendingReward: 12.5,
      status: 'applied',
    });
    const audit = await server.prisma.pendingRewardAdjustment.findFirstOrThrow({ where: { wallet } });
    expect(audit).toMatchObject({
      adminWallet: admin,
      previousUnits: 0n,
      newUnits: 12_500_000n,
      reason: 'support ticket 42',
    });
    const streamer = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } });
    expect(streamer.pendingRewardUnits).toBe(12_500_000n);
  });

  it('is never a streamer’s own route to money', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const res = await api()
      .post('/api/v1/streamer/pending-reward')
      .set('Authorization', bearer(wallet))
      .send({ wallet, amount: 1000 });
    expect(res.status).toBe(403);
    const negative = await api()
      .post('/api/v1/streamer/pending-reward')
      .set('Authorization', bearer(admin))
      .send({ wallet, amount: -1 });
    expect(negative.status).toBe(400);
    expect(await server.prisma.streamer.findUnique({ where: { wallet } })).toBeNull();
  });
});

describe('POST /api/v1/streamer/pending-reward: the ceiling and the admin’s own wallet', () => {
  const adjust = (by: string, body: object) =>
    api().post('/api/v1/streamer/pending-reward').set('Authorization', bearer(by)).send(body);

  it('refuses to raise a pending reward above PENDING_REWARD_ADJUSTMENT_MAX, and allows lowering one', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const over = await adjust(admin, { wallet, amount: 1000.000001 });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      error: 'refused',
      message: 'An adjustment cannot raise a pending reward above 1,000 STRM',
    });
    expect(await server.prisma.pendingRewardAdjustment.count({ where: { wallet } })).toBe(0);
    expect((await server.prisma.streamer.findUnique({ where: { wallet } }))?.pendingRewardUnits ?? 0n).toBe(
      0n,
    );
    await minedOnce(wallet);
    // A raise that big waits for a second admin (PENDING_REWARD_RAISE_APPROVAL_ABOVE).
    const big = await adjust(admin, { wallet, amount: 1000 });
    expect(big.body).toMatchObject({ status: 'pending_approval' });
    expect(big.status).toBe(202);
    // Mined above the ceiling: an admin may still lower it.
    await server.prisma.streamer.update({ where: { wallet }, data: { pendingRewardUnits: 5_000_000_000n } });
    const lower = await adjust(admin, { wallet, amount: 4000 });
    expect(lower.status).toBe(200);
    expect(lower.body).toMatchObject({ previousPendingReward: 5000, pendingReward: 4000 });
    expect((await adjust(admin, { wallet, amount: 4500 })).status).toBe(400);
  });

  it("refuses an admin's adjustment of their own pending reward", async () => {
    const own = await adjust(admin, { wallet: admin, amount: 10, reason: 'mine' });
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ error: 'refused', message: 'Admins cannot adjust their own pending reward' });
    expect(await server.prisma.pendingRewardAdjustment.count({ where: { wallet: admin } })).toBe(0);
    expect(await server.prisma.streamer.findUnique({ where: { wallet: admin } })).toBeNull();
  });
});

describe('maintenance', () => {
  it('ends every live session at that instant and refuses new ones until it ends', async () => {
    const s = await readyStreamer(chain, server);
    server.clock.set(new Date(s.activatedAt.getTime() + DAY));
    await startStream(s);
    server.clock.advance(H);
    const stopped = next(s.socket, 'stream-stopped');
    const starting = next(s.socket, 'maintenance-starting');
    await setMaintenance(server.prisma, { on: true, actor: admin, at: server.clock.now() });
    expect(await stopped).toMatchObject({ duration: 3600, amountMined: 0.25, reason: 'maintenance' });
    expect(await starting).toHaveProperty('message');
    expect(await startStream(s)).toEqual({
      event: 'room-error',
      payload: { message: 'We are Down for Maintenance!' },
    });
    const ended = next(s.socket, 'maintenance-ended');
    await setMaintenance(server.prisma, { on: false, actor: admin, at: server.clock.now() });
    await ended;
    expect((await startStream(s)).event).toBe('stream-started');
    await socketRequest(s.socket, 'stop-stream', { platform: 'demo', wallet: s.wallet }, ['stream-stopped']);
    s.socket.close();
  });
});

describe('maintenance pauses tier actions', () => {
  it('refuses activate-tier and deactivate-tier with the maintenance message until it ends', async () => {
    const { keypair, signature } = await activatedWallet(chain, 'Tier 2');
    const wallet = keypair.publicKey.toBase58();
    const socket = await connect(server, wallet);
    const answers: ServerEventName[] = ['tier-activated', 'tier-deactivated', 'tier-error'];
    const maintenance = { event: 'tier-error', payload: { message: 'We are Down for Maintenance!' } };
    await setMaintenance(server.prisma, { on: true, actor: admin, at: server.clock.now() });
    let off: string;
    try {
      expect(await socketRequest(socket, 'activate-tier', { signature, tier: 'Tier 2' }, answers)).toEqual(
        maintenance,
      );
      off = await deactivate(chain, keypair);
      expect(
        await socketRequest(socket, 'deactivate-tier', { signature: off, tier: 'Tier 2' }, answers),
      ).toEqual(maintenance);
      expect(await server.prisma.tierEvent.count({ where: { wallet } })).toBe(0);
    } finally {
      await setMaintenance(server.prisma, { on: false, actor: admin, at: server.clock.now() });
    }
    // Once it ends, the same report is taken.
    expect(
      await socketRequest(socket, 'deactivate-tier', { signature: off, tier: 'Tier 2' }, answers),
    ).toEqual({
      event: 'tier-deactivated',
      payload: { tier: 'Tier 2', signature: off },
    });
    socket.close();
  });
});

describe('activate-tier and deactivate-tier', () => {
  it('verify the transaction on chain, once per signature', async () => {
    const { keypair, signature } = await activatedWallet(chain, 'Tier 2');
    const wallet = keypair.publicKey.toBase58();
    const socket = await connect(server, wallet);
    const ok = await socketRequest(socket, 'activate-tier', { signature, tier: 'Tier 2' }, [
      'tier-activated',
      'tier-error',
    ]);
    expect(ok).toMatchObject({ event: 'tier-activated', payload: { tier: 'Tier 2', signature } });
    const again = await socketRequest(socket, 'activate-tier', { signature, tier: 'Tier 2' }, [
      'tier-activated',
      'tier-error',
    ]);
    expect(again).toEqual({
      event: 'tier-error',
      payload: { message: 'This transaction has already been processed' },
    });
    // A transaction that is not an activation by this wallet.
    const other = await activatedWallet(chain);
    const foreign = await socketRequest(
      socket,
      'activate-tier',
      { signature: other.signature, tier: 'Tier 1' },
      ['tier-activated', 'tier-error'],
    );
    expect(foreign.payload).toEqual({
      message: 'The transaction is not a confirmed tier action signed by your wallet',
    });
    const forged = await socketRequest(
      socket,
      'activate-tier',
      { signature: bs58.encode(Keypair.generate().secretKey), tier: 'Tier 2' },
      ['tier-activated', 'tier-error'],
    );
    expect(forged.event).toBe('tier-error');
    // An activation transaction reported as a deactivation is refused.
    const wrongKind = await socketRequest(socket, 'deactivate-tier', { signature }, [
      'tier-deactivated',
      'tier-error',
    ]);
    expect(wrongKind.event).toBe('tier-error');

    const off = await deactivate(chain, keypair);
    const done = await socketRequest(socket, 'deactivate-tier', { signature: off, tier: 'Tier 2' }, [
      'tier-deactivated',
      'tier-error',
    ]);
    expect(done).toEqual({ event: 'tier-deactivated', payload: { tier: 'Tier 2', signature: off } });
    const row = await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } });
    expect(row.tierName).toBeNull();
    // Without an active tier, streaming is refused.
    await verifiedDemoAccount(server, wallet, `demo_${wallet.slice(0, 6).toLowerCase()}`);
    server.demo.setLive(`demo_${wallet.slice(0, 6).toLowerCase()}`, true);
    const refused = await socketRequest(
      socket,
      'start-stream',
      { platform: 'demo', wallet, username: `demo_${wallet.slice(0, 6).toLowerCase()}`, tier: 'Tier 2' },
      ['stream-started', 'room-error'],
    );
    expect(refused.payload).toEqual({
      message: 'You must activate a mining tier before connecting to Demo Live',
    });
    socket.close();
  });
});
