// Pending-reward adjustments against an insider (issue 36, M1): an admin, or whoever holds an admin's token,
// grants a second wallet they control, raises its pending reward, collects, and repeats. The limits stop
// that at the caps; a raise above the approval threshold waits for a second admin; every step is audited
// and counted. A real server, PostgreSQL and the local chain (collects are real payouts).
import { Keypair } from '@solana/web3.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAuthToken } from '../src/services/auth/tokens.ts';
import {
  connect,
  type EngineServer,
  request as socketRequest,
  selfTransfer,
  startEngineServer,
  startTestChain,
  type TestChain,
  tokenUnits,
} from './engine-harness.ts';
import { fundedWallets } from './payout-support.ts';
import { grantAccess, minedOnce as minedOnceIn } from './support.ts';

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

    // 100 STRM at a time (at the approval threshold, so no second admin is asked), collected each time.
    const wallet = mule!.publicKey.toBase58();
    for (let round = 1; round <= 3; round++) {
      const raised = await adjust(admin, { wallet, amount: 100, reason: `round ${round}` });
      expect(raised.status).toBe(200);
      expect(raised.body).toMatchObject({ status: 'applied', pendingReward: 100 });
      const signature = await selfTransfer(chain, mule!);
      const paid = await socketRequest(socket, 'collect-rewards', { signature, wallet }, [
        'rewards-collected',
        'rewards-error',
      ]);
      expect(paid.event === 'rewards-collected' ? 'collected' : JSON.stringify(paid.payload)).toBe(
        'collected',
      );
    }
    expect(await tokenUnits(chain, mule!.publicKey)).toBe(300_000_000n);
    // The fourth raise in 24 h would pass 300 STRM for this wallet.
    const fourth = await adjust(admin, { wallet, amount: 100 });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({
      error: 'adjustment_limit',
      message: "This would raise the wallet's pending reward by more than 300 STRM in 24 hours",
    });
    expect(await pendingOf(wallet)).toBe(0n);

    // Another wallet: the same admin's raises stop at 500 STRM in 24 h.
    const other = otherMule!.publicKey.toBase58();
    expect((await adjust(admin, { wallet: other, amount: 100 })).status).toBe(200);
    expect((await adjust(admin, { wallet: other, amount: 200 })).status).toBe(200);
    // 500 raised by this admin today: one more STRM would pass it (the wallet's own 300 would not).
    const overAdmin = await adjust(admin, { wallet: other, amount: 201 });
    expect(overAdmin.status).toBe(409);
    expect(overAdmin.body.message).toBe(
      'This would take your adjustments above 500 STRM of raises in 24 hours',
    );
    expect(await metric('strm_pending_reward_adjustments_total', '{outcome="refused"}')).toBe(
      refusedBefore + 2,
    );
    // Lowering is never limited.
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
