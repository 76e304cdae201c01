// Every branch of the payout path that gives a reward back or refuses a collect, driven by a fault at the
// database or the chain (docs/engine.md#collecting-rewards, docs/engine.md#payouts): what the collector is
// answered, the claim's status, the pending reward to the unit, what is logged, what the chain paid. The faults
// are matched on the statement or the JSON-RPC method they hit (test/support/faults.ts). Real local chain, real
// PostgreSQL; balances read on chain.
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  type Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { fundWallet } from '@strm/local-chain';
import { CLIENT_MESSAGES } from '@strm/mining-client';
import { SERVER_MESSAGES } from '@strm/shared';
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '../src/db/index.ts';
import type { Logger } from '../src/logger.ts';
import type { ClaimDeps } from '../src/services/rewards/claims.ts';
import { signPayouts } from '../src/services/rewards/treasury.ts';
import {
  connect,
  type EngineServer,
  request,
  selfTransfer,
  startEngineServer,
  type TestChain,
  tokenUnits,
  waitFor,
} from './support/engine-harness.ts';
import { claimServiceOn, faultsForEachTest, payoutSuite } from './support/payout-suite.ts';
import { fundedWallets, keptLogs, localTreasury, pendingStreamers } from './support/payouts.ts';
import type { Faults } from './support/faults.ts';

let chain: TestChain;
let server: EngineServer;
payoutSuite((started) => {
  ({ chain, server } = started);
});

let faults: Faults;
faultsForEachTest((made) => {
  faults = made;
});

const AMOUNT = 250_000n;
/** The statement that gives a claim back to pending (claims.ts's release), as PostgreSQL receives it. */
const RELEASE_SQL = 'SET pending_reward_units = s.pending_reward_units + c.amount_units';
/** The statement that records a batch's payout on its claims (payout-batches.ts's markSent). */
const MARK_SENT_SQL = "UPDATE reward_claims SET status = 'sent'";
/** The reconciler's look for reservations never sent. */
const STALE_SQL = "SELECT id FROM reward_claims WHERE status = 'reserved' AND created_at <";
/** The statement that reads what a collect's first checks need. */
const COLLECT_STATE_SQL = 'EXISTS (SELECT 1 FROM reward_claims c WHERE c.request_signature = r.signature)';

function claimService(
  extra: Partial<ClaimDeps> & { prisma?: PrismaClient; connection?: Connection; logger?: Logger } = {},
) {
  return claimServiceOn({ chain, server }, extra);
}

const pendingOf = async (wallet: string) =>
  (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;
const claimOf = (wallet: string) => server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet } });

/** A wallet with SOL for its proof and AMOUNT pending, and its proof. */
async function collector() {
  const [keypair] = await fundedWallets(chain, 1);
  await pendingStreamers(server, [keypair!], AMOUNT);
  return {
    keypair: keypair!,
    wallet: keypair!.publicKey.toBase58(),
    proof: await selfTransfer(chain, keypair!),
  };
}

/** Time passes: the claim was reserved `ms` ago (a reservation is stale for the reconciler after 2 minutes). */
async function reservedAgo(id: number, ms: number) {
  await server.prisma.$executeRaw`
    UPDATE reward_claims SET created_at = created_at - make_interval(secs => ${ms} / 1000.0) WHERE id = ${id}`;
}

/** The refusal a collect is answered with (its code and the exact message the user reads). */
const refused = (code: string, message: string) => expect.objectContaining({ code, message });

describe('the reconciler', () => {
  it('re-credits a claim a crash left `reserved` once it is stale, once, even when the payout gives it back again', async () => {
    const c = await collector();
    const prisma = faults.prisma(server.databaseUrl);
    // The instance stops while reading the blockhash to sign the payout: reserved, never sent.
    const crash = faults.rpc('read the blockhash to sign the payout', 'getLatestBlockhash', 'hang');
    const crashed = claimService({ prisma, connection: faults.connection(chain.local.connection) });
    const answer = crashed.collect(c.wallet, c.proof);
    await waitFor(() => faults.hitsOf(crash.step) > 0);
    const claim = await claimOf(c.wallet);
    expect(claim.status).toBe('reserved');
    expect(await pendingOf(c.wallet)).toBe(0n);

    // A fresh reservation may be a collect in flight on another instance: left alone.
    const restarted = claimService({ prisma });
    await restarted.reconcile();
    expect((await claimOf(c.wallet)).status).toBe('reserved');
    expect(await pendingOf(c.wallet)).toBe(0n);

    // Two minutes on, it was never sent: given back, exactly once however many passes run.
    await reservedAgo(claim.id, 3 * 60_000);
    await restarted.reconcile();
    await restarted.reconcile();
    expect(await claimOf(c.wallet)).toMatchObject({
      status: 'failed',
      error: 'never sent (server restarted)',
      payoutSignature: null,
    });
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);

    // The stopped payout goes on: its claim is no longer reserved, so nothing is paid, and the claim given back
    // a second time (the real release, run twice) credits nothing more.
    crash.heal();
    await expect(answer).rejects.toEqual(refused('payout_failed', SERVER_MESSAGES.payoutFailed));
    expect(faults.statements.filter((sql) => sql.includes(RELEASE_SQL))).toHaveLength(2);
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(0n);
    expect(await claimOf(c.wallet)).toMatchObject({
      status: 'failed',
      error: 'never sent (server restarted)',
    });
  });

  it('runs on one instance at a time: a pass while another holds the lock settles nothing', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    // As a crash three minutes ago leaves it: the pending reward moved into a claim never sent.
    await server.prisma.streamer.create({ data: { wallet, pendingRewardUnits: 0n } });
    const claim = await server.prisma.rewardClaim.create({
      data: { wallet, requestSignature: `crashed-${wallet}`, amountUnits: AMOUNT, status: 'reserved' },
    });
    await reservedAgo(claim.id, 3 * 60_000);
    const step = 'read the stale reservations';
    const held = faults.statement(step, STALE_SQL, 'hang');
    const first = claimService({ prisma: faults.prisma(server.databaseUrl) }).reconcile();
    await waitFor(() => faults.hitsOf(step) > 0);
    expect(await claimService().reconcile()).toMatchObject({ confirmed: 0, expired: 0, failed: 0 });
    expect(await pendingOf(wallet)).toBe(0n);
    expect((await claimOf(wallet)).status).toBe('reserved');
    held.heal();
    await first;
    expect(await pendingOf(wallet)).toBe(AMOUNT);
    expect(await claimOf(wallet)).toMatchObject({ status: 'failed', error: 'never sent (server restarted)' });
  });
});

describe('the reconciler, on a node whose epoch info has no block height', () => {
  it('reads the finalized height on its own and gives back a payout whose blockhash expired unlanded', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await server.prisma.streamer.create({ data: { wallet, pendingRewardUnits: 0n } });
    // A payout signed and recorded, never landed, its last valid block height long past.
    const payout = signPayouts(
      localTreasury(chain),
      [{ wallet, amountUnits: AMOUNT }],
      `STRM expired ${wallet}`,
      await chain.local.connection.getLatestBlockhash('confirmed'),
    );
    await server.prisma.rewardClaim.create({
      data: {
        wallet,
        requestSignature: `expired-${wallet}`,
        amountUnits: AMOUNT,
        status: 'sent',
        payoutSignature: payout.signature,
        payoutTransaction: payout.transaction,
        lastValidBlockHeight: 0n,
        sentAt: new Date(),
      },
    });
    // Past it once anything is finalized: agave's validator finalizes its first block ~13 s after it starts.
    await waitFor(async () => (await chain.local.connection.getBlockHeight('finalized')) > 0, 30_000);
    faults.rpc('read the finalized epoch (no block height in it)', 'getEpochInfo', async (real) => {
      const answer = (await real()) as { result: Record<string, unknown> };
      const { blockHeight: _left, ...result } = answer.result;
      return { ...answer, result };
    });
    await claimService({ connection: faults.connection(chain.local.connection) }).reconcile();
    expect(faults.methods).toContain('getBlockHeight');
    expect(await claimOf(wallet)).toMatchObject({
      status: 'expired',
      error: 'payout blockhash expired before it landed',
    });
    expect(await pendingOf(wallet)).toBe(AMOUNT);
    expect(await chain.local.connection.getSignatureStatus(payout.signature)).toMatchObject({ value: null });
  });
});

describe('payout faults', () => {
  it.each([
    ['the blockhash to sign it with', 'getLatestBlockhash'],
    ["the destinations' token accounts", 'getMultipleAccounts'],
  ])('gives the reward back when %s cannot be read (payout not built)', async (what, method) => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    const step = `read ${what}`;
    faults.rpc(step, method);
    const claims = claimService({ connection: faults.connection(chain.local.connection), logger });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('payout_failed', SERVER_MESSAGES.payoutFailed),
    );
    expect(faults.hitsOf(step)).toBe(1);
    const claim = await claimOf(c.wallet);
    expect(claim).toMatchObject({ status: 'failed', error: 'payout not built', payoutSignature: null });
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(0n);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'payout: could not build the transaction',
        claims: [claim.id],
        err: expect.objectContaining({ message: expect.stringContaining(`injected fault: ${step}`) }),
      }),
    );
  });

  it('leaves a claim whose payout could not be recorded as sent to the reconciler, which gives it back', async () => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    const step = 'record the payout on its claims';
    faults.statement(step, MARK_SENT_SQL);
    const claims = claimService({ prisma: faults.prisma(server.databaseUrl), logger });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('payout_unconfirmed', SERVER_MESSAGES.payoutUnconfirmed),
    );
    expect(faults.hitsOf(step)).toBe(1);
    const claim = await claimOf(c.wallet);
    expect(claim).toMatchObject({ status: 'reserved', payoutSignature: null });
    expect(await pendingOf(c.wallet)).toBe(0n);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'payout: could not record the transaction', claims: [claim.id] }),
    );
    // Nothing was sent; once the reservation is stale the reconciler gives it back.
    await reservedAgo(claim.id, 3 * 60_000);
    await claimService().reconcile();
    expect(await claimOf(c.wallet)).toMatchObject({
      status: 'failed',
      error: 'never sent (server restarted)',
    });
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(0n);
  });

  it('pays once a payout recorded as sent whose recording answered an error: the reconciler sends it', async () => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    const step = 'record the payout on its claims';
    // The statement commits; its answer is lost, so the payout is not sent.
    faults.statement(step, MARK_SENT_SQL, 'lose-answer');
    const claims = claimService({ prisma: faults.prisma(server.databaseUrl), logger });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('payout_unconfirmed', SERVER_MESSAGES.payoutUnconfirmed),
    );
    const claim = await claimOf(c.wallet);
    expect(claim.status).toBe('sent');
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(0n);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'payout: could not record the transaction', claims: [claim.id] }),
    );
    // Still able to land: the reconciler sends the stored transaction (same signature) until it is seen.
    await waitFor(async () => {
      await claimService().reconcile();
      return (await claimOf(c.wallet)).status === 'confirmed';
    });
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(AMOUNT);
    expect(await pendingOf(c.wallet)).toBe(0n);
    expect((await claimOf(c.wallet)).payoutSignature).toBe(claim.payoutSignature);
  });

  it('logs a claim it could not give back and leaves it to the reconciler, which credits it once', async () => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    faults.rpc('read the blockhash to sign the payout', 'getLatestBlockhash');
    const release = 'give the claim back to pending';
    faults.statement(release, RELEASE_SQL);
    const claims = claimService({
      prisma: faults.prisma(server.databaseUrl),
      connection: faults.connection(chain.local.connection),
      logger,
    });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('payout_failed', SERVER_MESSAGES.payoutFailed),
    );
    expect(faults.hitsOf(release)).toBe(1);
    const claim = await claimOf(c.wallet);
    expect(claim.status).toBe('reserved');
    expect(await pendingOf(c.wallet)).toBe(0n);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'payout: could not give a claim back',
        claimId: claim.id,
        err: expect.objectContaining({ message: expect.stringContaining(`injected fault: ${release}`) }),
      }),
    );
    await reservedAgo(claim.id, 3 * 60_000);
    await claimService().reconcile();
    await claimService().reconcile();
    expect(await claimOf(c.wallet)).toMatchObject({
      status: 'failed',
      error: 'never sent (server restarted)',
    });
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(0n);
  });

  it('answers a payout that landed with an error as failed, and the reconciler gives the reward back', async () => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    const { mint } = localTreasury(chain);
    // Between the destinations' read and the landing, the wallet creates its token account and gives it to
    // someone else; the RPC forwards the payout without simulating it, so it lands, and fails.
    const step = 'send the payout after the wallet gave its token account away';
    faults.rpc(step, 'sendTransaction', async (real, args) => {
      const account = getAssociatedTokenAddressSync(mint, c.keypair.publicKey);
      await sendAndConfirmTransaction(
        chain.local.connection,
        new Transaction().add(
          createAssociatedTokenAccountInstruction(c.keypair.publicKey, account, c.keypair.publicKey, mint),
          createSetAuthorityInstruction(
            account,
            c.keypair.publicKey,
            AuthorityType.AccountOwner,
            Keypair.generate().publicKey,
          ),
        ),
        [c.keypair],
        { commitment: 'confirmed' },
      );
      const [transaction, config] = args as [string, object];
      return real([transaction, { ...config, skipPreflight: true }]);
    });
    const claims = claimService({ connection: faults.connection(chain.local.connection), logger });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('payout_failed', SERVER_MESSAGES.payoutFailed),
    );
    expect(faults.hitsOf(step)).toBe(1);
    const claim = await claimOf(c.wallet);
    expect(claim.status).toBe('sent');
    expect(await pendingOf(c.wallet)).toBe(0n);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'payout: transaction failed on chain', claims: [claim.id] }),
    );
    const landed = await chain.local.connection.getSignatureStatus(claim.payoutSignature!, {
      searchTransactionHistory: true,
    });
    expect(landed.value?.err).not.toBeNull();
    await claimService().reconcile();
    await claimService().reconcile();
    expect(await claimOf(c.wallet)).toMatchObject({ status: 'failed', error: 'payout failed on chain' });
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(0n);
  });
});

describe('collect refusals', () => {
  it('answers collect_busy when every collect slot is taken and none may wait, keeping the pending reward', async () => {
    const [first, second] = [await collector(), await collector()];
    const step = "read the collect's checks";
    const held = faults.statement(step, COLLECT_STATE_SQL, 'hang');
    const claims = claimService({
      prisma: faults.prisma(server.databaseUrl),
      maxConcurrentCollects: 1,
      maxQueuedCollects: 0,
    });
    const paid = claims.collect(first.wallet, first.proof);
    await waitFor(() => faults.hitsOf(step) > 0);
    await expect(claims.collect(second.wallet, second.proof)).rejects.toEqual(
      refused('collect_busy', SERVER_MESSAGES.collectBusy),
    );
    expect(await pendingOf(second.wallet)).toBe(AMOUNT);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: second.wallet } })).toBe(0);
    // The slot frees: the first is paid, and the second, asked again, too.
    held.heal();
    expect((await paid).amount).toBe(0.25);
    expect((await claims.collect(second.wallet, second.proof)).amount).toBe(0.25);
    expect(await tokenUnits(chain, second.keypair.publicKey)).toBe(AMOUNT);
  });

  it.each([
    [
      'a wallet whose beta access was revoked',
      { hasAccess: async () => false },
      'beta_access_required',
      SERVER_MESSAGES.betaAccessRequired,
    ],
    [
      'while the chain does not answer',
      { chainAvailable: async () => false },
      'network_congestion',
      CLIENT_MESSAGES.networkCongestion,
    ],
  ])('refuses %s before anything is reserved', async (_what, deps, code, message) => {
    const c = await collector();
    await expect(claimService(deps).collect(c.wallet, c.proof)).rejects.toEqual(refused(code, message));
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: c.wallet } })).toBe(0);
  });

  it('answers nothing_to_collect to a wallet that never mined', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    await expect(claimService().collect(wallet, 'never-checked')).rejects.toEqual(
      refused('nothing_to_collect', SERVER_MESSAGES.nothingToCollect),
    );
    expect(await server.prisma.rewardClaim.count({ where: { wallet } })).toBe(0);
  });

  it.each([
    ['its own proof', 'collect_signature_used', SERVER_MESSAGES.collectSignatureUsed],
    ['another proof', 'nothing_to_collect', SERVER_MESSAGES.nothingToCollect],
  ])(
    'refuses a collect reserved after another instance paid the wallet, with %s',
    async (which, code, message) => {
      const c = await collector();
      const proof = which === 'its own proof' ? c.proof : await selfTransfer(chain, c.keypair, 1);
      // This instance's collect passed its checks; its reservation waits (a busy database) while another
      // instance collects with the first proof and is paid.
      const step = 'reserve the pending reward in a claim';
      const held = faults.statement(step, 'INSERT INTO reward_claims', 'hang');
      const late = claimService({ prisma: faults.prisma(server.databaseUrl) }).collect(c.wallet, proof);
      await waitFor(() => faults.hitsOf(step) > 0);
      expect((await claimService().collect(c.wallet, c.proof)).amount).toBe(0.25);
      // With its own proof, the wallet has mined again meanwhile: what stops it is the proof, used.
      const again = which === 'its own proof' ? AMOUNT : 0n;
      await server.prisma.streamer.update({
        where: { wallet: c.wallet },
        data: { pendingRewardUnits: again },
      });
      held.heal();
      await expect(late).rejects.toEqual(refused(code, message));
      expect(await pendingOf(c.wallet)).toBe(again);
      expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(AMOUNT);
      expect(await server.prisma.rewardClaim.count({ where: { wallet: c.wallet } })).toBe(1);
    },
  );

  it('answers treasury_empty without a treasury, keeping the pending reward', async () => {
    const c = await collector();
    const claims = claimService({ treasury: async () => null });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('treasury_empty', SERVER_MESSAGES.treasuryEmpty),
    );
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: c.wallet } })).toBe(0);
  });

  it('answers treasury_empty when the treasury cannot be loaded, and loads it again for the next collect', async () => {
    const c = await collector();
    let loads = 0;
    const claims = claimService({
      treasury: async () => {
        if (++loads === 1) throw new Error('treasury keypair unreadable');
        return localTreasury(chain);
      },
    });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('treasury_empty', SERVER_MESSAGES.treasuryEmpty),
    );
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: c.wallet } })).toBe(0);
    expect((await claims.collect(c.wallet, c.proof)).amount).toBe(0.25);
    expect(loads).toBe(2);
    expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(AMOUNT);
  });

  it("answers treasury_empty when the treasury's balance cannot be read, and logs it", async () => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    const step = "read the treasury's balance";
    faults.rpc(step, 'getTokenAccountBalance');
    const claims = claimService({ connection: faults.connection(chain.local.connection), logger });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('treasury_empty', SERVER_MESSAGES.treasuryEmpty),
    );
    expect(faults.hitsOf(step)).toBe(1);
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: c.wallet } })).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'collect: treasury balance unreadable',
        err: expect.objectContaining({ message: expect.stringContaining(`injected fault: ${step}`) }),
      }),
    );
  });
});

describe('the collect proof', () => {
  const memo = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
  /** A confirmed transaction of `instructions` signed by the wallet alone (its fee payer). */
  const sent = (keypair: Keypair, ...instructions: TransactionInstruction[]) =>
    sendAndConfirmTransaction(chain.local.connection, new Transaction().add(...instructions), [keypair], {
      commitment: 'confirmed',
    });
  const toItself = (keypair: Keypair, lamports = 0) =>
    SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: keypair.publicKey, lamports });

  it('takes a transfer to itself with a compute budget beside it', async () => {
    const c = await collector();
    const proof = await sent(
      c.keypair,
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }),
      toItself(c.keypair, 2),
    );
    expect((await claimService().collect(c.wallet, proof)).amount).toBe(0.25);
  });

  it.each([
    [
      'a transfer to someone else',
      (k: Keypair) => [
        SystemProgram.transfer({
          fromPubkey: k.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 1_000_000,
        }),
      ],
    ],
    [
      'a transfer beside another program',
      (k: Keypair) => [
        toItself(k, 3),
        new TransactionInstruction({ programId: memo, keys: [], data: Buffer.from('proof') }),
      ],
    ],
    [
      'a compute budget alone',
      (_k: Keypair) => [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 2 })],
    ],
    [
      'a system instruction that is no transfer',
      (k: Keypair) => [
        SystemProgram.assign({ accountPubkey: k.publicKey, programId: SystemProgram.programId }),
      ],
    ],
  ])('refuses %s as a proof, keeping the pending reward', async (_what, instructions) => {
    const c = await collector();
    const proof = await sent(c.keypair, ...instructions(c.keypair));
    await expect(claimService().collect(c.wallet, proof)).rejects.toEqual(
      refused('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid),
    );
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(await server.prisma.rewardClaim.count({ where: { wallet: c.wallet } })).toBe(0);
  });

  it('refuses a transfer to itself that failed on chain', async () => {
    const c = await collector();
    // More than the wallet holds, forwarded without simulation: it lands, and fails.
    const tx = new Transaction().add(toItself(c.keypair, 10 * LAMPORTS_PER_SOL));
    const proof = await chain.local.connection.sendTransaction(tx, [c.keypair], { skipPreflight: true });
    await waitFor(
      async () => (await chain.local.connection.getSignatureStatus(proof)).value?.confirmationStatus,
    );
    await expect(claimService().collect(c.wallet, proof)).rejects.toEqual(
      refused('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid),
    );
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
  });

  it('refuses a signature the node cannot look up as no proof', async () => {
    const c = await collector();
    await expect(claimService().collect(c.wallet, 'not-a-signature')).rejects.toEqual(
      refused('collect_signature_invalid', SERVER_MESSAGES.collectSignatureInvalid),
    );
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
  });

  it('answers a proof the node fails to read as a failed collect, and logs it', async () => {
    const c = await collector();
    const { lines, logger } = keptLogs();
    const step = 'read the proof';
    faults.rpc(step, 'getTransaction', async () => ({
      jsonrpc: '2.0',
      id: '1',
      error: { code: -32005, message: 'Node is behind' },
    }));
    const claims = claimService({ connection: faults.connection(chain.local.connection), logger });
    await expect(claims.collect(c.wallet, c.proof)).rejects.toEqual(
      refused('payout_failed', SERVER_MESSAGES.payoutFailed),
    );
    expect(await pendingOf(c.wallet)).toBe(AMOUNT);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'collect: request transaction unreadable',
        wallet: c.wallet,
        err: expect.objectContaining({ message: 'getTransaction failed: -32005 Node is behind' }),
      }),
    );
  });
});

describe('the production treasury', () => {
  it("pays from TREASURY_KEYPAIR_PATH's token account of the config's mint", async () => {
    // An operator's treasury keypair (not the local chain's), with its token account of the mint funded.
    const operator = Keypair.generate();
    const dir = await mkdtemp(join(tmpdir(), 'strm-treasury-'));
    const keypairPath = join(dir, 'treasury.json');
    writeFileSync(keypairPath, JSON.stringify(Array.from(operator.secretKey)), { mode: 0o600 });
    await fundWallet(chain.local.connection, chain.local.info, operator.publicKey, { sol: 2, strm: 1_000 });
    const { mint, tokenAccount: localTreasuryAccount } = localTreasury(chain);
    const operatorAccount = getAssociatedTokenAddressSync(mint, operator.publicKey);
    const balance = async (account: typeof operatorAccount) =>
      BigInt((await chain.local.connection.getTokenAccountBalance(account, 'confirmed')).value.amount);
    const [operatorBefore, localBefore] = [
      await balance(operatorAccount),
      await balance(localTreasuryAccount),
    ];
    expect(operatorBefore).toBe(1_000_000_000n);

    // As in production: no chain.json, the treasury named by the configuration.
    const production = await startEngineServer(chain, {
      withoutLocalChainInfo: true,
      env: {
        TREASURY_KEYPAIR_PATH: keypairPath,
        SOLANA_RPC_URL: chain.local.rpcUrl,
        DEMO_PLATFORM: 'off',
        CLAIMS_RECONCILE_MS: '3600000',
      },
    });
    try {
      const [keypair] = await fundedWallets(chain, 1);
      const wallet = keypair!.publicKey.toBase58();
      await production.prisma.streamer.create({ data: { wallet, pendingRewardUnits: AMOUNT } });
      const socket = await connect(production, wallet);
      const answer = await request(
        socket,
        'collect-rewards',
        { signature: await selfTransfer(chain, keypair!), wallet },
        ['rewards-collected', 'rewards-error'],
      );
      socket.close();
      expect(answer).toMatchObject({ event: 'rewards-collected', payload: { amount: 0.25 } });
      expect(await tokenUnits(chain, keypair!.publicKey)).toBe(AMOUNT);
      expect(await balance(operatorAccount)).toBe(operatorBefore - AMOUNT);
      expect(await balance(localTreasuryAccount)).toBe(localBefore);
      const payout = await chain.local.connection.getTransaction(answer.payload.signature as string, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      expect(payout!.transaction.message.staticAccountKeys[0]!.equals(operator.publicKey)).toBe(true);
      expect(
        (await production.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits,
      ).toBe(0n);
    } finally {
      await production.close();
      await production.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
