// Payouts the database does not know (docs/operations.md#backups). Every payout's signature is stored before
// it is sent, so a payout the database has no record of was made by a database since lost: a backup restored
// after it lost the claims reserved and paid after the backup was taken, and their wallets' pending rewards
// came back. The chain still has the payouts. At start the API lists the treasury token account's
// transactions newer than the newest payout the database records (getSignaturesForAddress, newest first),
// while the restore's maintenance message is shown,
// and records each successful payout it does not know (its memo names claims, "STRM claims 1,2") as confirmed
// claims of what each wallet received, taking that from the wallet's pending reward: it is never paid again.
import type { Connection, PublicKey } from '@solana/web3.js';
import type { PrismaClient } from '../../db/index.ts';
import type { Logger } from '../../logger.ts';
import type { Treasury } from './treasury.ts';

/**
 * What users see while a restored database waits for the operator's check (`pnpm admin restore` sets it); an
 * API starting while it is shown looks for the payouts made after the backup.
 */
export const RESTORED_MAINTENANCE =
  'We are restoring our records. Mining and collecting will be back shortly.';

/** getSignaturesForAddress's largest page; pages are read until the newest known payout. */
const PAGE = 1000;
/** At most this many pages (100,000 transactions of the treasury) are read at one start. */
const MAX_PAGES = 100;
const PAYOUT_MEMO = /STRM claims ([\d,]+)/;

export interface PayoutFound {
  signature: string;
  /** What each wallet received, in base units. */
  paid: Map<string, bigint>;
  claimIds: number[];
  at: Date;
}

/** The treasury's successful payouts newer than `until` (a signature), newest first. */
export async function payoutsSince(
  connection: Connection,
  treasury: Pick<Treasury, 'tokenAccount' | 'mint' | 'owner'>,
  until: string | undefined,
): Promise<PayoutFound[]> {
  const found: PayoutFound[] = [];
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const signatures = await connection.getSignaturesForAddress(
      treasury.tokenAccount,
      { limit: PAGE, ...(before ? { before } : {}), ...(until ? { until } : {}) },
      'confirmed',
    );
    for (const entry of signatures) {
      const ids = entry.memo?.match(PAYOUT_MEMO)?.[1];
      if (entry.err || !ids) continue;
      const paid = await paidBy(connection, entry.signature, treasury.mint, treasury.owner.publicKey);
      if (paid.size === 0) continue;
      found.push({
        signature: entry.signature,
        paid,
        claimIds: ids.split(',').map(Number),
        at: new Date((entry.blockTime ?? Date.now() / 1000) * 1000),
      });
    }
    if (signatures.length < PAGE) break;
    before = signatures.at(-1)!.signature;
  }
  return found;
}

/** The STRM each wallet gained in a transaction (its token balances before and after). */
async function paidBy(connection: Connection, signature: string, mint: PublicKey, treasuryOwner: PublicKey) {
  const tx = await connection.getTransaction(signature, {
    commitment: 'confirmed',
    maxSupportedTransactionVersion: 0,
  });
  const paid = new Map<string, bigint>();
  if (!tx?.meta) return paid;
  const before = new Map(
    (tx.meta.preTokenBalances ?? []).map((b) => [b.accountIndex, BigInt(b.uiTokenAmount.amount)]),
  );
  for (const after of tx.meta.postTokenBalances ?? []) {
    if (after.mint !== mint.toBase58() || !after.owner || after.owner === treasuryOwner.toBase58()) continue;
    const gained = BigInt(after.uiTokenAmount.amount) - (before.get(after.accountIndex) ?? 0n);
    if (gained > 0n) paid.set(after.owner, (paid.get(after.owner) ?? 0n) + gained);
  }
  return paid;
}

/**
 * Records the payouts the database does not know as confirmed claims and lowers their wallets' pending
 * rewards by what they received (not below 0). Idempotent: each is recorded under the request signature
 * `chain:<payout>:<wallet>`, once, even with several instances starting together.
 */
export async function recordUnrecordedPayouts(deps: {
  prisma: PrismaClient;
  connection: Connection;
  treasury: Pick<Treasury, 'tokenAccount' | 'mint' | 'owner'>;
  logger: Logger;
}): Promise<{ payouts: number; units: bigint }> {
  const { prisma } = deps;
  const [newest] = await prisma.$queryRaw<{ signature: string }[]>`
    SELECT payout_signature AS signature FROM reward_claims
     WHERE payout_signature IS NOT NULL AND status = 'confirmed'
     ORDER BY settled_at DESC NULLS LAST, id DESC LIMIT 1`;
  const found = await payoutsSince(deps.connection, deps.treasury, newest?.signature);
  const known = new Set(
    (
      await prisma.rewardClaim.findMany({
        where: { payoutSignature: { in: found.map((p) => p.signature) } },
        select: { payoutSignature: true },
      })
    ).map((c) => c.payoutSignature),
  );
  let payouts = 0;
  let units = 0n;
  for (const payout of found.filter((p) => !known.has(p.signature)).reverse()) {
    for (const [wallet, amount] of payout.paid) {
      const recorded = await prisma.$transaction(async (tx) => {
        await tx.$executeRaw`
          INSERT INTO streamers (wallet, updated_at) VALUES (${wallet}, now()) ON CONFLICT (wallet) DO NOTHING`;
        return tx.$executeRaw`
          WITH c AS (
            INSERT INTO reward_claims (wallet, request_signature, amount_units, status, payout_signature,
                                       created_at, sent_at, settled_at)
            VALUES (${wallet}, ${`chain:${payout.signature}:${wallet}`}, ${amount}, 'confirmed',
                    ${payout.signature}, ${payout.at}, ${payout.at}, ${payout.at})
            ON CONFLICT (request_signature) DO NOTHING
            RETURNING wallet, amount_units)
          UPDATE streamers s SET pending_reward_units = GREATEST(s.pending_reward_units - c.amount_units, 0),
                 updated_at = now()
            FROM c WHERE s.wallet = c.wallet`;
      });
      if (recorded > 0) units += amount;
    }
    payouts++;
    // Claims made from now on get ids past those the chain's memos name.
    const highest = Math.max(...payout.claimIds);
    await prisma.$executeRaw`
      SELECT setval(pg_get_serial_sequence('reward_claims', 'id'),
                    GREATEST((SELECT coalesce(max(id), 1) FROM reward_claims), ${highest}::int))`;
  }
  if (payouts > 0)
    deps.logger.warn(
      { payouts, units: units.toString() },
      'payouts found on chain that the database did not record (a restored backup): recorded as confirmed, taken from pending rewards',
    );
  return { payouts, units };
}
