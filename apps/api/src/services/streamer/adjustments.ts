// Admins' pending-reward adjustments, limited so that an insider (or whoever holds an admin's token) cannot
// turn them into a faucet: grant a second wallet beta access, raise its pending reward, collect, repeat.
// - never the admin's own wallet; never raised above PENDING_REWARD_ADJUSTMENT_MAX in one call;
// - a raise only for a wallet that has mined (a closed session): a fresh wallet has nothing to correct;
// - raises are capped per wallet and per promotion line in 24 h, and all together in 30 days, counted when the
//   money moves (applied, or approved) and, while they wait, when they were asked: a queue cannot exceed them;
// - a raise waits for a second admin once the requester's line has raised more than the approval threshold
//   in 24 h without one; the approver is outside that line, and not promoted within the cooling-off period;
// - a raise waiting longer than a day expires;
// - every adjustment, request, approval, rejection and expiry is in the audit log, and counted for alerting.
// Lowering a pending reward (a correction the other way) is never limited.
// The rules and the threats they answer: docs/security.md#pending-reward-adjustments.
import { type Adjustment, fromBaseUnits, PRODUCT, toBaseUnits } from '@strm/shared';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { PrismaClient } from '../../db/index.ts';
import type { StreamerRepository } from '../../db/streamer-repository.ts';
import { DomainError } from '../../errors.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { adminStanding } from '../admins.ts';
import { recordAdminAction } from '../audit.ts';

export const ownPendingRewardRefused = 'Admins cannot adjust their own pending reward';
export const adjustmentAboveMax = (max: number) =>
  `An adjustment cannot raise a pending reward above ${max.toLocaleString('en-US')} ${PRODUCT}`;
export const raiseWithoutMining = 'Only a wallet that has mined can have its pending reward raised';
export const ADJUSTMENT_LIMITS = {
  perWalletDay: (max: number) =>
    `This would raise the wallet's pending reward by more than ${max.toLocaleString('en-US')} ${PRODUCT} in 24 hours`,
  perAdminDay: (max: number) =>
    `This would take your adjustments above ${max.toLocaleString('en-US')} ${PRODUCT} of raises in 24 hours`,
  total30Days: (max: number) =>
    `This would take all adjustments above ${max.toLocaleString('en-US')} ${PRODUCT} of raises in 30 days`,
} as const;
export const approveOwnRefused = 'A second admin must approve this adjustment';
export const approveSameLineRefused =
  'An admin who promoted the requester, was promoted by it, or shares its promoter cannot approve this adjustment';
export const approverTooNew = (hours: number) =>
  `An admin promoted less than ${hours.toLocaleString('en-US')} hours ago cannot approve adjustments`;
export const adjustmentNotWaiting = 'This adjustment is not waiting for approval';
export const adjustmentExpired = 'This adjustment waited more than 24 hours for approval and expired';

const DAY_MS = 86_400_000;
/** How long a raise waits for a second admin before it expires. */
export const APPROVAL_WAIT_MS = DAY_MS;

export type AdjustmentOutcome =
  | 'applied'
  | 'pending_approval'
  | 'refused'
  | 'approved'
  | 'rejected'
  | 'expired';

export interface AdjustmentDeps {
  prisma: PrismaClient;
  streamers: StreamerRepository;
  clock: Clock;
  config: Pick<Config, 'pendingRewardAdjustmentMax' | 'pendingRewardRaises' | 'adminWallets'>;
  /** Told of each outcome and of the base units a raise added (strm_pending_reward_adjustments_total…). */
  counted?(outcome: AdjustmentOutcome, raisedUnits?: bigint): void;
}

type Tx = Prisma.TransactionClient;

/**
 * Raises (new above previous) in base units that moved since `since` (applied at once, or approved: counted
 * when approved) or that wait for approval and were asked since then, by these filters. A line is matched on
 * `admin_line`, or the requester's wallet for rows from before lines were recorded.
 */
async function raisedSince(tx: Tx, since: Date, by: { wallet?: string; line?: string }, exceptId?: number) {
  const [row] = await tx.$queryRaw<{ raised: bigint | null }[]>`
    SELECT COALESCE(sum(new_units - previous_units), 0)::bigint AS raised FROM pending_reward_adjustments
     WHERE new_units > previous_units
       AND ((status = 'applied' AND COALESCE(decided_at, created_at) >= ${since})
         OR (status = 'pending_approval' AND created_at >= ${since}))
       AND (${by.wallet ?? null}::text IS NULL OR wallet = ${by.wallet ?? null})
       AND (${by.line ?? null}::text IS NULL OR COALESCE(admin_line, admin_wallet) = ${by.line ?? null})
       AND id <> ${exceptId ?? -1}`;
  return row?.raised ?? 0n;
}

/** What a line raised in the 24 h before `at` with no second admin: the approval threshold's sum. */
async function raisedAloneSince(tx: Tx, since: Date, line: string) {
  const [row] = await tx.$queryRaw<{ raised: bigint | null }[]>`
    SELECT COALESCE(sum(new_units - previous_units), 0)::bigint AS raised FROM pending_reward_adjustments
     WHERE new_units > previous_units AND status = 'applied' AND decided_by IS NULL AND created_at >= ${since}
       AND COALESCE(admin_line, admin_wallet) = ${line}`;
  return row?.raised ?? 0n;
}

/**
 * Marks every raise that has waited longer than APPROVAL_WAIT_MS as expired, each in the audit log (the
 * caller holds the adjustments' lock). Returns how many.
 */
async function expireWaiting(tx: Tx, at: Date): Promise<number> {
  const expired = await tx.$queryRaw<
    { id: number; wallet: string; admin_wallet: string; raise: bigint }[]
  >`UPDATE pending_reward_adjustments SET status = 'expired', decided_at = ${at}
     WHERE status = 'pending_approval' AND created_at < ${new Date(at.getTime() - APPROVAL_WAIT_MS)}
     RETURNING id, wallet, admin_wallet, (new_units - previous_units) AS raise`;
  for (const row of expired) {
    await recordAdminAction(tx, {
      actor: 'system',
      action: 'pending_reward_adjustment_expired',
      target: row.wallet,
      detail: `#${row.id} requested by ${row.admin_wallet}: raise of ${fromBaseUnits(row.raise)} ${PRODUCT} waited more than 24 hours`,
      at,
    });
  }
  return expired.length;
}

/**
 * Refuses a raise the limits do not allow (the caller holds the transaction-level advisory lock, so two
 * admins' raises are counted one after the other).
 */
async function checkRaise(
  tx: Tx,
  deps: AdjustmentDeps,
  raise: { wallet: string; line: string; units: bigint; at: Date; exceptId?: number },
) {
  const { perWalletDay, perAdminDay, total30Days } = deps.config.pendingRewardRaises;
  const [mined] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM mining_sessions WHERE wallet = ${raise.wallet} AND ended_at IS NOT NULL`;
  if (!mined || mined.n === 0n) throw new DomainError('adjustment_refused', raiseWithoutMining);
  const day = new Date(raise.at.getTime() - DAY_MS);
  const month = new Date(raise.at.getTime() - 30 * DAY_MS);
  const checks: Array<[bigint, number, string]> = [
    [
      await raisedSince(tx, day, { wallet: raise.wallet }, raise.exceptId),
      perWalletDay,
      ADJUSTMENT_LIMITS.perWalletDay(perWalletDay),
    ],
    [
      await raisedSince(tx, day, { line: raise.line }, raise.exceptId),
      perAdminDay,
      ADJUSTMENT_LIMITS.perAdminDay(perAdminDay),
    ],
    [
      await raisedSince(tx, month, {}, raise.exceptId),
      total30Days,
      ADJUSTMENT_LIMITS.total30Days(total30Days),
    ],
  ];
  for (const [already, max, message] of checks) {
    if (already + raise.units > toBaseUnits(max)) throw new DomainError('adjustment_limit', message);
  }
}

/**
 * Refuses an approver in the requester's promotion line (its promoter, one it promoted, or one promoted by
 * the same admin), or promoted within the cooling-off period: a puppet admin approves nothing for its maker.
 */
async function checkApprover(tx: Tx, deps: AdjustmentDeps, approver: string, line: string, at: Date) {
  const standing = await adminStanding(tx, deps.config.adminWallets, approver);
  const cooldownMs = deps.config.pendingRewardRaises.approverCooldownMs;
  if (standing.promotedAt && at.getTime() - standing.promotedAt.getTime() < cooldownMs) {
    throw new DomainError('approver_refused', approverTooNew(cooldownMs / 3_600_000));
  }
  if (standing.line === line) throw new DomainError('approver_refused', approveSameLineRefused);
}

/** One adjustment at a time across the instances: the limits are sums over everyone's. */
const lockAdjustments = (tx: Tx) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('strm:adjustments'))`;

const describe = (previous: bigint, units: bigint, reason?: string | null) =>
  `from ${fromBaseUnits(previous)} to ${fromBaseUnits(units)} ${PRODUCT}${reason ? `: ${reason}` : ''}`;

/**
 * Expires every raise that has waited longer than a day for a second admin (audited, counted), in a
 * transaction of its own so that a refusal after it does not undo it. Returns how many expired.
 */
export async function expireWaitingAdjustments(deps: AdjustmentDeps): Promise<number> {
  const at = deps.clock.now();
  const expired = await deps.prisma.$transaction(async (tx) => {
    await lockAdjustments(tx);
    return expireWaiting(tx, at);
  });
  for (let i = 0; i < expired; i++) deps.counted?.('expired');
  return expired;
}

/**
 * POST /streamer/pending-reward (admins only): sets the pending reward, or (a raise above the approval
 * threshold) records the request for a second admin. Never the admin's own, never above the per-call
 * maximum, and a raise within the limits only.
 */
export async function adjustPendingReward(
  deps: AdjustmentDeps,
  input: { admin: string; wallet: string; amount: number; reason?: string | undefined },
) {
  await expireWaitingAdjustments(deps);
  try {
    const { raisedUnits, ...result } = await adjust(deps, input);
    deps.counted?.(result.status, result.status === 'applied' ? raisedUnits : undefined);
    return result;
  } catch (err) {
    if (err instanceof DomainError) deps.counted?.('refused');
    throw err;
  }
}

async function adjust(
  deps: AdjustmentDeps,
  input: { admin: string; wallet: string; amount: number; reason?: string | undefined },
) {
  if (input.admin === input.wallet) throw new DomainError('own_pending_reward', ownPendingRewardRefused);
  const units = toBaseUnits(input.amount);
  const maxUnits = toBaseUnits(deps.config.pendingRewardAdjustmentMax);
  const at = deps.clock.now();
  return deps.prisma.$transaction(async (tx) => {
    await lockAdjustments(tx);
    await deps.streamers.ensureStreamer(input.wallet, tx);
    const [row] = await tx.$queryRaw<{ pending: bigint }[]>`
      SELECT pending_reward_units AS pending FROM streamers WHERE wallet = ${input.wallet} FOR UPDATE`;
    const previous = row?.pending ?? 0n;
    if (units > maxUnits && units > previous)
      throw new DomainError(
        'adjustment_above_max',
        adjustmentAboveMax(deps.config.pendingRewardAdjustmentMax),
      );
    const raise = units > previous ? units - previous : 0n;
    const { line } = await adminStanding(tx, deps.config.adminWallets, input.admin);
    if (raise > 0n) await checkRaise(tx, deps, { wallet: input.wallet, line, units: raise, at });
    // The threshold is on the line's sum in 24 h, so that many small raises wait as one large one would.
    const waits =
      raise > 0n &&
      (await raisedAloneSince(tx, new Date(at.getTime() - DAY_MS), line)) + raise >
        toBaseUnits(deps.config.pendingRewardRaises.approvalAbove);
    if (!waits) await deps.streamers.setPendingReward(tx, input.wallet, units);
    const record = await tx.pendingRewardAdjustment.create({
      data: {
        wallet: input.wallet,
        adminWallet: input.admin,
        adminLine: line,
        previousUnits: previous,
        newUnits: units,
        reason: input.reason,
        createdAt: at,
        status: waits ? 'pending_approval' : 'applied',
      },
    });
    await recordAdminAction(tx, {
      actor: input.admin,
      action: waits ? 'pending_reward_adjustment_requested' : 'pending_reward_adjusted',
      target: input.wallet,
      detail: `#${record.id} ${describe(previous, units, input.reason)}`,
      at,
    });
    return {
      wallet: input.wallet,
      previousPendingReward: fromBaseUnits(previous),
      pendingReward: fromBaseUnits(waits ? previous : units),
      adjustmentId: record.id,
      status: waits ? ('pending_approval' as const) : ('applied' as const),
      raisedUnits: raise,
    };
  });
}

/**
 * A second admin's decision on a raise waiting for approval. Approved, the raise is added to the pending
 * reward as it is now (what the wallet mined meanwhile stays), within the limits as they are now.
 */
export async function decideAdjustment(
  deps: AdjustmentDeps,
  input: { admin: string; id: number; approve: boolean; isLive(wallet: string): Promise<boolean> },
): Promise<Adjustment> {
  await expireWaitingAdjustments(deps);
  const at = deps.clock.now();
  const decided = await deps.prisma.$transaction(async (tx) => {
    await lockAdjustments(tx);
    const request = await tx.pendingRewardAdjustment.findUnique({ where: { id: input.id } });
    if (!request) throw new DomainError('not_found', 'No such adjustment');
    if (request.status === 'expired') throw new DomainError('adjustment_decided', adjustmentExpired);
    if (request.status !== 'pending_approval')
      throw new DomainError('adjustment_decided', adjustmentNotWaiting);
    if (input.admin === request.adminWallet || input.admin === request.wallet) {
      throw new DomainError('own_pending_reward', approveOwnRefused);
    }
    const raise = request.newUnits - request.previousUnits;
    const line =
      request.adminLine ?? (await adminStanding(tx, deps.config.adminWallets, request.adminWallet)).line;
    if (input.approve) {
      await checkApprover(tx, deps, input.admin, line, at);
      if (await input.isLive(request.wallet)) {
        throw new DomainError(
          'streamer_live',
          'Cannot adjust the pending reward while the streamer is mining',
        );
      }
      await checkRaise(tx, deps, {
        wallet: request.wallet,
        line,
        units: raise,
        at,
        exceptId: request.id,
      });
      await deps.streamers.raisePendingReward(tx, request.wallet, raise);
    }
    const row = await tx.pendingRewardAdjustment.update({
      where: { id: request.id },
      data: { status: input.approve ? 'applied' : 'rejected', decidedBy: input.admin, decidedAt: at },
    });
    await recordAdminAction(tx, {
      actor: input.admin,
      action: input.approve ? 'pending_reward_adjustment_approved' : 'pending_reward_adjustment_rejected',
      target: request.wallet,
      detail: `#${request.id} requested by ${request.adminWallet}: raise of ${fromBaseUnits(raise)} ${PRODUCT}`,
      at,
    });
    return { row, raise };
  });
  deps.counted?.(input.approve ? 'approved' : 'rejected', input.approve ? decided.raise : undefined);
  return adjustmentOf(decided.row);
}

type AdjustmentRow = Awaited<ReturnType<PrismaClient['pendingRewardAdjustment']['findFirstOrThrow']>>;

function adjustmentOf(row: AdjustmentRow): Adjustment {
  return {
    id: row.id,
    wallet: row.wallet,
    admin: row.adminWallet,
    previousPendingReward: fromBaseUnits(row.previousUnits),
    requestedPendingReward: fromBaseUnits(row.newUnits),
    reason: row.reason,
    status: row.status,
    decidedBy: row.decidedBy,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * The latest `limit` adjustments of a status; with none asked for, every one waiting for approval (however
 * old: each needs a decision) and then the latest `limit` others.
 */
export async function listAdjustments(
  prisma: PrismaClient,
  query: { status?: Adjustment['status'] | undefined; limit: number },
): Promise<Adjustment[]> {
  const latest = (where: Prisma.PendingRewardAdjustmentWhereInput, take?: number) =>
    prisma.pendingRewardAdjustment.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
    });
  const rows = query.status
    ? await latest({ status: query.status }, query.limit)
    : [
        ...(await latest({ status: 'pending_approval' })),
        ...(await latest({ status: { not: 'pending_approval' } }, query.limit)),
      ];
  return rows.map(adjustmentOf);
}
