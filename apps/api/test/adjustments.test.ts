// Pending-reward adjustments against an insider (docs/security.md#pending-reward-adjustments): an admin, or
// whoever holds an admin's token, grants a second wallet they control, raises its pending reward, collects,
// and repeats. The limits stop that at the caps; a raise above the approval threshold waits for a second
// admin; every step is audited and counted. A real server, PostgreSQL and the local chain (collects are real
// payouts).
import { Keypair } from '@solana/web3.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  connect,
  type EngineServer,
  readyStreamer,
  request as socketRequest,
  selfTransfer,
  startEngineServer,
  startStream,
  startTestChain,
  type TestChain,
  tokenUnits,
} from './support/engine-harness.ts';
import { fundedWallets } from './support/payouts.ts';
import { grantAccess, minedOnce as minedOnceIn } from './support/test-app.ts';

const admin = Keypair.generate().publicKey.toBase58();
const secondAdmin = Keypair.generate().publicKey.toBase58();
let chain: TestChain;
let server: EngineServer;
beforeAll(async () => {
  chain = await startTestChain();
  server = await startEngineServer(chain, {
    env: {
      ADMIN_WALLETS: `${admin},${secondAdmin}`,
      PENDING_REWARD_RAISE_PER_WALLET_DAY: '300',
      PENDING_REWARD_RAISE_PER_ADMIN_DAY: '500',
      PENDING_REWARD_RAISE_TOTAL_30_DAYS: '2000',
      PENDING_REWARD_RAISE_APPROVAL_ABOVE: '100',
    },
  });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await server?.drop();
  await chain?.stop();
});

const bearer = (wallet: string) => `Bearer ${issueAuthToken(server.config, wallet, server.clock)}`;
const adjust = (by: string, body: object) =>
  request(server.app.app).post('/api/v1/streamer/pending-reward').set('Authorization', bearer(by)).send(body);
const decide = (by: string, id: number, decision: 'approve' | 'reject') =>
  request(server.app.app)
    .post(`/api/v1/admin/pending-reward-adjustments/${id}/${decision}`)
    .set('Authorization', bearer(by));
const pendingOf = async (wallet: string) =>
  (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

async function metric(name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return Number(line?.split(' ')[1] ?? 0);
}

/** A wallet that has mined once (a closed session), with beta access. */
async function minedOnce(wallet: string) {
  await grantAccess(server.prisma, wallet);
  await minedOnceIn(server.prisma, wallet, server.clock.now());
}

describe('the insider’s faucet', () => {
  it('grant a second wallet, raise, collect, repeat: refused at the per-wallet cap, then at the admin’s', async () => {
    const [mule, otherMule] = await fundedWallets(chain, 2);
    const wallets = [mule!, otherMule!];
    for (const w of wallets) await minedOnce(w.publicKey.toBase58());
    const socket = await connect(server, mule!.publicKey.toBase58());
    const refusedBefore = await metric('strm_pending_reward_adjustments_total', '{outcome="refused"}');

    // 100 STRM at a time (at the approval threshold), collected each time: the first by one admin alone,
    // the second by another admin alone, the third asked by the first again, whose raises in 24 h now pass
    // the threshold, so it waits for the second admin.
    const wallet = mule!.publicKey.toBase58();
    const collect = async () => {
      const signature = await selfTransfer(chain, mule!);
      const paid = await socketRequest(socket, 'collect-rewards', { signature, wallet }, [
        'rewards-collected',
        'rewards-error',
      ]);
      return paid.event === 'rewards-collected' ? 'collected' : JSON.stringify(paid.payload);
    };
    const first = await adjust(admin, { wallet, amount: 100, reason: 'round 1' });
    expect([first.status, first.body.status, first.body.pendingReward]).toEqual([200, 'applied', 100]);
    expect(await collect()).toBe('collected');
    const second = await adjust(secondAdmin, { wallet, amount: 100, reason: 'round 2' });
    expect([second.status, second.body.status, second.body.pendingReward]).toEqual([200, 'applied', 100]);
    expect(await collect()).toBe('collected');
    const asked = await adjust(admin, { wallet, amount: 100, reason: 'round 3' });
    expect([asked.status, asked.body.status, asked.body.pendingReward]).toEqual([202, 'pending_approval', 0]);
    expect((await decide(secondAdmin, asked.body.adjustmentId as number, 'approve')).status).toBe(200);
    expect(await collect()).toBe('collected');
    expect(await tokenUnits(chain, mule!.publicKey)).toBe(300_000_000n);
    // The fourth raise in 24 h would pass 300 STRM for this wallet.
    const fourth = await adjust(admin, { wallet, amount: 100 });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({
      error: 'adjustment_limit',
      message: "This would raise the wallet's pending reward by more than 300 STRM in 24 hours",
    });
    expect(await pendingOf(wallet)).toBe(0n);

    // Another wallet: the same admin's raises (200 so far, one of them approved) stop at 500 STRM in 24 h,
    // counting one still waiting for approval.
    const other = otherMule!.publicKey.toBase58();
    const waiting = await adjust(admin, { wallet: other, amount: 200 });
    expect(waiting.status).toBe(202);
    const third = Keypair.generate().publicKey.toBase58();
    await minedOnce(third);
    // 400 raised or asked by this admin today: 101 more would pass 500 (the wallet's own 300 would not).
    const overAdmin = await adjust(admin, { wallet: third, amount: 101 });
    expect(overAdmin.status).toBe(409);
    expect(overAdmin.body.message).toBe(
      'This would take your adjustments above 500 STRM of raises in 24 hours',
    );
    expect(await metric('strm_pending_reward_adjustments_total', '{outcome="refused"}')).toBe(
      refusedBefore + 2,
    );
    expect((await decide(secondAdmin, waiting.body.adjustmentId as number, 'approve')).status).toBe(200);
    // Lowering is never limited, nor waits.
    expect((await adjust(admin, { wallet: other, amount: 10 })).status).toBe(200);
    expect(await pendingOf(other)).toBe(10_000_000n);
    socket.close();
  }, 120_000);

  it('refuses to raise the pending reward of a wallet that has never mined', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await grantAccess(server.prisma, wallet);
    const res = await adjust(secondAdmin, { wallet, amount: 5 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'adjustment_refused',
      message: 'Only a wallet that has mined can have its pending reward raised',
    });
    expect(await server.prisma.pendingRewardAdjustment.count({ where: { wallet } })).toBe(0);
  });
});

describe('a raise above the approval threshold', () => {
  it('waits for a second admin: not its requester, who can neither approve it nor see it applied', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await minedOnce(wallet);
    const asked = await adjust(secondAdmin, { wallet, amount: 150, reason: 'missed session, ticket 7' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      status: 'pending_approval',
      previousPendingReward: 0,
      pendingReward: 0,
    });
    expect(await pendingOf(wallet)).toBe(0n);
    const id = asked.body.adjustmentId as number;

    const listed = await request(server.app.app)
      .get('/api/v1/admin/pending-reward-adjustments?status=pending_approval')
      .set('Authorization', bearer(admin));
    expect(listed.body.adjustments).toContainEqual(
      expect.objectContaining({
        id,
        wallet,
        admin: secondAdmin,
        requestedPendingReward: 150,
        status: 'pending_approval',
      }),
    );
    const own = await decide(secondAdmin, id, 'approve');
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('A second admin must approve this adjustment');

    // Mined meanwhile: the approved raise is added to the reward as it is now.
    await server.prisma.streamer.update({ where: { wallet }, data: { pendingRewardUnits: 2_000_000n } });
    const approved = await decide(admin, id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id, status: 'applied', decidedBy: admin });
    expect(await pendingOf(wallet)).toBe(152_000_000n);
    expect((await decide(admin, id, 'approve')).status).toBe(409);

    const audit = await request(server.app.app)
      .get('/api/v1/admin/audit')
      .set('Authorization', bearer(admin));
    const actions = (audit.body as { action: string; target: string; actor: string }[]).filter(
      (a) => a.target === wallet && a.action.startsWith('pending_reward'),
    );
    expect(actions.map((a) => [a.action, a.actor])).toEqual([
      ['pending_reward_adjustment_approved', admin],
      ['pending_reward_adjustment_requested', secondAdmin],
    ]);
  });

  it('can be rejected, leaving the reward as it was', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await minedOnce(wallet);
    const asked = await adjust(secondAdmin, { wallet, amount: 120 });
    expect(asked.status).toBe(202);
    const rejected = await decide(admin, asked.body.adjustmentId as number, 'reject');
    expect(rejected.body).toMatchObject({ status: 'rejected', decidedBy: admin });
    expect(await pendingOf(wallet)).toBe(0n);
  });
});

// The two-admin rule and the caps against an admin who promotes a puppet, a backlog approved at once and
// many small raises (docs/security.md#pending-reward-adjustments). A server of its own: its clock moves.
describe('insider limits', () => {
  const [a, b, c, d, e] = Array.from({ length: 5 }, () => Keypair.generate().publicKey.toBase58()) as [
    string,
    string,
    string,
    string,
    string,
  ];
  let limits: EngineServer;
  beforeAll(async () => {
    limits = await startEngineServer(chain, {
      env: {
        ADMIN_WALLETS: [a, b, c, d, e].join(','),
        PENDING_REWARD_RAISE_PER_WALLET_DAY: '300',
        PENDING_REWARD_RAISE_PER_ADMIN_DAY: '500',
        PENDING_REWARD_RAISE_TOTAL_30_DAYS: '100000',
        PENDING_REWARD_RAISE_APPROVAL_ABOVE: '100',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await limits?.close();
    await limits?.drop();
  });
  const as = (by: string) => `Bearer ${issueAuthToken(limits.config, by, limits.clock)}`;
  const raise = (by: string, body: object) =>
    request(limits.app.app).post('/api/v1/streamer/pending-reward').set('Authorization', as(by)).send(body);
  const decideOn = (by: string, id: number, decision: 'approve' | 'reject') =>
    request(limits.app.app)
      .post(`/api/v1/admin/pending-reward-adjustments/${id}/${decision}`)
      .set('Authorization', as(by));
  const promote = (by: string, wallet: string) =>
    request(limits.app.app).put(`/api/v1/admin/admins/${wallet}`).set('Authorization', as(by));
  const pending = async (wallet: string) =>
    (await limits.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;
  const mined = async (wallet = Keypair.generate().publicKey.toBase58()) => {
    await grantAccess(limits.prisma, wallet);
    await minedOnceIn(limits.prisma, wallet, limits.clock.now());
    return wallet;
  };

  it('a puppet admin approves nothing for the admin who made it; the raise is paid only once an admin outside that line approves', async () => {
    const puppet = Keypair.generate().publicKey.toBase58();
    expect((await promote(a, puppet)).status).toBe(200);
    const listed = await request(limits.app.app).get('/api/v1/admin/admins').set('Authorization', as(a));
    expect(listed.body).toContainEqual(
      expect.objectContaining({ wallet: puppet, source: 'promoted', promoted_by: a }),
    );
    // A promoted admin promotes nobody: a chain of puppets would each bring a cap of their own.
    const chained = await promote(puppet, Keypair.generate().publicKey.toBase58());
    expect(chained.status).toBe(403);
    expect(chained.body).toEqual({
      error: 'admin_change_refused',
      message: 'Only an admin listed in ADMIN_WALLETS can promote or demote admins',
    });
    const demoted = await request(limits.app.app)
      .delete(`/api/v1/admin/admins/${puppet}`)
      .set('Authorization', as(puppet));
    expect(demoted.status).toBe(403);

    const [muleKeys] = await fundedWallets(chain, 1);
    const mule = await mined(muleKeys!.publicKey.toBase58());
    const first = await raise(a, { wallet: mule, amount: 150, reason: 'missed session' });
    expect(first.status).toBe(202);
    const tooNew = await decideOn(puppet, first.body.adjustmentId, 'approve');
    expect(tooNew.status).toBe(403);
    expect(tooNew.body).toEqual({
      error: 'approver_refused',
      message: 'An admin promoted less than 168 hours ago cannot approve adjustments',
    });

    // A week on, the puppet is past its cooling-off, but it still approves nothing asked by its maker.
    limits.clock.advance(8 * 86_400_000);
    const second = await raise(a, { wallet: mule, amount: 150, reason: 'missed session' });
    expect(second.status).toBe(202);
    const sameLine = await decideOn(puppet, second.body.adjustmentId, 'approve');
    expect(sameLine.status).toBe(403);
    expect(sameLine.body.message).toBe(
      'An admin who promoted the requester, was promoted by it, or shares its promoter cannot approve this adjustment',
    );
    // Nor does the maker approve what its puppet asks.
    const byPuppet = await raise(puppet, { wallet: mule, amount: 150 });
    expect(byPuppet.status).toBe(202);
    expect((await decideOn(a, byPuppet.body.adjustmentId, 'approve')).status).toBe(403);
    expect((await decideOn(a, byPuppet.body.adjustmentId, 'reject')).status).toBe(200);
    expect(await pending(mule)).toBe(0n);

    // An admin of another line approves: the raise is paid, on chain, once.
    expect((await decideOn(b, second.body.adjustmentId, 'approve')).status).toBe(200);
    expect(await pending(mule)).toBe(150_000_000n);
    limits.clock.set(new Date());
    const socket = await connect(limits, mule);
    const signature = await selfTransfer(chain, muleKeys!);
    const paid = await socketRequest(socket, 'collect-rewards', { signature, wallet: mule }, [
      'rewards-collected',
      'rewards-error',
    ]);
    socket.close();
    expect(paid.event === 'rewards-collected' ? 'collected' : JSON.stringify(paid.payload)).toBe('collected');
    expect(await tokenUnits(chain, muleKeys!.publicKey)).toBe(150_000_000n);
  }, 120_000);

  it('a puppet’s raises count toward its maker’s caps: puppets do not multiply the per-admin cap', async () => {
    const puppet = Keypair.generate().publicKey.toBase58();
    expect((await promote(c, puppet)).status).toBe(200);
    // 100 by the maker alone, then the puppet's 50 waits: the threshold is the line's sum in 24 h.
    expect((await raise(c, { wallet: await mined(), amount: 100 })).status).toBe(200);
    const asked = await raise(puppet, { wallet: await mined(), amount: 50 });
    expect(asked.status).toBe(202);
    expect((await decideOn(b, asked.body.adjustmentId, 'approve')).status).toBe(200);
    expect((await raise(puppet, { wallet: await mined(), amount: 300 })).status).toBe(202);
    // 450 of the line's 500 raised or asked: the maker's 60 more would pass it.
    const over = await raise(c, { wallet: await mined(), amount: 60 });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('This would take your adjustments above 500 STRM of raises in 24 hours');
  });

  it('many small raises wait for a second admin as one large one would', async () => {
    const wallet = await mined();
    for (const amount of [30, 60, 90]) {
      const applied = await raise(d, { wallet, amount });
      expect([applied.status, applied.body.status]).toEqual([200, 'applied']);
    }
    const fourth = await raise(d, { wallet, amount: 120 });
    expect([fourth.status, fourth.body.status]).toEqual([202, 'pending_approval']);
    expect(await pending(wallet)).toBe(90_000_000n);
  });

  it('a raise counts when its money moves, and one left waiting a day expires unapproved', async () => {
    // Asked now, approved 20 h later: the wallet's 24 h from the approval include it.
    const wallet = await mined();
    const asked = await raise(e, { wallet, amount: 250 });
    expect(asked.status).toBe(202);
    limits.clock.advance(20 * 3_600_000);
    expect((await decideOn(b, asked.body.adjustmentId, 'approve')).status).toBe(200);
    limits.clock.advance(5 * 3_600_000);
    const more = await raise(d, { wallet, amount: 350 });
    expect(more.status).toBe(409);
    expect(more.body.message).toBe(
      "This would raise the wallet's pending reward by more than 300 STRM in 24 hours",
    );

    // A backlog: asked, then left for more than a day, it can no longer be approved.
    const late = await mined();
    const backlog = await raise(e, { wallet: late, amount: 150 });
    expect(backlog.status).toBe(202);
    limits.clock.advance(25 * 3_600_000);
    const listed = await request(limits.app.app)
      .get('/api/v1/admin/pending-reward-adjustments')
      .set('Authorization', as(b));
    expect(listed.body.adjustments).toContainEqual(
      expect.objectContaining({ id: backlog.body.adjustmentId, status: 'expired', wallet: late }),
    );
    const approve = await decideOn(b, backlog.body.adjustmentId, 'approve');
    expect(approve.status).toBe(409);
    expect(approve.body.message).toBe('This adjustment waited more than 24 hours for approval and expired');
    expect(await pending(late)).toBe(0n);
    const audit = await request(limits.app.app).get('/api/v1/admin/audit').set('Authorization', as(b));
    expect(audit.body).toContainEqual(
      expect.objectContaining({
        actor: 'system',
        action: 'pending_reward_adjustment_expired',
        target: late,
      }),
    );
  });
});

// The rest of the limits, each on a server of its own so that its sums are its own.
describe('adjustment limits', () => {
  const [a, b] = [Keypair.generate().publicKey.toBase58(), Keypair.generate().publicKey.toBase58()];
  let s: EngineServer;
  beforeAll(async () => {
    s = await startEngineServer(chain, {
      env: {
        ADMIN_WALLETS: `${a},${b}`,
        PENDING_REWARD_RAISE_PER_WALLET_DAY: '300',
        PENDING_REWARD_RAISE_PER_ADMIN_DAY: '5000',
        PENDING_REWARD_RAISE_TOTAL_30_DAYS: '1000',
        PENDING_REWARD_RAISE_APPROVAL_ABOVE: '250',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await s?.drop();
  });
  const as = (by: string) => `Bearer ${issueAuthToken(s.config, by, s.clock)}`;
  const raise = (by: string, body: object) =>
    request(s.app.app).post('/api/v1/streamer/pending-reward').set('Authorization', as(by)).send(body);
  const approve = (by: string, id: number) =>
    request(s.app.app)
      .post(`/api/v1/admin/pending-reward-adjustments/${id}/approve`)
      .set('Authorization', as(by));
  const mined = async (wallet = Keypair.generate().publicKey.toBase58()) => {
    await grantAccess(s.prisma, wallet);
    await minedOnceIn(s.prisma, wallet, s.clock.now());
    return wallet;
  };
  const pending = async (wallet: string) =>
    (await s.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

  it('an unknown adjustment is not found; the raised wallet approves nothing of its own', async () => {
    const missing = await approve(a, 2_000_000_000);
    expect([missing.status, missing.body.message]).toEqual([404, 'No such adjustment']);
    // b is an admin that has mined: a raise of its own reward waits, and b cannot approve it.
    await mined(b);
    const asked = await raise(a, { wallet: b, amount: 260 });
    expect(asked.status).toBe(202);
    const own = await approve(b, asked.body.adjustmentId);
    expect([own.status, own.body.message]).toEqual([403, 'A second admin must approve this adjustment']);
    expect(await pending(b)).toBe(0n);
  });

  it('a raise waiting for approval counts toward the wallet’s cap', async () => {
    const wallet = await mined();
    const asked = await raise(a, { wallet, amount: 260 });
    expect(asked.status).toBe(202);
    const meanwhile = await raise(b, { wallet, amount: 100 });
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.message).toBe(
      "This would raise the wallet's pending reward by more than 300 STRM in 24 hours",
    );
  });

  it('two admins raising at once are counted one after the other', async () => {
    // 520 of the 1,000 in 30 days raised or asked above: two raises of 250 at once fit one at a time only.
    const [first, second] = [await mined(), await mined()];
    const both = await Promise.all([
      raise(a, { wallet: first, amount: 250 }),
      raise(b, { wallet: second, amount: 250 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)?.body.message).toBe(
      'This would take all adjustments above 1,000 STRM of raises in 30 days',
    );
    expect((await pending(first)) + (await pending(second))).toBe(250_000_000n);
  });

  it('all raises together stop at the 30-day total, which frees up as raises age out of it', async () => {
    const wallet = await mined();
    const over = await raise(a, { wallet, amount: 240 });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('This would take all adjustments above 1,000 STRM of raises in 30 days');
    s.clock.advance(31 * 86_400_000);
    expect((await raise(a, { wallet, amount: 240 })).status).toBe(200);
    expect(await pending(wallet)).toBe(240_000_000n);
  });
});

// An approval is a decision taken when it is made: on the streamer's state and the limits as they are then.
describe('an approval, when it is made', () => {
  const [a, b] = [Keypair.generate().publicKey.toBase58(), Keypair.generate().publicKey.toBase58()];
  const env = {
    ADMIN_WALLETS: `${a},${b}`,
    PENDING_REWARD_RAISE_PER_WALLET_DAY: '300',
    PENDING_REWARD_RAISE_PER_ADMIN_DAY: '5000',
    PENDING_REWARD_RAISE_TOTAL_30_DAYS: '100000',
    PENDING_REWARD_RAISE_APPROVAL_ABOVE: '100',
  };
  let s: EngineServer;
  beforeAll(async () => {
    s = await startEngineServer(chain, { env });
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await s?.drop();
  });
  const as = (on: EngineServer, by: string) => `Bearer ${issueAuthToken(on.config, by, on.clock)}`;
  const raise = (by: string, body: object) =>
    request(s.app.app).post('/api/v1/streamer/pending-reward').set('Authorization', as(s, by)).send(body);
  const approve = (on: EngineServer, by: string, id: number) =>
    request(on.app.app)
      .post(`/api/v1/admin/pending-reward-adjustments/${id}/approve`)
      .set('Authorization', as(on, by));
  const statusOf = async (id: number) =>
    (await s.prisma.pendingRewardAdjustment.findUniqueOrThrow({ where: { id } })).status;

  it('is refused while the streamer is mining: the raise still waits and the reward is unchanged', async () => {
    const streamer = await readyStreamer(chain, s);
    await minedOnceIn(s.prisma, streamer.wallet, s.clock.now());
    const asked = await raise(a, { wallet: streamer.wallet, amount: 150 });
    expect(asked.status).toBe(202);
    expect((await startStream(streamer)).event).toBe('stream-started');
    const live = await approve(s, b, asked.body.adjustmentId);
    expect([live.status, live.body.message]).toEqual([
      409,
      'Cannot adjust the pending reward while the streamer is mining',
    ]);
    expect(await statusOf(asked.body.adjustmentId)).toBe('pending_approval');
    expect(
      (await s.prisma.streamer.findUniqueOrThrow({ where: { wallet: streamer.wallet } })).pendingRewardUnits,
    ).toBeLessThan(150_000_000n);
    streamer.socket.close();
  });

  it('checks the limits as they are then: a cap lowered since the request refuses it', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await grantAccess(s.prisma, wallet);
    await minedOnceIn(s.prisma, wallet, s.clock.now());
    const asked = await raise(a, { wallet, amount: 250 });
    expect(asked.status).toBe(202);
    // The operators lower the per-wallet cap and restart: the request, asked under 300, is decided under 200.
    const stricter = await startEngineServer(chain, {
      databaseUrl: s.databaseUrl,
      clock: s.clock,
      env: { ...env, PENDING_REWARD_RAISE_PER_WALLET_DAY: '200' },
    });
    try {
      const refused = await approve(stricter, b, asked.body.adjustmentId);
      expect([refused.status, refused.body.message]).toEqual([
        409,
        "This would raise the wallet's pending reward by more than 200 STRM in 24 hours",
      ]);
      expect(await statusOf(asked.body.adjustmentId)).toBe('pending_approval');
      expect((await s.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits).toBe(0n);
    } finally {
      await stricter.close();
    }
  });
});
