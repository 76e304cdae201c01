// Admins are the wallets in ADMIN_WALLETS plus those promoted (table admins). Only a configured admin (or the
// operators' CLI) promotes or demotes: an admin who could promote would approve its own raises through a
// second wallet (docs/security.md#pending-reward-adjustments).
import type { Config } from '../config.ts';
import type { PrismaClient } from '../db/index.ts';
import { DomainError } from '../errors.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { ACCESS_CHANNEL } from './access.ts';
import { recordAdminAction } from './audit.ts';

export interface AdminDeps {
  config: Pick<Config, 'adminWallets'>;
  prisma: PrismaClient;
}

export async function isAdmin(deps: AdminDeps, wallet: string): Promise<boolean> {
  if (deps.config.adminWallets.has(wallet)) return true;
  return (await deps.prisma.admin.count({ where: { wallet } })) > 0;
}

export async function listAdmins(deps: AdminDeps) {
  const promoted = await deps.prisma.admin.findMany({ orderBy: { createdAt: 'asc' } });
  return [
    ...[...deps.config.adminWallets].map((wallet) => ({
      wallet,
      source: 'config' as const,
      promoted_by: null,
      created_at: null,
    })),
    ...promoted
      .filter((a) => !deps.config.adminWallets.has(a.wallet))
      .map((a) => ({
        wallet: a.wallet,
        source: 'promoted' as const,
        promoted_by: a.promotedBy,
        created_at: a.createdAt.toISOString(),
      })),
  ];
}

export const adminChangeRefused = 'Only an admin listed in ADMIN_WALLETS can promote or demote admins';

/** Refuses an admin change asked through the API by an admin that ADMIN_WALLETS does not list. */
export function assertMayChangeAdmins(deps: Pick<AdminDeps, 'config'>, actor: string) {
  if (!deps.config.adminWallets.has(actor)) throw new DomainError('admin_change_refused', adminChangeRefused);
}

/** An admin as the approval rules see it: its promotion line and, for a promoted one, since when. */
export interface AdminStanding {
  /** A configured admin is its own line; a promoted one belongs to its promoter's (followed to the root). */
  line: string;
  promotedAt: Date | null;
}

/**
 * `wallet`'s standing as an admin: the root of the promotions that made it one (a configured admin, the CLI's
 * `cli:<user>`, or a promoter since demoted) and when it was promoted.
 */
export async function adminStanding(
  db: Pick<Prisma.TransactionClient, 'admin'>,
  adminWallets: ReadonlySet<string>,
  wallet: string,
): Promise<AdminStanding> {
  if (adminWallets.has(wallet)) return { line: wallet, promotedAt: null };
  const own = await db.admin.findUnique({ where: { wallet } });
  let line = own?.promotedBy ?? wallet;
  // Rows promoted by promoted admins (before only configured admins could promote) lead to their root.
  for (let hops = 0; hops < 16 && !adminWallets.has(line); hops++) {
    const promoter = await db.admin.findUnique({ where: { wallet: line } });
    if (!promoter || promoter.promotedBy === line) break;
    line = promoter.promotedBy;
  }
  return { line, promotedAt: own?.createdAt ?? null };
}

/** Makes `wallet` an admin (idempotent); audited. */
export async function promoteAdmin(deps: AdminDeps, actor: string, wallet: string, at: Date) {
  await deps.prisma.$transaction(async (tx) => {
    await tx.admin.upsert({
      where: { wallet },
      create: { wallet, promotedBy: actor, createdAt: at },
      update: {},
    });
    await recordAdminAction(tx, { actor, action: 'promote_admin', target: wallet, at });
    // An admin has access without a grant (services/access.ts).
    await tx.$executeRaw`SELECT pg_notify(${ACCESS_CHANNEL}, ${wallet})`;
  });
  return { wallet, isAdmin: true };
}

/** Removes a promoted admin; a wallet that is an admin by ADMIN_WALLETS cannot be demoted here. */
export async function demoteAdmin(deps: AdminDeps, actor: string, wallet: string, at: Date) {
  if (deps.config.adminWallets.has(wallet)) {
    throw new DomainError(
      'configured_admin',
      'This wallet is an admin through ADMIN_WALLETS; remove it there to demote it',
    );
  }
  await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.admin.deleteMany({ where: { wallet } });
    if (count === 0) throw new DomainError('not_admin', 'This wallet is not an admin');
    await recordAdminAction(tx, { actor, action: 'demote_admin', target: wallet, at });
    await tx.$executeRaw`SELECT pg_notify(${ACCESS_CHANNEL}, ${wallet})`;
  });
  return { wallet, isAdmin: false };
}
