// Collecting rewards exactly once (docs/engine.md#payouts). A claim moves through states recorded before each
// step:
//   reserved  pending moved into the claim, in the statement that inserts it (its request signature unique)
//   sent      the signed payout (which may pay several claims, payout-batches.ts) and its last valid block
//             height stored, then sent. Only the reconciler releases a `sent` claim (never a send error: an RPC
//             may answer an error for a payout it forwarded), once the finalized block height is past the
//             payout's last valid one and its status is still none
//   confirmed the payout landed                     (final)
//   expired   its blockhash can no longer land and it did not: re-credited (final)
//   failed    never sent, or landed with an error: re-credited (final)
// A collect's chain reads (its proof, the treasury's balance) happen outside the database steps, which run at
// most `maxConcurrentCollects` at a time (sized to the database pool; the others queue) and are one statement
// each. On start-up, claims left in `reserved` (never sent) are re-credited and those in `sent` reconciled.
import type { Connection } from '@solana/web3.js';
import { CLIENT_MESSAGES } from '@strm/mining-client';
import { fromBaseUnits, SERVER_MESSAGES } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import { DATABASE_POOL_SIZE, type PrismaClient } from '../../db/index.ts';
import { DomainError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { Confirmations } from './confirmations.ts';
import { PayoutBatches, type ReservedClaim } from './payout-batches.ts';
import { type Reconciled, reconcileClaims, releaseClaim } from './reconciler.ts';
import { sharedFor } from './shared-read.ts';
import { Slots, StatementBatches } from './statement-batches.ts';
import { verifySelfTransfer } from './request-signature.ts';
import { type Treasury, treasuryBalance } from './treasury.ts';

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
  /** Whether the chain answers (the RPC client's `available()`, rpc/rpc.ts): when it does not, a collect is refused at once. */
  chainAvailable?: () => Promise<boolean>;
  /**
   * Collects in their database phase at once (checks, the proof, the reservation); the others wait their
   * turn. Sized to the database pool so a burst queues here instead of timing out on the pool.
   */
  maxConcurrentCollects?: number;
  /** Collects allowed to wait for a turn; beyond it a collect is answered at once (collectBusy). */
  maxQueuedCollects?: number;
  /** Payout transactions sent and not yet confirmed at once; claims waiting beyond them share transactions. */
  payoutsInFlight?: number;
}

/** Half the database pool: collects leave the other half to the engine, the reconciler and the routes. */
export const DEFAULT_COLLECT_CONCURRENCY = Math.max(1, Math.floor(DATABASE_POOL_SIZE / 2));
const DEFAULT_COLLECT_QUEUE = 10_000;

/**
 * Proofs read from the chain at once: a burst of collects must not open thousands of RPC requests. One full
 * JSON-RPC batch (request-signature.ts reads those of the same moment together, 100 to a batch): fewer would
 * make a rush wait its proofs in more rounds (docs/benchmarks.md#collects).
 */
const PROOF_READS_AT_ONCE = 100;
/** The treasury's balance read once serves the collects checked in the next moment. */
const BALANCE_REUSE_MS = 250;

export interface Collected {
  amount: number;
  signature: string;
}

const busy = () => new DomainError('collect_busy', SERVER_MESSAGES.collectBusy);

interface CollectRequest {
  wallet: string;
  requestSignature: string;
}
interface CollectState {
  maintenance: boolean | null;
  pending: bigint | null;
  used: boolean;
}
interface Reservation {
  maintenance: boolean;
  /** The streamer had something pending (whether or not its claim was inserted). */
  pending: boolean;
  id: number | null;
  amount: bigint | null;
}

export class ClaimService {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private treasury: Promise<Treasury | null> | undefined;
  /** The treasury's balance, one read for the collects of the same moment. */
  private balance: (() => Promise<bigint>) | undefined;
  private readonly slots: Slots;
  private readonly proofReads = new Slots(PROOF_READS_AT_ONCE, Number.MAX_SAFE_INTEGER);
  private readonly batches: PayoutBatches;
  private readonly states: StatementBatches<CollectRequest, CollectState>;
  private readonly reservations: StatementBatches<CollectRequest, Reservation>;

  constructor(private readonly deps: ClaimDeps) {
    this.slots = new Slots(
      Math.max(1, deps.maxConcurrentCollects ?? DEFAULT_COLLECT_CONCURRENCY),
      deps.maxQueuedCollects ?? DEFAULT_COLLECT_QUEUE,
    );
    this.states = new StatementBatches(this.slots, (requests) => this.readStates(requests), busy);
    this.reservations = new StatementBatches(this.slots, (requests) => this.reserveAll(requests), busy);
    this.batches = new PayoutBatches({
      prisma: deps.prisma,
      connection: deps.connection,
      clock: deps.clock,
      logger: deps.logger,
      confirmations: new Confirmations(deps.connection),
      confirmTimeoutMs: deps.confirmTimeoutMs ?? 30_000,
      release: (id, error) => this.slots.run(() => this.release(id, 'failed', error), busy, true),
      databaseStep: (step) => this.slots.run(step, busy, true),
      maxInFlight: deps.payoutsInFlight,
    });
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
   * Checks, reserves, pays. Every failure is answered with a DomainError (a specific reason); an unexpected
   * one is logged with its claim and answered payoutFailed (or the database's message, socket/rewards.ts).
   */
  private async collectOnce(wallet: string, requestSignature: string): Promise<Collected> {
    let claimId: number | undefined;
    try {
      const treasury = await this.check(wallet, requestSignature);
      const claim = await this.reserve(wallet, requestSignature);
      claimId = claim.id;
      const outcome = await this.batches.pay(treasury, claim);
      if (outcome.kind === 'paid') {
        return { amount: fromBaseUnits(claim.amountUnits), signature: outcome.signature };
      }
      if (outcome.kind === 'not-sent' || outcome.landed === 'failed') {
        // Given back already (not sent), or by the reconciler's next pass (landed with an error).
        throw new DomainError('payout_failed', SERVER_MESSAGES.payoutFailed);
      }
      throw new DomainError('payout_unconfirmed', SERVER_MESSAGES.payoutUnconfirmed);
    } catch (err) {
      if (!(err instanceof DomainError)) {
        this.deps.logger.error({ err, wallet, requestSignature, claimId }, 'collect failed unexpectedly');
      }
      throw err;
    }
  }

  /**
   * Everything a collect must pass before anything is reserved, in the order its refusals are answered:
   * access, the chain, not live, maintenance, something pending, the proof unused, a treasury, the proof,
   * the treasury's balance. Returns the treasury to pay from.
   */
  private async check(wallet: string, requestSignature: string): Promise<Treasury> {
    const { connection, clock } = this.deps;
    if (this.deps.hasAccess && !(await this.deps.hasAccess(wallet))) {
      throw new DomainError('beta_access_required', SERVER_MESSAGES.betaAccessRequired);
    }
    if (this.deps.chainAvailable && !(await this.deps.chainAvailable())) {
      throw new DomainError('network_congestion', CLIENT_MESSAGES.networkCongestion);
    }
    if (await this.deps.isLive(wallet))
      throw new DomainError('collect_while_live', SERVER_MESSAGES.collectWhileLive);
    // Maintenance pauses collects (checked when the collect's turn comes, so a queued one waits it out).
    const state = await this.states.run({ wallet, requestSignature });
    if (state.maintenance) throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);
    const pending = state.pending ?? 0n;
    if (pending <= 0n) throw new DomainError('nothing_to_collect', SERVER_MESSAGES.nothingToCollect);
    if (state.used) throw new DomainError('collect_signature_used', SERVER_MESSAGES.collectSignatureUsed);
    this.treasury ??= this.deps.treasury().catch((err: unknown) => {
      this.treasury = undefined;
      throw err;
    });
    const treasury = await this.treasury.catch(() => null);
    if (!treasury) throw new DomainError('treasury_empty', SERVER_MESSAGES.treasuryEmpty);
    await this.proofReads
      .run(() => verifySelfTransfer(connection, requestSignature, wallet, clock.now()), busy)
      .catch((err: unknown) => {
        if (err instanceof DomainError) throw err;
        this.deps.logger.warn({ err, wallet }, 'collect: request transaction unreadable');
        throw new DomainError('payout_failed', SERVER_MESSAGES.payoutFailed);
      });
    this.balance ??= sharedFor(BALANCE_REUSE_MS, () => treasuryBalance(connection, treasury));
    const available = await this.balance().catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'collect: treasury balance unreadable');
      throw new DomainError('treasury_empty', SERVER_MESSAGES.treasuryEmpty);
    });
    if (available < pending) throw new DomainError('treasury_empty', SERVER_MESSAGES.treasuryEmpty);
    return treasury;
  }

  /** What the checks before the proof need of each request, read in one statement for all of them. */
  private readStates(requests: CollectRequest[]): Promise<CollectState[]> {
    return this.deps.prisma.$queryRaw<CollectState[]>`
      SELECT (SELECT is_maintenance FROM maintenance WHERE id = 1) AS maintenance,
             s.pending_reward_units AS pending,
             EXISTS (SELECT 1 FROM reward_claims c WHERE c.request_signature = r.signature) AS used
        FROM unnest(${requests.map((r) => r.wallet)}::text[], ${requests.map((r) => r.requestSignature)}::text[])
             WITH ORDINALITY AS r(wallet, signature, n)
        LEFT JOIN streamers s ON s.wallet = r.wallet
       ORDER BY r.n`;
  }

  private async reserve(wallet: string, requestSignature: string): Promise<ReservedClaim> {
    const row = await this.reservations.run({ wallet, requestSignature });
    if (row.maintenance) throw new DomainError('maintenance', SERVER_MESSAGES.maintenanceActive);
    if (row.id != null && row.amount != null) return { id: row.id, wallet, amountUnits: row.amount };
    // The streamer had something pending and its claim was not inserted: the signature was used meanwhile.
    if (row.pending) throw new DomainError('collect_signature_used', SERVER_MESSAGES.collectSignatureUsed);
    throw new DomainError('nothing_to_collect', SERVER_MESSAGES.nothingToCollect);
  }

  /**
   * Moves each streamer's whole pending reward into a new claim, for all the requests in one statement:
   * maintenance read under a share lock (a collect either reserves before the switch commits or sees it and
   * pays nothing), the streamers' rows locked in one order (no deadlock with another instance's batch), the
   * claims inserted (a request signature used once: a used one inserts nothing) and pending decremented.
   */
  private async reserveAll(requests: CollectRequest[]): Promise<Reservation[]> {
    // A wallet's collects run one after another (collect()): twice in one statement, its pending reward
    // would be moved into two claims and decremented once.
    if (new Set(requests.map((q) => q.wallet)).size !== requests.length)
      throw new Error('a wallet twice in one reservation statement');
    return this.deps.prisma.$queryRaw<Reservation[]>`
      WITH m AS (SELECT is_maintenance FROM maintenance WHERE id = 1 FOR SHARE),
      r AS (
        SELECT * FROM unnest(${requests.map((q) => q.wallet)}::text[],
                             ${requests.map((q) => q.requestSignature)}::text[])
               WITH ORDINALITY AS r(wallet, signature, n)),
      s AS (
        SELECT st.wallet, st.pending_reward_units, r.signature FROM streamers st JOIN r ON r.wallet = st.wallet
         WHERE st.pending_reward_units > 0 AND NOT coalesce((SELECT is_maintenance FROM m), false)
         ORDER BY st.wallet
           FOR UPDATE OF st),
      c AS (
        INSERT INTO reward_claims (wallet, request_signature, amount_units, status, created_at)
        SELECT wallet, signature, pending_reward_units, 'reserved', now() AT TIME ZONE 'UTC' FROM s
        ON CONFLICT (request_signature) DO NOTHING
        RETURNING id, wallet, request_signature, amount_units),
      u AS (
        UPDATE streamers SET pending_reward_units = streamers.pending_reward_units - c.amount_units,
               updated_at = now() AT TIME ZONE 'UTC'
          FROM c WHERE streamers.wallet = c.wallet)
      SELECT coalesce((SELECT is_maintenance FROM m), false) AS maintenance,
             EXISTS (SELECT 1 FROM s WHERE s.signature = r.signature) AS pending,
             c.id, c.amount_units AS amount
        FROM r LEFT JOIN c ON c.request_signature = r.signature
       ORDER BY r.n`;
  }

  /**
   * Settles claims against the chain: `sent` ones by their payout's status (resent while their blockhash is
   * still valid, expired once it is not), and stale `reserved` ones (never sent) are re-credited.
   */
  reconcile(): Promise<Reconciled> {
    return reconcileClaims(this.deps);
  }

  private release(id: number, status: 'expired' | 'failed', error: string) {
    return releaseClaim(this.deps, id, status, error);
  }
}
