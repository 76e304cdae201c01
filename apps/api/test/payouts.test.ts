// The payout path under faults and load: a send that answers an error after forwarding, a proof
// without `meta`, more claims in `sent` than one getSignatureStatuses call takes, maintenance, and a burst of
// wallets collecting at once. Real local chain, real PostgreSQL; balances read on chain.
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { setMaintenance } from '../src/services/maintenance.ts';
import type { ClaimDeps } from '../src/services/rewards/claims.ts';
import { verifySelfTransfer } from '../src/services/rewards/request-signature.ts';
import { signPayouts } from '../src/services/rewards/treasury.ts';
import {
  activatedWallet,
  connect,
  type EngineServer,
  request,
  selfTransfer,
  type TestChain,
  tokenUnits,
} from './support/engine-harness.ts';
import { claimServiceOn, faultsForEachTest, payoutSuite } from './support/payout-suite.ts';
import { fundedWallets, keptLogs, localTreasury, pendingStreamers } from './support/payouts.ts';
import { grantAccess } from './support/test-app.ts';
import type { Faults } from './support/faults.ts';
import { miningProgram } from '@strm/mining-client';
import type { StreamerRecords } from '../src/rpc/streamer-records.ts';
import { TierActions } from '../src/services/tiers/actions.ts';
import { StreamerRepository } from '../src/db/streamer-repository.ts';

let chain: TestChain;
let server: EngineServer;
payoutSuite((started) => {
  ({ chain, server } = started);
});

const AMOUNT = 250_000n;

const treasury = () => localTreasury(chain);

let faults: Faults;
faultsForEachTest((made) => {
  faults = made;
});

/** A claim service on the test's database and chain, through `connection` (faults.connection: faults injected). */
function claimService(connection: ClaimDeps['connection'], extra: Partial<ClaimDeps> = {}) {
  return claimServiceOn({ chain, server }, { connection, ...extra });
}

/** The real connection, its JSON-RPC requests passing through the test's faults. */
const faulty = () => faults.connection(chain.local.connection);

const pendingOf = async (wallet: string) =>
  (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

/** The statement that records a landed payout on its claims, as PostgreSQL receives it from Prisma. */
const CONFIRM_SQL = /^UPDATE "public"\."reward_claims" SET "status" = .*"settled_at"/;

/** A getTransaction answer as a node that leaves out `meta` gives it. */
const withoutMeta = async (real: () => Promise<unknown>) => {
  const answer = (await real()) as { result?: object | null };
  return answer.result ? { ...answer, result: { ...answer.result, meta: null } } : answer;
};

describe('the payout path', () => {
  it('pays once a payout whose send answered an error but landed', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    // The RPC forwards the payout, then answers an error (as a node behind a load balancer can).
    faults.rpc('send the payout (forwarded, answered with an error)', 'sendTransaction', async (real) => {
      await real();
      return { jsonrpc: '2.0', id: '1', error: { code: -32005, message: 'Node is unhealthy' } };
    });
    const claims = claimService(faulty());
    const collected = await claims.collect(owner, await selfTransfer(chain, wallet!));
    expect(collected.amount).toBe(0.25);
    // A reconciliation pass afterwards changes nothing: paid once, nothing re-credited.
    await claims.reconcile();
    await claims.reconcile();
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(AMOUNT);
    expect(await pendingOf(owner)).toBe(0n);
    const claim = await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: owner } });
    expect(claim).toMatchObject({ status: 'confirmed', payoutSignature: collected.signature });
  });

  it('keeps a payout whose send answered an error and did not land in `sent` (the reconciler decides)', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    faults.rpc('send the payout (not forwarded, answered with an error)', 'sendTransaction', async () => ({
      jsonrpc: '2.0',
      id: '1',
      error: { code: -32002, message: 'Transaction simulation failed' },
    }));
    const claims = claimService(faulty(), { confirmTimeoutMs: 500 });
    await expect(claims.collect(owner, await selfTransfer(chain, wallet!))).rejects.toThrow(
      'Your payout is not confirmed yet. If it does not land, your pending reward is restored within a few minutes.',
    );
    const claim = await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: owner } });
    expect(claim.status).toBe('sent');
    expect(await pendingOf(owner)).toBe(0n);
    // Still valid: the reconciler sends it again (same signature) and it is paid, once: at its next pass on the
    // local chain, a slot or two later on agave's validator, whose resent transaction waits for its block.
    await expect
      .poll(
        async () => {
          await claimService(chain.local.connection).reconcile();
          return (await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: owner } })).status;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('confirmed');
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(AMOUNT);
    expect(await pendingOf(owner)).toBe(0n);
  });

  it('reads the proofs checked at the same moment in one batch, each judged by its own answer', async () => {
    const wallets = await fundedWallets(chain, 3);
    const proofs = await Promise.all(wallets.slice(0, 2).map((w) => selfTransfer(chain, w)));
    // A second transfer of the first wallet: a confirmed transaction, not the third wallet's.
    const othersProof = await selfTransfer(chain, wallets[0]!);
    const connection = faulty();
    const now = new Date();
    const outcomes = await Promise.allSettled([
      verifySelfTransfer(connection, proofs[0]!, wallets[0]!.publicKey.toBase58(), now),
      verifySelfTransfer(connection, proofs[1]!, wallets[1]!.publicKey.toBase58(), now),
      verifySelfTransfer(connection, othersProof, wallets[2]!.publicKey.toBase58(), now),
    ]);
    expect(faults.methods).toEqual(['getTransaction+getTransaction+getTransaction']);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason.message)).toBe(
      'The collect transaction must be a confirmed transfer from your wallet to itself',
    );
  });

  it('does not take a transaction without `meta` as a proof', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    // The node answers the proof's transaction without `meta`.
    faults.rpc('read the proof without its meta', 'getTransaction', withoutMeta);
    const claims = claimService(faulty());
    await expect(claims.collect(owner, await selfTransfer(chain, wallet!))).rejects.toThrow(
      'The collect transaction must be a confirmed transfer from your wallet to itself',
    );
    expect(await pendingOf(owner)).toBe(AMOUNT);
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(0n);
  });

  it('does not take a tier action without `meta` as one either', async () => {
    const { keypair, signature } = await activatedWallet(chain, 'Tier 1');
    faults.rpc('read the tier action without its meta', 'getTransaction', withoutMeta);
    const unreachable = () => {
      throw new Error('the streamer record must not be read for a transaction that proves nothing');
    };
    const tierActions = new TierActions({
      prisma: server.prisma,
      streamers: new StreamerRepository(server.prisma),
      program: miningProgram(faulty()),
      records: { read: unreachable } as unknown as StreamerRecords,
      logger: createLogger('silent'),
      endLiveSession: async () => undefined,
    });
    await expect(tierActions.activate(keypair.publicKey.toBase58(), signature, 'Tier 1')).rejects.toThrow(
      'The transaction is not a confirmed tier action signed by your wallet',
    );
    expect(await server.prisma.tierEvent.findUnique({ where: { signature } })).toBeNull();
  });

  it('answers a landed payout as paid when the database refuses to record it, and logs its claims', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    const { lines, logger } = keptLogs();
    // The database refuses the settlement after the payout landed (a bug or a constraint, not an outage).
    faults.statement('record the payout as confirmed', CONFIRM_SQL);
    const claims = claimService(chain.local.connection, {
      prisma: faults.prisma(server.databaseUrl),
      logger,
    });
    const collected = await claims.collect(owner, await selfTransfer(chain, wallet!));
    expect(collected.amount).toBe(0.25);
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(AMOUNT);
    const claim = await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: owner } });
    expect(claim).toMatchObject({ status: 'sent', payoutSignature: collected.signature });
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'payout: confirmed, not yet recorded', claims: [claim.id] }),
    );
    // The reconciler records it, paid once.
    await claimService(chain.local.connection).reconcile();
    expect(await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: owner } })).toMatchObject({
      status: 'confirmed',
    });
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(AMOUNT);
    expect(await pendingOf(owner)).toBe(0n);
  });

  it('logs an unexpected error of the reservation with its wallet, keeping the pending reward', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    const { lines, logger } = keptLogs();
    // The checks pass; the reservation statement is refused.
    const step = 'reserve the pending reward in a claim';
    faults.statement(step, 'INSERT INTO reward_claims');
    const claims = claimService(chain.local.connection, {
      prisma: faults.prisma(server.databaseUrl),
      logger,
    });
    await expect(claims.collect(owner, await selfTransfer(chain, wallet!))).rejects.toThrow(
      `injected fault: ${step}`,
    );
    expect(faults.hitsOf(step)).toBe(1);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'collect failed unexpectedly', wallet: owner }),
    );
    expect(await server.prisma.rewardClaim.count({ where: { wallet: owner } })).toBe(0);
    expect(await pendingOf(owner)).toBe(AMOUNT);
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(0n);
  });

  it('settles 300 claims in `sent` in one reconciliation pass', async () => {
    const wallets = Array.from({ length: 300 }, () => Keypair.generate());
    await pendingStreamers(server, wallets, 0n);
    const connection = chain.local.connection;
    // 200 payouts that landed (a crash after sending) and 100 never sent whose blockhash has expired.
    const claims = [];
    for (const [i, wallet] of wallets.entries()) {
      const owner = wallet.publicKey.toBase58();
      const payout = signPayouts(
        treasury(),
        [{ wallet: owner, amountUnits: AMOUNT + BigInt(i) }],
        `STRM claim ${i}`,
        await connection.getLatestBlockhash('confirmed'),
      );
      const landed = i < 200;
      if (landed) await connection.sendRawTransaction(Buffer.from(payout.transaction, 'base64'));
      claims.push({ wallet, landed, amount: AMOUNT + BigInt(i) });
      await server.prisma.rewardClaim.create({
        data: {
          wallet: owner,
          requestSignature: `req-${payout.signature}`,
          amountUnits: AMOUNT + BigInt(i),
          status: 'sent',
          payoutSignature: payout.signature,
          payoutTransaction: payout.transaction,
          lastValidBlockHeight: landed ? payout.lastValidBlockHeight : 0n,
          sentAt: new Date(),
        },
      });
    }
    // Every landed one is seen before the pass (the pass itself is what is under test).
    const result = await claimService(connection).reconcile();
    expect(result).toMatchObject({ confirmed: 200, expired: 100, failed: 0 });
    expect(await server.prisma.rewardClaim.count({ where: { status: 'sent' } })).toBe(0);
    for (const claim of claims) {
      const owner = claim.wallet.publicKey.toBase58();
      expect(await tokenUnits(chain, claim.wallet.publicKey)).toBe(claim.landed ? claim.amount : 0n);
      expect(await pendingOf(owner)).toBe(claim.landed ? 0n : claim.amount);
    }
  }, 180_000);

  it('refuses a collect whose maintenance check passed but whose reservation comes after maintenance began', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    const signature = await selfTransfer(chain, wallet!);
    const admin = Keypair.generate().publicKey.toBase58();
    // Maintenance begins while the request's proof is being read from the chain: after the first check.
    faults.rpc('read the proof while maintenance begins', 'getTransaction', async (real) => {
      await setMaintenance(server.prisma, { on: true, actor: admin, at: new Date() });
      return real();
    });
    const service = claimService(faulty());
    try {
      await expect(service.collect(owner, signature)).rejects.toThrow('We are Down for Maintenance!');
      expect(await pendingOf(owner)).toBe(AMOUNT);
      expect(await tokenUnits(chain, wallet!.publicKey)).toBe(0n);
      expect(await server.prisma.rewardClaim.count({ where: { wallet: owner } })).toBe(0);
    } finally {
      await setMaintenance(server.prisma, { on: false, actor: admin, at: new Date() });
    }
  });

  it('refuses a collect during maintenance with its message, keeping the pending reward', async () => {
    const [wallet] = await fundedWallets(chain, 1);
    await pendingStreamers(server, [wallet!], AMOUNT);
    const owner = wallet!.publicKey.toBase58();
    const socket = await connect(server, owner);
    const signature = await selfTransfer(chain, wallet!);
    const admin = Keypair.generate().publicKey.toBase58();
    await setMaintenance(server.prisma, { on: true, actor: admin, at: new Date() });
    try {
      const answer = await request(socket, 'collect-rewards', { signature, wallet: owner }, [
        'rewards-collected',
        'rewards-error',
      ]);
      expect(answer).toEqual({
        event: 'rewards-error',
        payload: { message: 'We are Down for Maintenance!' },
      });
      expect(await pendingOf(owner)).toBe(AMOUNT);
    } finally {
      await setMaintenance(server.prisma, { on: false, actor: admin, at: new Date() });
    }
    // Once it ends, the same request pays.
    const answer = await request(socket, 'collect-rewards', { signature, wallet: owner }, [
      'rewards-collected',
      'rewards-error',
    ]);
    expect(answer.event).toBe('rewards-collected');
    expect(await tokenUnits(chain, wallet!.publicKey)).toBe(AMOUNT);
    socket.close();
  });
});

describe('a burst of collects', () => {
  it('200 wallets collecting at once are all paid exactly once', async () => {
    const n = Number(process.env.COLLECT_BURST ?? 200);
    const wallets = await fundedWallets(chain, n);
    await pendingStreamers(server, wallets, AMOUNT);
    // Access granted one wallet after another: 200 grants at once would queue for the pool's connections past
    // Prisma's 2 s wait for a transaction on a loaded machine.
    await grantAccess(server.prisma, ...wallets.map((w) => w.publicKey.toBase58()));
    const sockets = await Promise.all(
      wallets.map((w) => connect(server, w.publicKey.toBase58(), { access: false })),
    );
    const signatures = await Promise.all(wallets.map((w) => selfTransfer(chain, w)));
    const answers = await Promise.all(
      wallets.map((w, i) =>
        request(
          sockets[i]!,
          'collect-rewards',
          { signature: signatures[i], wallet: w.publicKey.toBase58() },
          ['rewards-collected', 'rewards-error', 'error'],
          600_000,
        ),
      ),
    );
    for (const s of sockets) s.close();
    const refused = answers.filter((a) => a.event !== 'rewards-collected');
    expect(refused).toEqual([]);
    for (const w of wallets) {
      expect(await tokenUnits(chain, w.publicKey)).toBe(AMOUNT);
      expect(await pendingOf(w.publicKey.toBase58())).toBe(0n);
    }
    const owners = wallets.map((w) => w.publicKey.toBase58());
    expect(
      await server.prisma.rewardClaim.count({ where: { wallet: { in: owners }, status: 'confirmed' } }),
    ).toBe(n);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: { in: owners } } })).toBe(n);
  }, 600_000);
});
