// Collecting rewards exactly once. A claim moves through states recorded before each step:
//   reserved  pending moved into the claim, in one transaction with the claim's insert (signature unique)
//   sent      the signed payout and its last valid block height stored, then sent. Only the reconciler
//             releases a `sent` claim (never a send error: an RPC may answer an error for a payout it forwarded),
//             once the finalized block height is past the payout's last valid one and its status is still none
//   confirmed the payout landed                     (final)
//   expired   its blockhash can no longer land and it did not: re-credited (final)
//   failed    never sent, or landed with an error: re-credited (final)
// Collects run at most `maxConcurrentCollects` at a time (sized to the database pool), the others queue.
// On start-up, claims left in `reserved` (never sent) are re-credited and those in `sent` reconciled.
import type { Connection } from '@solana/web3.js';
import { CLIENT_MESSAGES } from '@strm/mining-client';
import { fromBaseUnits, SERVER_MESSAGES } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import { DATABASE_POOL_SIZE, type PrismaClient } from '../../db/index.ts';
import { DomainError } from '../../errors.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Logger } from '../../logger.ts';
import { getMaintenance } from '../maintenance.ts';
import { Confirmations, isSettled, SIGNATURE_STATUS_PAGE, signatureStatuses } from './confirmations.ts';
import { verifySelfTransfer } from './request-signature.ts';
import { signPayout, type Treasury, treasuryBalance } from './treasury.ts';

/** pg advisory lock key of claim reconciliation ('STRMCLAI'). */
const RECONCILE_LOCK_KEY = 0x5354524d434c4149n;
/** A reservation older than this was never sent (a collect turns it into `sent` within seconds). */
const RESERVED_STALE_MS = 120_000;

export interface ClaimDeps {
  prisma: PrismaClient;
  connection: Connection;
  clock: Clock;
  logger: Logger;
  /** Resolved once (null when no treasury is configured: collecting is refused). */
  treasury: () => Promise<Treasury | null>;
  /** Whether the wallet mines now, on any instance. */
  isLive(wallet: string): Promise<boolean>;
  /** How long to wait for a sent payout to confirm before leaving it to the reconciler. */
  confirmTimeoutMs?: number;
  /** Whether the wallet may use the product now (services/access.ts): checked before anything is paid. */
  hasAccess?(wallet: string): Promise<boolean>;
  /** Whether the chain answers (the RPC client's `available()`, chain/rpc.ts): when it does not, a collect is refused at once. */
  chainAvailable?: () => Promise<boolean>;
  /**
   * Collects in their database phase at once (checks, the proof, the reservation); the others wait their
   * turn. Sized to the database pool so a burst queues here instead of timing out on the pool.
   */
  maxConcurrentCollects?: number;
  /** Collects allowed to wait for a turn; beyond it a collect is answered at once (collectBusy). */
  maxQueuedCollects?: number;
}

/** Half the database pool: collects leave the other half to the engine, the reconciler and the routes. */
export const DEFAULT_COLLECT_CONCURRENCY = Math.max(1, Math.floor(DATABASE_POOL_SIZE / 2));
const DEFAULT_COLLECT_QUEUE = 10_000;

/** At most `size` tasks at once; the others wait in order. */
class Slots {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly maxQueued: number,
  ) {}

  async run<T>(task: () => Promise<T>, onFull: () => Error): Promise<T> {
    if (this.active >= this.size) {
      if (this.queue.length >= this.maxQueued) throw onFull();
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      // The slot passes to the next in line (active unchanged) or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export interface Collected {
  amount: number;
  signature: string;
}

class NothingToCollect extends Error {}
class UnderMaintenance extends Error {}

export class ClaimService {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private treasury: Promise<Treasury | null> | undefined;
  private readonly slots: Slots;
  private readonly confirmations: Confirmations;

  constructor(private readonly deps: ClaimDeps) {
    this.slots = new Slots(
      Math.max(1, deps.maxConcurrentCollects ?? DEFAULT_COLLECT_CONCURRENCY),
      deps.maxQueuedCollects ?? DEFAULT_COLLECT_QUEUE,
    );
    this.confirmations = new Confirmations(deps.connection);
  }

  /** One collect at a time per wallet in this process; the database makes it exactly once across processes. */
  collect(wallet: string, requestSignature: string): Promise<Collected> {
    const previous = this.inFlight.get(wallet) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(() => this.collectOnce(wallet, requestSignature));
    this.inFlight.set(wallet, run);
    void run
      .finally(() => {
        if (this.inFlight.get(wallet) === run) this.inFlight.delete(wallet);
      })
      .catch(() => {});
    return run;
  }

  /**
   * The database phase waits for a slot; sending and waiting for the payout's confirmation do not hold one.
   * Every failure is answered with a DomainError (a specific reason); an unexpected one is logged with its
   * claim and answered payoutFailed (or the database's message, socket/rewards.ts).
   */
  private async collectOnce(wallet: string, requestSignature: string): Promise<Collected> {
    let claimId: number | undefined;
    try {
      const prepared = await this.slots.run(
        () =>
          this.prepare(wallet, requestSignature, (id) => {
            claimId = id;
          }),
        () => new DomainError('collect_busy', SERVER_MESSAGES.collectBusy),
      );
      return await this.pay(prepared);
    } catch (err) {
      if (!(err instanceof DomainError)) {
        this.deps.logger.error({ err, wallet, requestSignature, claimId }, 'collect failed unexpectedly');
      }
      throw err;
    }
  }

  /** Checks, verifies the proof, reserves the pending reward and records the signed payout as `sent`. */
  private async prepare(wallet: string, requestSignature: string, onClaim: (id: number) => void) {
    const { prisma, connection, clock } = this.deps;
    if (this.deps.hasAccess && !(await this.deps.hasAccess(wallet))) {
      throw new DomainError('beta_access_required', SERVER_MESSAGES.betaAccessRequired);
    }
    if (this.deps.chainAvailable && !(await this.deps.chainAvailable())) {
      throw new DomainError('network_congestion', CLIENT_MESSAGES.networkCongestion);
    }
    if (await this.deps.isLive(wallet))
      throw new DomainError('collect_while_live', SERVER_MESSAGES.collectWhileLive);
    // Maintenance pauses collects (checked when the collect's turn comes, so a queued one waits it out).
    if ((await getMaintenance(prisma)).is_maintenance) {
      throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);
    }
    const streamer = await prisma.streamer.findUnique({ where: { wallet } });
    if (!streamer || streamer.pendingRewardUnits <= 0n)
      throw new DomainError('nothing_to_collect', SERVER_MESSAGES.nothingToCollect);
    if (await prisma.rewardClaim.findUnique({ where: { requestSignature } })) {
      throw new DomainError('collect_signature_used', SERVER_MESSAGES.collectSignatureUsed);
    }
    this.treasury ??= this.deps.treasury().catch((err: unknown) => {
      this.treasury = undefined;
      throw err;
    });
    const treasury = await this.treasury.catch(() => null);
    if (!treasury) throw new DomainError('treasury_empty', SERVER_MESSAGES.treasuryEmpty);
    await verifySelfTransfer(connection, requestSignature, wallet, clock.now()).catch((err: unknown) => {
      if (err instanceof DomainError) throw err;
      this.deps.logger.warn({ err, wallet }, 'collect: request transaction unreadable');
      throw new DomainError('payout_failed', SERVER_MESSAGES.payoutFailed);
    });
    const available = await treasuryBalance(connection, treasury).catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'collect: treasury balance unreadable');
      throw new DomainError('treasury_empty', SERVER_MESSAGES.treasuryEmpty);
    });
    if (available < streamer.pendingRewardUnits)
      throw new DomainError('treasury_empty', SERVER_MESSAGES.treasuryEmpty);

    const claim = await this.reserve(wallet, requestSignature);
    onClaim(claim.id);
    let payout: Awaited<ReturnType<typeof signPayout>>;
    try {
      payout = await signPayout(connection, treasury, wallet, claim.amountUnits, `STRM claim ${claim.id}`);
    } catch (err) {
      // Nothing was sent: the reservation goes back.
      this.deps.logger.warn({ err, claimId: claim.id }, 'collect: could not build the payout');
      await this.release(claim.id, 'failed', 'payout not built');
      throw new DomainError('payout_failed', SERVER_MESSAGES.payoutFailed);
    }
    await prisma.rewardClaim.update({
      where: { id: claim.id, status: 'reserved' },
      data: {
        status: 'sent',
        payoutSignature: payout.signature,
        payoutTransaction: payout.transaction,
        lastValidBlockHeight: payout.lastValidBlockHeight,
        sentAt: clock.now(),
      },
    });
    return { id: claim.id, amountUnits: claim.amountUnits, wallet, ...payout };
  }

  /** Sends the recorded payout and waits for it; from here only the reconciler may release the claim. */
  private async pay(claim: {
    id: number;
    amountUnits: bigint;
    wallet: string;
    signature: string;
    transaction: string;
  }) {
    const { connection } = this.deps;
    try {
      await connection.sendRawTransaction(Buffer.from(claim.transaction, 'base64'), {
        preflightCommitment: 'confirmed',
      });
    } catch (err) {
      // An error answer does not prove the payout was not forwarded (a preflight refusal from one node, a
      // timeout after forwarding): it may still land. The claim stays `sent`; the wait below pays the user
      // if it lands, and the reconciler re-credits it once its blockhash has expired without it.
      this.deps.logger.warn(
        { err: err instanceof Error ? err.message : err, claimId: claim.id, wallet: claim.wallet },
        'collect: payout send answered an error; waiting for it, else left to reconciliation',
      );
    }
    const landed = await this.confirmations.wait(claim.signature, this.deps.confirmTimeoutMs ?? 30_000);
    if (landed === 'confirmed') {
      await this.settle(claim.id, 'confirmed');
      return { amount: fromBaseUnits(claim.amountUnits), signature: claim.signature };
    }
    if (landed === 'failed') {
      // Landed with an error: nothing moved. The reconciler re-credits it on its next pass.
      this.deps.logger.warn({ claimId: claim.id, wallet: claim.wallet }, 'collect: payout failed on chain');
      throw new DomainError('payout_failed', SERVER_MESSAGES.payoutFailed);
    }
    throw new DomainError('payout_unconfirmed', SERVER_MESSAGES.payoutUnconfirmed);
  }

  /** Moves the whole pending reward into a new claim, in one transaction; the signature is used once. */
  private async reserve(wallet: string, requestSignature: string) {
    try {
      return await this.deps.prisma.$transaction(async (tx) => {
        // Maintenance, again, inside the reservation: the switch's row is held (FOR SHARE) until this commits,
        // so a collect either reserves before maintenance starts or sees it and pays nothing; one checked
        // before the switch can no longer pay after it.
        const [switched] = await tx.$queryRaw<{ on: boolean }[]>`
          SELECT is_maintenance AS on FROM maintenance WHERE id = 1 FOR SHARE`;
        if (switched?.on) throw new UnderMaintenance();
        const [row] = await tx.$queryRaw<{ pending: bigint }[]>`
          SELECT pending_reward_units AS pending FROM streamers WHERE wallet = ${wallet} FOR UPDATE`;
        if (!row || row.pending <= 0n) throw new NothingToCollect();
        const claim = await tx.rewardClaim.create({
          data: { wallet, requestSignature, amountUnits: row.pending, status: 'reserved' },
        });
        await tx.streamer.update({
          where: { wallet },
          data: { pendingRewardUnits: { decrement: row.pending } },
        });
        return claim;
      });
    } catch (err) {
      if (err instanceof NothingToCollect)
        throw new DomainError('nothing_to_collect', SERVER_MESSAGES.nothingToCollect);
      if (err instanceof UnderMaintenance)
        throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
        throw new DomainError('collect_signature_used', SERVER_MESSAGES.collectSignatureUsed);
      }
      throw err;
    }
  }

  private async settle(id: number, status: 'confirmed') {
    await this.deps.prisma.rewardClaim.updateMany({
      where: { id, status: 'sent' },
      data: { status, settledAt: this.deps.clock.now() },
    });
  }

  /** Ends a claim that paid nothing and gives its amount back to pending, exactly once. */
  private async release(id: number, status: 'expired' | 'failed', error: string) {
    const now = this.deps.clock.now();
    await this.deps.prisma.$executeRaw`
      WITH c AS (
        UPDATE reward_claims SET status = ${status}::"ClaimStatus", error = ${error}, settled_at = ${now}
         WHERE id = ${id} AND status IN ('reserved', 'sent')
        RETURNING wallet, amount_units)
      UPDATE streamers s SET pending_reward_units = s.pending_reward_units + c.amount_units, updated_at = now()
        FROM c WHERE s.wallet = c.wallet`;
  }

  /**
   * Settles claims against the chain: `sent` ones by their payout's status (resent while their blockhash is
   * still valid, expired once it is not), and stale `reserved` ones (never sent) are re-credited.
   */
  async reconcile(): Promise<{ confirmed: number; expired: number; failed: number }> {
    // Every instance runs this timer; one at a time settles (a transaction-scoped advisory lock, released
    // with the transaction, so a crashed holder never blocks the others).
    return this.deps.prisma.$transaction(
      async (tx) => {
        const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
          SELECT pg_try_advisory_xact_lock(${RECONCILE_LOCK_KEY}) AS locked`;
        if (!row?.locked) return { confirmed: 0, expired: 0, failed: 0 };
        return this.reconcileHere();
      },
      { maxWait: 10_000, timeout: 10 * 60_000 },
    );
  }

  private async reconcileHere() {
    const { prisma, connection } = this.deps;
    const result = { confirmed: 0, expired: 0, failed: 0 };
    // A reservation becomes `sent` within seconds of its collect; one older than that was left by a crashed
    // instance and was never sent. A younger one may be in flight on another instance, even at a start.
    const stale = await prisma.$queryRaw<{ id: number }[]>`
      SELECT id FROM reward_claims
       WHERE status = 'reserved'
         AND created_at < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${RESERVED_STALE_MS} / 1000.0)`;
    for (const claim of stale) {
      await this.release(claim.id, 'failed', 'never sent (server restarted)');
      result.failed++;
    }
    // The finalized height first, the statuses second: a payout not seen after a height that is already past
    // its last valid block height can never land. (Read the other way round, a payout landing between the two
    // reads, or a status read from a node behind the one answering the height, would look expired.)
    const height = BigInt(await connection.getBlockHeight('finalized'));
    // In pages: getSignatureStatuses refuses more than 256 signatures in one call.
    let after = 0;
    for (;;) {
      const sent = await prisma.rewardClaim.findMany({
        where: { status: 'sent', id: { gt: after } },
        orderBy: { id: 'asc' },
        take: SIGNATURE_STATUS_PAGE,
      });
      if (!sent.length) break;
      after = sent[sent.length - 1]!.id;
      const statuses = await signatureStatuses(
        connection,
        sent.map((c) => c.payoutSignature!),
        true,
      );
      for (const [i, claim] of sent.entries()) {
        const status = statuses[i] ?? null;
        if (isSettled(status)) {
          if (status.err) {
            await this.release(claim.id, 'failed', 'payout failed on chain');
            result.failed++;
          } else {
            await this.settle(claim.id, 'confirmed');
            result.confirmed++;
          }
        } else if (!status && claim.lastValidBlockHeight != null && height > claim.lastValidBlockHeight) {
          await this.release(claim.id, 'expired', 'payout blockhash expired before it landed');
          result.expired++;
        } else if (claim.payoutTransaction) {
          // Still able to land: send the same signed transaction again (same signature, so at most once).
          await connection
            .sendRawTransaction(Buffer.from(claim.payoutTransaction, 'base64'), { skipPreflight: true })
            .catch(() => {});
        }
      }
    }
    return result;
  }
}
