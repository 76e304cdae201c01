// Beta access (the spec's check_beta_access): a registration alone gives none; an admin grants it.
import type { PrismaClient } from '../db/index.ts';
import { AppError } from '../http/app-error.ts';
import { recordAdminAction } from './audit.ts';

export async function hasBetaAccess(prisma: PrismaClient, wallet: string): Promise<boolean> {
  return (await prisma.betaAccess.count({ where: { wallet } })) > 0;
}

/** Grants access (idempotent: a second grant keeps the first grant's author and time); audited. */
export async function grantBetaAccess(prisma: PrismaClient, actor: string, wallet: string, at: Date) {
  await prisma.$transaction(async (tx) => {
    await tx.betaAccess.upsert({
      where: { wallet },
      create: { wallet, grantedBy: actor, grantedAt: at },
      update: {},
    });
    await recordAdminAction(tx, { actor, action: 'grant_access', target: wallet, at });
  });
  return { wallet, hasAccess: true };
}

export async function revokeBetaAccess(prisma: PrismaClient, actor: string, wallet: string, at: Date) {
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.betaAccess.deleteMany({ where: { wallet } });
    if (count === 0) throw AppError.notFound('This wallet has no beta access', 'no_access');
    await recordAdminAction(tx, { actor, action: 'revoke_access', target: wallet, at });
  });
  return { wallet, hasAccess: false };
}
