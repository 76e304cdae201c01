// Paying reserved claims on chain, several to a transaction when many are waiting (docs/engine.md#payouts).
// A rush of collects would otherwise be one transfer transaction each, and the chain's confirmations, not
// the server, would set the pace. Each batch:
//   1. checks its destinations in one read (an existing token account must be the wallet's and not frozen,
//      else that claim alone is refused and given back: one wallet cannot make the others' payout fail),
//   2. is signed under a recent blockhash, with a memo naming its claims (so no two batches are alike),
//   3. is recorded on all its claims as `sent` in one statement that changes all of them or none (a claim
//      released meanwhile, by the reconciler, is never paid),
//   4. is sent, and waited for; every claim is answered with the signature of the transaction that paid it.
// A batch that lands with an error (a wallet closed or reassigned its token account after step 1) is final
// once finalized: its claims go back to `reserved` and are paid again each alone, so the wallet that made it
// fail fails only itself, and is paid alone afterwards (docs/engine.md#payouts).
// A claim is paid at most once whatever happens between the steps: before step 3 nothing can land (the
// reservation is given back, or the reconciler gives it back after a crash); after it, only the reconciler
// releases a claim, once the batch's blockhash can no longer land (services/rewards/claims.ts).
import { ACCOUNT_SIZE, AccountLayout, AccountState, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type Connection, SendTransactionError } from '@solana/web3.js';
import type { Clock } from '../../clock.ts';
import type { PrismaClient } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import type { Confirmations, Landed } from './confirmations.ts';
import { sharedFor } from './shared-read.ts';
import { destinationOf, signPayouts, type Treasury } from './treasury.ts';

/**
 * Transfers in one transaction: each adds two accounts and two instructions (98 bytes with its memo id),
 * and 8 fit the 1,232-byte packet beside the shared accounts, the budget and the memo.
 */
export const PAYOUTS_PER_TRANSACTION = 8;
/** A blockhash is good for about a minute; one read serves the batches of the next second. */
const BLOCKHASH_REUSE_MS = 1_000;
export interface ReservedClaim {
  id: number;
  wallet: string;
  amountUnits: bigint;
}

/** How a claim's payout ended, as its collect answers it. */
export type PayoutOutcome =
  | { kind: 'paid'; signature: string }
  /** Nothing was sent and the claim was given back (`reason` for the log). */
  | { kind: 'not-sent'; reason: string }
  /** Sent; landed with an error or not seen in time: the reconciler settles it. */
  | { kind: 'sent'; landed: Exclude<Landed, 'confirmed'>; signature: string };

interface Queued {
  claim: ReservedClaim;
  done(outcome: PayoutOutcome): void;
  /** Paid in a transaction of its own (its batch failed on chain). */
  alone?: boolean;
}

/** How many wallets whose payout failed on chain are remembered, to be paid alone. */
const REMEMBERED_FAILING_WALLETS = 10_000;
/** How long a batch's failure is awaited at `finalized` before its claims are split (else: the reconciler). */
const FAILURE_FINALITY_MS = 60_000;

export interface PayoutBatchDeps {
  prisma: PrismaClient;
  connection: Connection;
  clock: Clock;
  logger: Logger;
  confirmations: Confirmations;
  confirmTimeoutMs: number;
  /** Gives a claim that was never sent back to pending (status failed). */
  release(id: number, error: string): Promise<void>;
  /** Runs a short database step ahead of the collects waiting for the pool (claims.ts's slots). */
  databaseStep<T>(step: () => Promise<T>): Promise<T>;
  /** Transactions in flight at once (sent and not yet confirmed). */
  maxInFlight?: number;
  perTransaction?: number;
  /** How often a failed batch's status is read while waiting for it to be finalized. */
  finalityPollMs?: number;
}

export class PayoutBatches {
  private readonly queue: Queued[] = [];
  private inFlight = 0;
  private pumpScheduled = false;
  /** A recent blockhash, one read for the batches signed in the same second. */
  private readonly latestBlockhash: () => Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  private readonly maxInFlight: number;
  private readonly perTransaction: number;
  /** Wallets whose own payout failed on chain: paid alone from then on (oldest forgotten first). */
  private readonly failingWallets = new Set<string>();

  constructor(private readonly deps: PayoutBatchDeps) {
    this.maxInFlight = deps.maxInFlight ?? 32;
    this.latestBlockhash = sharedFor(BLOCKHASH_REUSE_MS, () =>
      deps.connection.getLatestBlockhash('confirmed'),
    );
    this.perTransaction = Math.max(
      1,
      Math.min(PAYOUTS_PER_TRANSACTION, deps.perTransaction ?? PAYOUTS_PER_TRANSACTION),
    );
  }

  /** Pays a reserved claim with the next transaction out; never rejects. */
  pay(treasury: Treasury, claim: ReservedClaim): Promise<PayoutOutcome> {
    return new Promise<PayoutOutcome>((done) => {
      this.queue.push({ claim, done });
      // After the current task: the claims reserved in it go out together.
      if (this.pumpScheduled) return;
      this.pumpScheduled = true;
      queueMicrotask(() => {
        this.pumpScheduled = false;
        this.pump(treasury);
      });
    });
  }

  /** Starts transactions while there is room: the claims waiting when one starts go in it together. */
  private pump(treasury: Treasury): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const batch = this.take();
      this.inFlight++;
      this.send(treasury, batch)
        .catch((err: unknown) => {
          // send() answers every claim itself; this is a bug's last resort, logged with the claims.
          this.deps.logger.error(
            { err, claims: batch.map((q) => q.claim.id) },
            'payout batch failed unexpectedly',
          );
          for (const q of batch) q.done({ kind: 'not-sent', reason: 'unexpected error' });
        })
        .finally(() => {
          this.inFlight--;
          this.pump(treasury);
        });
    }
  }

  /** Gives claims that were never sent (or can never land) back to pending, and answers their collects. */
  private async giveBack(items: Queued[], reason: string): Promise<void> {
    for (const q of items) {
      await this.deps.release(q.claim.id, reason).catch((err: unknown) =>
        // Left `reserved`: the reconciler gives it back once it is stale.
        this.deps.logger.error({ err, claimId: q.claim.id }, 'payout: could not give a claim back'),
      );
      q.done({ kind: 'not-sent', reason });
    }
  }

  /** The next transaction's claims: the queue's head, with those after it that may share a transaction. */
  private take(): Queued[] {
    const first = this.queue.shift()!;
    if (this.goesAlone(first)) return [first];
    const batch = [first];
    for (let i = 0; i < this.queue.length && batch.length < this.perTransaction; ) {
      if (this.goesAlone(this.queue[i]!)) i++;
      else batch.push(...this.queue.splice(i, 1));
    }
    return batch;
  }

  private goesAlone(q: Queued): boolean {
    return q.alone === true || this.failingWallets.has(q.claim.wallet);
  }

  private rememberFailing(wallet: string): void {
    this.failingWallets.delete(wallet);
    this.failingWallets.add(wallet);
    if (this.failingWallets.size > REMEMBERED_FAILING_WALLETS) {
      this.failingWallets.delete(this.failingWallets.values().next().value!);
    }
  }

  private async send(treasury: Treasury, batch: Queued[]): Promise<void> {
    const { logger } = this.deps;
    const notSent = (items: Queued[], reason: string) => this.giveBack(items, reason);

    let payable: Queued[];
    let signed: { signature: string; transaction: string; lastValidBlockHeight: bigint };
    try {
      const refused = await this.unpayable(treasury, batch);
      if (refused.size) {
        // One paid alone after its batch failed, refused now: the wallet that made the batch fail.
        for (const q of refused) if (q.alone) this.rememberFailing(q.claim.wallet);
        logger.warn(
          { claims: [...refused].map((q) => q.claim.id) },
          'payout: destination token account unusable',
        );
        await notSent([...refused], 'destination token account unusable');
      }
      payable = batch.filter((q) => !refused.has(q));
      if (!payable.length) return;
      signed = await this.sign(
        treasury,
        payable.map((q) => q.claim),
      );
    } catch (err) {
      logger.warn({ err, claims: batch.map((q) => q.claim.id) }, 'payout: could not build the transaction');
      await notSent(batch, 'payout not built');
      return;
    }

    // All of the batch's claims become `sent` with this transaction, or none does.
    const ids = payable.map((q) => q.claim.id);
    const marked = await this.deps
      .databaseStep(() => this.markSent(ids, signed))
      .catch((err: unknown) => {
        logger.warn({ err, claims: ids }, 'payout: could not record the transaction');
        return null;
      });
    if (marked === null) {
      // Unknown whether the statement committed: the claims stay as they are for the reconciler (either
      // `reserved`, given back once stale, or `sent` with a transaction that it then sends and settles).
      for (const q of payable) q.done({ kind: 'sent', landed: 'unknown', signature: signed.signature });
      return;
    }
    if (!marked) {
      // A claim was released meanwhile (the reconciler took it for stale): pay the others in a new one.
      const still = await this.stillReserved(ids);
      await notSent(
        payable.filter((q) => !still.has(q.claim.id)),
        'claim released before its payout was sent',
      );
      const retry = payable.filter((q) => still.has(q.claim.id));
      if (retry.length) this.queue.unshift(...retry);
      return;
    }

    try {
      await this.deps.connection.sendRawTransaction(Buffer.from(signed.transaction, 'base64'), {
        preflightCommitment: 'confirmed',
      });
    } catch (err) {
      if (refusedByProgram(err)) {
        // Its simulation failed in an instruction (a destination changed after the check): not forwarded, and
        // once taken back it is never sent again, so its claims can be paid without it.
        logger.warn({ err: (err as Error).message, claims: ids }, 'payout: refused at preflight');
        if (await this.takeBack(payable, signed.signature)) return;
      }
      // An error answer does not prove the payout was not forwarded: it may still land. The wait below pays
      // the users if it does; the reconciler re-credits it once its blockhash has expired without it.
      logger.warn(
        { err: err instanceof Error ? err.message : err, claims: ids },
        'payout: send answered an error; waiting for it, else left to reconciliation',
      );
    }
    const landed = await this.deps.confirmations.wait(signed.signature, this.deps.confirmTimeoutMs);
    if (landed === 'confirmed') {
      await this.deps
        .databaseStep(() =>
          this.deps.prisma.rewardClaim.updateMany({
            where: { id: { in: ids }, status: 'sent' },
            data: { status: 'confirmed', settledAt: this.deps.clock.now() },
          }),
        )
        // Paid all the same: the reconciler records it as confirmed on its next pass.
        .catch((err: unknown) => logger.warn({ err, claims: ids }, 'payout: confirmed, not yet recorded'));
      for (const q of payable) q.done({ kind: 'paid', signature: signed.signature });
      return;
    }
    if (landed === 'failed') {
      logger.warn({ claims: ids }, 'payout: transaction failed on chain');
      if (payable.length === 1) this.rememberFailing(payable[0]!.claim.wallet);
      else if (
        (await this.failureFinalized(signed.signature)) &&
        (await this.takeBack(payable, signed.signature))
      )
        return;
    }
    for (const q of payable) q.done({ kind: 'sent', landed, signature: signed.signature });
  }

  /**
   * A payout that can never land (refused at preflight, or failed and finalized) pays nobody: its claims go
   * back to `reserved`, and a batch's into the queue each to be paid alone, so one wallet that made it fail
   * fails only itself; a claim that was alone is given back to pending, and its wallet is paid alone from then
   * on. False when the claims could not be taken back: the reconciler then settles them.
   */
  private async takeBack(payable: Queued[], signature: string): Promise<boolean> {
    const { logger } = this.deps;
    const ids = payable.map((q) => q.claim.id);
    const back = await this.deps
      .databaseStep(() => this.backToReserved(ids, signature))
      .catch((err: unknown) => {
        logger.warn(
          { err, claims: ids },
          'payout: could not take a failed batch back to pay it claim by claim',
        );
        return null;
      });
    if (!back) return false;
    const [only] = payable;
    if (payable.length === 1 && only) {
      this.rememberFailing(only.claim.wallet);
      if (!back.has(only.claim.id)) only.done({ kind: 'sent', landed: 'failed', signature });
      else await this.giveBack([only], 'payout refused by the chain');
      return true;
    }
    logger.warn({ claims: [...back] }, 'payout: paying a failed batch again, claim by claim');
    for (const q of payable) {
      // One the reconciler released meanwhile was given back to pending already.
      if (back.has(q.claim.id)) this.queue.push({ ...q, alone: true });
      else q.done({ kind: 'sent', landed: 'failed', signature });
    }
    return true;
  }

  /** Whether `signature`'s error is finalized within FAILURE_FINALITY_MS (its status read meanwhile). */
  private async failureFinalized(signature: string): Promise<boolean> {
    const deadline = Date.now() + FAILURE_FINALITY_MS;
    for (;;) {
      const status = await this.deps.connection
        .getSignatureStatus(signature, { searchTransactionHistory: true })
        .then((r) => r.value)
        .catch(() => null);
      if (status?.confirmationStatus === 'finalized') return status.err != null;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.deps.finalityPollMs ?? 400));
    }
  }

  /** Takes the claims still `sent` with this failed transaction back to `reserved`; the ids taken back. */
  private async backToReserved(ids: number[], signature: string): Promise<Set<number>> {
    const rows = await this.deps.prisma.$queryRaw<{ id: number }[]>`
      UPDATE reward_claims SET status = 'reserved', payout_signature = NULL, payout_transaction = NULL,
             last_valid_block_height = NULL, sent_at = NULL
       WHERE id = ANY(${ids}::int[]) AND status = 'sent' AND payout_signature = ${signature}
      RETURNING id`;
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The claims whose destination exists but is not the wallet's usable token account of the mint (its owner
   * reassigned, frozen, or not a token account): the transaction would fail for every claim in it.
   */
  private async unpayable(treasury: Treasury, batch: Queued[]): Promise<Set<Queued>> {
    const destinations = batch.map((q) => destinationOf(treasury, q.claim.wallet));
    const accounts = await this.deps.connection.getMultipleAccountsInfo(
      destinations.map((d) => d.address),
      'confirmed',
    );
    const refused = new Set<Queued>();
    for (const [i, account] of accounts.entries()) {
      if (!account) continue;
      const q = batch[i]!;
      if (!account.owner.equals(TOKEN_PROGRAM_ID) || account.data.length < ACCOUNT_SIZE) {
        refused.add(q);
        continue;
      }
      const state = AccountLayout.decode(account.data.subarray(0, ACCOUNT_SIZE));
      if (
        !state.mint.equals(treasury.mint) ||
        !state.owner.equals(destinations[i]!.owner) ||
        state.state !== AccountState.Initialized
      )
        refused.add(q);
    }
    return refused;
  }

  private async sign(treasury: Treasury, claims: ReservedClaim[]) {
    return signPayouts(
      treasury,
      claims,
      `STRM claims ${claims.map((c) => c.id).join(',')}`,
      await this.latestBlockhash(),
    );
  }

  /** True when every claim was `reserved` and is now `sent`; false (nothing changed) otherwise. */
  private async markSent(
    ids: number[],
    signed: { signature: string; transaction: string; lastValidBlockHeight: bigint },
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const rows = await this.deps.prisma.$queryRaw<{ id: number }[]>`
      WITH still AS (
        SELECT id FROM reward_claims WHERE id = ANY(${ids}::int[]) AND status = 'reserved' FOR UPDATE),
      every AS (SELECT count(*) = ${ids.length} AS ok FROM still)
      UPDATE reward_claims SET status = 'sent', payout_signature = ${signed.signature},
             payout_transaction = ${signed.transaction},
             last_valid_block_height = ${signed.lastValidBlockHeight}, sent_at = ${now}
       WHERE id IN (SELECT id FROM still) AND (SELECT ok FROM every)
      RETURNING id`;
    return rows.length === ids.length;
  }

  private async stillReserved(ids: number[]): Promise<Set<number>> {
    const rows = await this.deps.prisma.rewardClaim.findMany({
      where: { id: { in: ids }, status: 'reserved' },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }
}

/** A send refused because the transaction's simulation failed in an instruction (never forwarded). */
function refusedByProgram(err: unknown): boolean {
  return err instanceof SendTransactionError && /simulation failed: .*instruction/i.test(err.message);
}
