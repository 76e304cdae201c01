// Admins are the wallets in ADMIN_WALLETS plus those an admin promoted (table admins).
import type { Config } from '../config.ts';
import type { PrismaClient } from '../db/index.ts';
import { DomainError } from '../errors.ts';
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
