// Beta access (docs/product.md#beta-access): a registration alone gives none; an admin grants it. A
// change is announced on ACCESS_CHANNEL with the transaction that makes it (services/access.ts).
import type { PrismaClient } from '../db/index.ts';
import { DomainError } from '../errors.ts';
import { ACCESS_CHANNEL } from './access.ts';
import { recordAdminAction } from './audit.ts';

export async function hasBetaAccess(prisma: PrismaClient, wallet: string): Promise<boolean> {
  return (await prisma.betaAccess.count({ where: { wallet } })) > 0;
}

/** Grants access (idempotent: a second grant keeps the first grant's author and time); audited. */
export async function grantBetaAccess(prisma: PrismaClient, actor: string, wallet: string, at: Date) {
  await prisma.$transaction(async (tx) => {
    // ON CONFLICT DO NOTHING: two grants at once both succeed (an upsert's insert would fail the second).
    await tx.betaAccess.createMany({
      data: [{ wallet, grantedBy: actor, grantedAt: at }],
      skipDuplicates: true,
    });
    await recordAdminAction(tx, { actor, action: 'grant_access', target: wallet, at });
    await tx.$executeRaw`SELECT pg_notify(${ACCESS_CHANNEL}, ${wallet})`;
  });
  return { wallet, hasAccess: true };
}

export async function revokeBetaAccess(prisma: PrismaClient, actor: string, wallet: string, at: Date) {
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.betaAccess.deleteMany({ where: { wallet } });
    if (count === 0) throw new DomainError('no_access', 'This wallet has no beta access');
    await recordAdminAction(tx, { actor, action: 'revoke_access', target: wallet, at });
    await tx.$executeRaw`SELECT pg_notify(${ACCESS_CHANNEL}, ${wallet})`;
  });
  return { wallet, hasAccess: false };
}
