// Claims settled against the chain (docs/engine.md#payouts): every instance runs the reconciler's timer and
// one at a time settles. A `sent` claim is confirmed when its payout landed, failed when it landed with an
// error, resent while its blockhash can still land, and expired (re-credited) once the finalized height is
// past its last valid one and the payout is still unseen; a `reserved` claim older than any collect takes was
// left by a crashed instance and is re-credited.
import type { Connection } from '@solana/web3.js';
import type { Clock } from '../../clock.ts';
import type { PrismaClient } from '../../db/index.ts';
import { isSettled, SIGNATURE_STATUS_PAGE, signatureStatusesAt } from './confirmations.ts';

/** pg advisory lock key of claim reconciliation ('STRMCLAI'). */
const RECONCILE_LOCK_KEY = 0x5354524d434c4149n;
/** A reservation older than this was never sent (a collect turns it into `sent` within seconds). */
const RESERVED_STALE_MS = 120_000;

export interface ReconcileDeps {
  prisma: PrismaClient;
  connection: Connection;
  clock: Clock;
}

/** What one round settled, and the claims left for the next because their statuses came from behind. */
export interface Reconciled {
  confirmed: number;
  expired: number;
  failed: number;
  behind: number;
}

async function settleClaim(deps: ReconcileDeps, id: number, status: 'confirmed') {
  await deps.prisma.rewardClaim.updateMany({
    where: { id, status: 'sent' },
    data: { status, settledAt: deps.clock.now() },
  });
}

/** Ends a claim that paid nothing and gives its amount back to pending, exactly once. */
export async function releaseClaim(
  deps: ReconcileDeps,
  id: number,
  status: 'expired' | 'failed',
  error: string,
) {
  const now = deps.clock.now();
  await deps.prisma.$executeRaw`
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
export async function reconcileClaims(deps: ReconcileDeps): Promise<Reconciled> {
  // Every instance runs this timer; one at a time settles (a transaction-scoped advisory lock, released
  // with the transaction, so a crashed holder never blocks the others).
  return deps.prisma.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${RECONCILE_LOCK_KEY}) AS locked`;
      if (!row?.locked) return { confirmed: 0, expired: 0, failed: 0, behind: 0 };
      return reconcileHere(deps);
    },
    { maxWait: 10_000, timeout: 10 * 60_000 },
  );
}

async function reconcileHere(deps: ReconcileDeps): Promise<Reconciled> {
  const { prisma, connection } = deps;
  const result = { confirmed: 0, expired: 0, failed: 0, behind: 0 };
  // A reservation becomes `sent` within seconds of its collect; one older than that was left by a crashed
  // instance and was never sent. A younger one may be in flight on another instance, even at a start.
  const stale = await prisma.$queryRaw<{ id: number }[]>`
    SELECT id FROM reward_claims
     WHERE status = 'reserved'
       AND created_at < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${RESERVED_STALE_MS} / 1000.0)`;
  for (const claim of stale) {
    await releaseClaim(deps, claim.id, 'failed', 'never sent (server restarted)');
    result.failed++;
  }
  // The finalized height first, the statuses second: a payout not seen after a height that is already past
  // its last valid block height can never land. Read the other way round, a payout landing between the two
  // reads would look expired; and so would one whose statuses came from a node behind the one answering the
  // height (a load-balanced RPC), so the height comes with its slot and a status page answered from an
  // earlier slot releases nothing: its claims wait for the next round.
  const finalized = await connection.getEpochInfo('finalized');
  const height = BigInt(finalized.blockHeight ?? (await connection.getBlockHeight('finalized')));
  // In pages: getSignatureStatuses refuses more than 256 signatures in one call. Claims paid together share
  // their payout: it is resent once.
  let after = 0;
  const resent = new Set<string>();
  for (;;) {
    const sent = await prisma.rewardClaim.findMany({
      where: { status: 'sent', id: { gt: after } },
      orderBy: { id: 'asc' },
      take: SIGNATURE_STATUS_PAGE,
    });
    if (!sent.length) break;
    after = sent[sent.length - 1]!.id;
    const { slot: statusSlot, statuses } = await signatureStatusesAt(
      connection,
      sent.map((c) => c.payoutSignature!),
      true,
    );
    const statusesCurrent = statusSlot >= finalized.absoluteSlot;
    for (const [i, claim] of sent.entries()) {
      const status = statuses[i] ?? null;
      if (isSettled(status)) {
        if (status.err) {
          await releaseClaim(deps, claim.id, 'failed', 'payout failed on chain');
          result.failed++;
        } else {
          await settleClaim(deps, claim.id, 'confirmed');
          result.confirmed++;
        }
      } else if (!status && claim.lastValidBlockHeight != null && height > claim.lastValidBlockHeight) {
        if (!statusesCurrent) {
          result.behind++;
          continue;
        }
        await releaseClaim(deps, claim.id, 'expired', 'payout blockhash expired before it landed');
        result.expired++;
      } else if (claim.payoutTransaction && !resent.has(claim.payoutSignature!)) {
        resent.add(claim.payoutSignature!);
        // Still able to land: send the same signed transaction again (same signature, so at most once).
        await connection
          .sendRawTransaction(Buffer.from(claim.payoutTransaction, 'base64'), { skipPreflight: true })
          .catch(() => {});
      }
    }
  }
  return result;
}
