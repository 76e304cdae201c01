// Several claims paid by one transaction (docs/engine.md#payouts): every claim is answered with the
// signature that paid it, a wallet whose token account cannot be paid is refused alone, and a claim given back
// while its batch was being built is never paid. Real local chain, real PostgreSQL; balances read on chain.
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { SERVER_MESSAGES } from '@strm/shared';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { Confirmations } from '../src/services/rewards/confirmations.ts';
import { type PayoutOutcome, PayoutBatches } from '../src/services/rewards/payout-batches.ts';
import { type EngineServer, selfTransfer, type TestChain, tokenUnits } from './support/engine-harness.ts';
import { claimServiceOn, payoutSuite } from './support/payout-suite.ts';
import { fundedWallets, localTreasury, pendingStreamers } from './support/payouts.ts';

let chain: TestChain;
let server: EngineServer;
payoutSuite((started) => {
  ({ chain, server } = started);
});

const AMOUNT = 250_000n;
const treasury = () => localTreasury(chain);
const claimService = (payoutsInFlight?: number) => claimServiceOn({ chain, server }, { payoutsInFlight });
const pendingOf = async (wallet: string) =>
  (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

describe('payouts in batches', () => {
  it('pays claims waiting together in one transaction, answering each with its signature', async () => {
    const wallets = await fundedWallets(chain, 24);
    const amounts = wallets.map((_w, i) => AMOUNT + BigInt(i));
    await server.prisma.streamer.createMany({
      data: wallets.map((w, i) => ({ wallet: w.publicKey.toBase58(), pendingRewardUnits: amounts[i]! })),
    });
    const proofs = await Promise.all(wallets.map((w) => selfTransfer(chain, w)));
    // Two transactions in flight at most: the claims reserved meanwhile wait, and go out together.
    const claims = claimService(2);
    const answers = await Promise.all(
      wallets.map((w, i) => claims.collect(w.publicKey.toBase58(), proofs[i]!)),
    );
    const signatures = new Set<string>();
    for (const [i, w] of wallets.entries()) {
      const owner = w.publicKey.toBase58();
      expect(answers[i]!.amount).toBe(Number(amounts[i]) / 1e6);
      expect(await tokenUnits(chain, w.publicKey)).toBe(amounts[i]);
      expect(await pendingOf(owner)).toBe(0n);
      const claim = await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: owner } });
      expect(claim).toMatchObject({ status: 'confirmed', payoutSignature: answers[i]!.signature });
      signatures.add(answers[i]!.signature);
      // The transaction the answer names paid this wallet this amount.
      const tx = await chain.local.connection.getParsedTransaction(answers[i]!.signature, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      const destination = getAssociatedTokenAddressSync(treasury().mint, w.publicKey).toBase58();
      const before = tx!.meta!.preTokenBalances!.find((b) => b.owner === owner)?.uiTokenAmount.amount ?? '0';
      const after = tx!.meta!.postTokenBalances!.find(
        (b) =>
          b.owner === owner &&
          tx!.transaction.message.accountKeys[b.accountIndex]!.pubkey.toBase58() === destination,
      )!.uiTokenAmount.amount;
      expect(BigInt(after) - BigInt(before)).toBe(amounts[i]);
    }
    // 24 claims at once: fewer transactions than claims, none with more than eight.
    expect(signatures.size).toBeLessThan(wallets.length / 2);
    expect(signatures.size).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('refuses alone a wallet whose token account was given to another owner, paying the others', async () => {
    const [bad, ...good] = await fundedWallets(chain, 4);
    const { mint } = treasury();
    // The wallet creates its token account and hands it to someone else: a payout to it would fail, and with
    // it every other payout in the same transaction.
    const account = getAssociatedTokenAddressSync(mint, bad!.publicKey);
    await sendAndConfirmTransaction(
      chain.local.connection,
      new Transaction().add(
        createAssociatedTokenAccountInstruction(bad!.publicKey, account, bad!.publicKey, mint),
        createSetAuthorityInstruction(
          account,
          bad!.publicKey,
          AuthorityType.AccountOwner,
          Keypair.generate().publicKey,
        ),
      ),
      [bad!],
      { commitment: 'confirmed' },
    );
    await pendingStreamers(server, [bad!, ...good], AMOUNT);
    const proofs = await Promise.all([bad!, ...good].map((w) => selfTransfer(chain, w)));
    const claims = claimService();
    const answers = await Promise.allSettled(
      [bad!, ...good].map((w, i) => claims.collect(w.publicKey.toBase58(), proofs[i]!)),
    );
    expect(answers[0]).toMatchObject({
      status: 'rejected',
      reason: { message: SERVER_MESSAGES.payoutFailed },
    });
    expect(await pendingOf(bad!.publicKey.toBase58())).toBe(AMOUNT);
    expect(
      await server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: bad!.publicKey.toBase58() } }),
    ).toMatchObject({ status: 'failed', payoutSignature: null });
    for (const [i, w] of good.entries()) {
      expect(answers[i + 1]!.status).toBe('fulfilled');
      expect(await tokenUnits(chain, w.publicKey)).toBe(AMOUNT);
      expect(await pendingOf(w.publicKey.toBase58())).toBe(0n);
    }
  }, 120_000);

  it('never pays a claim given back while its batch was built, and pays the rest of the batch', async () => {
    const wallets = await fundedWallets(chain, 3);
    await pendingStreamers(server, wallets, 0n);
    const claims = await Promise.all(
      wallets.map((w, i) =>
        server.prisma.rewardClaim.create({
          data: {
            wallet: w.publicKey.toBase58(),
            requestSignature: `batch-release-${i}-${w.publicKey.toBase58()}`,
            amountUnits: AMOUNT,
            status: 'reserved',
          },
        }),
      ),
    );
    const [released] = claims;
    let steps = 0;
    const batches = new PayoutBatches({
      prisma: server.prisma,
      connection: chain.local.connection,
      clock: server.clock,
      logger: createLogger('silent'),
      confirmations: new Confirmations(chain.local.connection),
      confirmTimeoutMs: 30_000,
      release: async (id, error) => {
        await server.prisma.rewardClaim.update({ where: { id }, data: { status: 'failed', error } });
      },
      databaseStep: async (step) => {
        // The reconciler takes the first claim for stale just before the batch records its transaction.
        if (steps++ === 0) {
          await server.prisma.rewardClaim.update({
            where: { id: released!.id },
            data: { status: 'failed', error: 'never sent (server restarted)' },
          });
        }
        return step();
      },
      // One transaction for the three.
      maxInFlight: 1,
    });
    const outcomes: PayoutOutcome[] = await Promise.all(
      claims.map((c) => batches.pay(treasury(), { id: c.id, wallet: c.wallet, amountUnits: c.amountUnits })),
    );
    expect(outcomes[0]).toEqual({ kind: 'not-sent', reason: 'claim released before its payout was sent' });
    expect(outcomes[1]).toMatchObject({ kind: 'paid' });
    expect(outcomes[2]).toEqual(outcomes[1]);
    expect(await tokenUnits(chain, wallets[0]!.publicKey)).toBe(0n);
    for (const w of wallets.slice(1)) expect(await tokenUnits(chain, w.publicKey)).toBe(AMOUNT);
    // In the order the claims were made (created at once, their ids are in no particular order).
    const after = await Promise.all(
      claims.map((c) => server.prisma.rewardClaim.findUniqueOrThrow({ where: { id: c.id } })),
    );
    expect(after.map((c) => c.status)).toEqual(['failed', 'confirmed', 'confirmed']);
    expect(after[0]!.payoutSignature).toBeNull();
  }, 120_000);
});
