// A hostile wallet against the payout batches, and a lagging RPC against the reconciler
// (docs/engine.md#payouts, docs/security.md#payouts): one wallet that changes its token account between the
// destination check and the payout fails only itself, and a status answer from a node behind the finalized
// height never gives back a claim whose payout landed. Real local chain, real PostgreSQL; faults matched on
// the JSON-RPC method they hit (test/support/faults.ts).
import {
  AuthorityType,
  createAssociatedTokenAccountInstruction,
  createSetAuthorityInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, PublicKey, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import { SERVER_MESSAGES } from '@strm/shared';
import { describe, expect, it } from 'vitest';
import type { ClaimDeps, ClaimService } from '../src/services/rewards/claims.ts';
import {
  type EngineServer,
  selfTransfer,
  type TestChain,
  tokenUnits,
  waitFor,
} from './support/engine-harness.ts';
import { claimServiceOn, faultsForEachTest, payoutSuite } from './support/payout-suite.ts';
import { fundedWallets, keptLogs, pendingStreamers } from './support/payouts.ts';
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
const claims = (extra: Partial<ClaimDeps> = {}) => claimServiceOn({ chain, server }, extra);
const claimOf = (wallet: string) => server.prisma.rewardClaim.findFirstOrThrow({ where: { wallet } });
const pendingOf = async (wallet: string) =>
  (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet } })).pendingRewardUnits;

async function collectors(n: number) {
  const keypairs = await fundedWallets(chain, n);
  await pendingStreamers(server, keypairs, AMOUNT);
  return Promise.all(
    keypairs.map(async (keypair) => ({
      keypair,
      wallet: keypair.publicKey.toBase58(),
      proof: await selfTransfer(chain, keypair),
    })),
  );
}

type Collector = Awaited<ReturnType<typeof collectors>>[number];

/**
 * `all` collecting at once, paid in one transaction: with one payout in flight, the decoy's holds it (its
 * blockhash read waits) until every one of them has reserved its claim.
 */
async function collectTogether(service: ClaimService, decoy: Collector, all: Collector[]) {
  const held = faults.rpc('read the blockhash to sign the first payout', 'getLatestBlockhash', 'hang');
  const first = service.collect(decoy.wallet, decoy.proof);
  await waitFor(() => faults.hitsOf(held.step) > 0);
  const collecting = Promise.allSettled(all.map((c) => service.collect(c.wallet, c.proof)));
  await waitFor(
    async () =>
      (await server.prisma.rewardClaim.count({
        where: { wallet: { in: all.map((c) => c.wallet) }, status: 'reserved' },
      })) === all.length,
  );
  held.heal();
  await first;
  return collecting;
}

describe('a hostile wallet in a payout batch', () => {
  it('reassigning its token account after the check fails only itself: the honest seven are paid, and it is paid alone afterwards', async () => {
    const [decoy, ...all] = await collectors(9);
    const hostile = all[3]!;
    const mint = new PublicKey(chain.local.info.mint);
    const account = getAssociatedTokenAddressSync(mint, hostile.keypair.publicKey);
    await sendAndConfirmTransaction(
      chain.local.connection,
      new Transaction().add(
        createAssociatedTokenAccountInstruction(
          hostile.keypair.publicKey,
          account,
          hostile.keypair.publicKey,
          mint,
        ),
      ),
      [hostile.keypair],
      { commitment: 'confirmed' },
    );
    // Right after the batch's destinations are checked (all eight in one read), the hostile wallet hands its
    // token account to another owner: the batch's CreateIdempotent for it now fails the whole transaction.
    const checked: number[] = [];
    let reassigned = false;
    let withHostile = 0;
    faults.rpc('check the destinations', 'getMultipleAccounts', async (real, args) => {
      const answer = await real(args);
      checked.push((args[0] as string[]).length);
      if (!reassigned && (args[0] as string[]).includes(account.toBase58())) {
        reassigned = true;
        withHostile = (args[0] as string[]).length;
        await sendAndConfirmTransaction(
          chain.local.connection,
          new Transaction().add(
            createSetAuthorityInstruction(
              account,
              hostile.keypair.publicKey,
              AuthorityType.AccountOwner,
              Keypair.generate().publicKey,
            ),
          ),
          [hostile.keypair],
          { commitment: 'confirmed' },
        );
      }
      return answer;
    });
    const { lines, logger } = keptLogs();
    const service = claims({
      connection: faults.connection(chain.local.connection),
      logger,
      payoutsInFlight: 1,
    });
    const answers = await collectTogether(service, decoy!, all);

    expect(reassigned).toBe(true);
    // The check that the hostile wallet's account passed was the batch of all eight.
    expect(withHostile).toBe(8);
    for (const [i, c] of all.entries()) {
      if (c === hostile) continue;
      expect([i, answers[i]!.status]).toEqual([i, 'fulfilled']);
      expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(AMOUNT);
      expect((await claimOf(c.wallet)).status).toBe('confirmed');
      expect(await pendingOf(c.wallet)).toBe(0n);
    }
    expect(answers[3]).toEqual({
      status: 'rejected',
      reason: expect.objectContaining({ code: 'payout_failed', message: SERVER_MESSAGES.payoutFailed }),
    });
    // Paid alone after the batch failed, its changed account is refused at the check, and it is given back.
    expect(await claimOf(hostile.wallet)).toMatchObject({
      status: 'failed',
      error: 'destination token account unusable',
    });
    expect(await pendingOf(hostile.wallet)).toBe(AMOUNT);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'payout: paying a failed batch again, claim by claim' }),
    );

    // Its next collect goes in a transaction of its own, whoever collects beside it.
    const next = await collectors(3);
    const again = await selfTransfer(chain, hostile.keypair);
    checked.length = 0;
    const second = await Promise.allSettled([
      service.collect(hostile.wallet, again),
      ...next.map((c) => service.collect(c.wallet, c.proof)),
    ]);
    expect(second.slice(1).map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(second[0]!.status).toBe('rejected');
    expect(checked).toContain(1);
    expect(checked.reduce((a, b) => a + b, 0)).toBe(4);
    for (const c of next) expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(AMOUNT);
    expect(await pendingOf(hostile.wallet)).toBe(AMOUNT);
  }, 120_000);
});

describe('a batch that lands with an error', () => {
  it('is paid again claim by claim once its failure is finalized: the honest claims paid, the hostile one given back', async () => {
    const [decoy, ...all] = await collectors(5);
    const hostile = all[1]!;
    const mint = new PublicKey(chain.local.info.mint);
    const account = getAssociatedTokenAddressSync(mint, hostile.keypair.publicKey);
    // Between the destinations' read and the landing, the hostile wallet makes its token account and gives it
    // away; the RPC forwards the payout without simulating it, so the batch lands, and fails.
    let checked = false;
    let given = false;
    faults.rpc('check the destinations', 'getMultipleAccounts', async (real, args) => {
      if ((args[0] as string[]).includes(account.toBase58())) checked = true;
      return real(args);
    });
    faults.rpc('send the payout without preflight', 'sendTransaction', async (real, args) => {
      // The batch's send (the one after its check), not the decoy's.
      if (checked && !given) {
        given = true;
        await sendAndConfirmTransaction(
          chain.local.connection,
          new Transaction().add(
            createAssociatedTokenAccountInstruction(
              hostile.keypair.publicKey,
              account,
              hostile.keypair.publicKey,
              mint,
            ),
            createSetAuthorityInstruction(
              account,
              hostile.keypair.publicKey,
              AuthorityType.AccountOwner,
              Keypair.generate().publicKey,
            ),
          ),
          [hostile.keypair],
          { commitment: 'confirmed' },
        );
      }
      const [transaction, config] = args as [string, object];
      return real([transaction, { ...config, skipPreflight: true }]);
    });
    const { lines, logger } = keptLogs();
    const service = claims({
      connection: faults.connection(chain.local.connection),
      logger,
      payoutsInFlight: 1,
    });
    const answers = await collectTogether(service, decoy!, all);

    expect(lines).toContainEqual(expect.objectContaining({ msg: 'payout: transaction failed on chain' }));
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'payout: paying a failed batch again, claim by claim' }),
    );
    for (const [i, c] of all.entries()) {
      if (c === hostile) continue;
      expect([i, answers[i]!.status]).toEqual([i, 'fulfilled']);
      expect(await tokenUnits(chain, c.keypair.publicKey)).toBe(AMOUNT);
      expect((await claimOf(c.wallet)).status).toBe('confirmed');
    }
    expect(answers[1]!.status).toBe('rejected');
    expect(await claimOf(hostile.wallet)).toMatchObject({
      status: 'failed',
      error: 'destination token account unusable',
    });
    expect(await pendingOf(hostile.wallet)).toBe(AMOUNT);
  }, 120_000);
});

describe('the reconciler behind a lagging RPC', () => {
  it('gives back nothing on statuses read from a node behind the finalized height, and confirms once one is current', async () => {
    const [c] = await collectors(1);
    const paid = await claims().collect(c!.wallet, c!.proof);
    expect(paid.signature).toEqual(expect.any(String));
    const landed = await claimOf(c!.wallet);
    // As if the payout were still waiting, with a blockhash long past: only a current status may settle it.
    await server.prisma.rewardClaim.update({
      where: { id: landed.id },
      data: { status: 'sent', settledAt: null, lastValidBlockHeight: 0n },
    });
    // A node behind the one that answered the finalized height: it has not seen the payout.
    const lagging = faults.rpc('read the payouts’ statuses', 'getSignatureStatuses', async (real, args) => {
      const answer = (await real(args)) as { result: { context: { slot: number }; value: unknown[] } };
      return {
        ...answer,
        result: {
          context: { slot: answer.result.context.slot - 100 },
          value: answer.result.value.map(() => null),
        },
      };
    });
    const behind = await claims({ connection: faults.connection(chain.local.connection) }).reconcile();
    expect(faults.hitsOf(lagging.step)).toBe(1);
    expect(behind).toMatchObject({ expired: 0, behind: 1 });
    expect((await claimOf(c!.wallet)).status).toBe('sent');
    expect(await pendingOf(c!.wallet)).toBe(0n);

    lagging.heal();
    const current = await claims({ connection: faults.connection(chain.local.connection) }).reconcile();
    expect(current).toMatchObject({ confirmed: 1, expired: 0 });
    expect((await claimOf(c!.wallet)).status).toBe('confirmed');
    expect(await pendingOf(c!.wallet)).toBe(0n);
    expect(await tokenUnits(chain, c!.keypair.publicKey)).toBe(AMOUNT);
  });
});
