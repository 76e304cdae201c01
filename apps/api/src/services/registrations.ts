// Beta registrations (docs/product.md#registration-record): insert and select on beta_registrations.
import {
  fromBaseUnits,
  type Registration,
  type RegistrationListQuery,
  type RegistrationListResponse,
  type registrationRequestSchema,
} from '@strm/shared';
import type { z } from 'zod';
import type { Rpc } from '../rpc/rpc.ts';
import type { PrismaClient } from '../db/index.ts';
import { Prisma, type BetaRegistration as RegistrationRow } from '../generated/prisma/client.ts';
import { DomainError } from '../errors.ts';
import { tokenBalanceUnits } from './token-balance.ts';

export const ALREADY_REGISTERED = 'This wallet is already registered for the beta';

export function toApiRegistration(row: RegistrationRow): Registration {
  return {
    wallet: row.wallet,
    name: row.name,
    email: row.email,
    platform: row.platform,
    platform_username: row.platformUsername,
    discord_username: row.discordUsername ?? undefined,
    token_balance: fromBaseUnits(row.tokenBalance),
    streaming_frequency: row.streamingFrequency as Registration['streaming_frequency'],
    follower_count: row.followerCount,
    content_type: row.contentType as Registration['content_type'],
    project_interest: row.projectInterest,
    created_at: row.createdAt.toISOString(),
  };
}

export async function getRegistration(prisma: PrismaClient, wallet: string): Promise<Registration | null> {
  const row = await prisma.betaRegistration.findUnique({ where: { wallet } });
  return row ? toApiRegistration(row) : null;
}

/**
 * Registers `wallet` (the token's) with the rules of the shared schema (docs/product.md#registration-form);
 * the token balance is read from the chain here, never taken from the client. A second registration is a 409.
 */
export async function createRegistration(
  deps: { prisma: PrismaClient; rpc: Rpc },
  wallet: string,
  input: z.output<typeof registrationRequestSchema>,
  at: Date,
): Promise<Registration> {
  if (await deps.prisma.betaRegistration.count({ where: { wallet } })) {
    throw new DomainError('already_registered', ALREADY_REGISTERED);
  }
  const balance = await tokenBalanceUnits(deps.rpc, wallet);
  try {
    const row = await deps.prisma.betaRegistration.create({
      data: {
        wallet,
        name: input.name,
        email: input.email,
        platform: input.platform,
        platformUsername: input.platform_username,
        discordUsername: input.discord_username ?? null,
        tokenBalance: balance,
        streamingFrequency: input.streaming_frequency,
        followerCount: input.follower_count,
        contentType: input.content_type,
        projectInterest: input.project_interest,
        createdAt: at,
      },
    });
    return toApiRegistration(row);
  } catch (err) {
    // Two submits racing: the unique wallet decides, the loser gets the same answer as a late second submit.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw new DomainError('already_registered', ALREADY_REGISTERED);
    }
    throw err;
  }
}

/**
 * Registrations for admins, filtered by platform, date range, access and a search (name, usernames or
 * wallet, case-insensitive), sorted by submission date (default newest first) or follower count; paginated.
 */
export async function listRegistrations(
  prisma: PrismaClient,
  query: RegistrationListQuery,
): Promise<RegistrationListResponse> {
  const granted = await prisma.betaAccess.findMany({ select: { wallet: true } });
  const grantedSet = new Set(granted.map((g) => g.wallet));
  const where: Prisma.BetaRegistrationWhereInput = {
    ...(query.platform ? { platform: query.platform } : {}),
    ...(query.from || query.to
      ? { createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lte: query.to } : {}) } }
      : {}),
    ...(query.access === 'granted' ? { wallet: { in: [...grantedSet] } } : {}),
    ...(query.access === 'none' ? { wallet: { notIn: [...grantedSet] } } : {}),
    ...(query.search
      ? {
          OR: (['name', 'platformUsername', 'discordUsername', 'wallet'] as const).map((field) => ({
            [field]: { contains: query.search, mode: 'insensitive' as const },
          })),
        }
      : {}),
  };
  const order = query.order;
  const orderBy: Prisma.BetaRegistrationOrderByWithRelationInput[] =
    query.sort === 'follower_count'
      ? [{ followerCount: order }, { createdAt: order }, { id: order }]
      : [{ createdAt: order }, { id: order }];
  const [total, rows] = await prisma.$transaction([
    prisma.betaRegistration.count({ where }),
    prisma.betaRegistration.findMany({
      where,
      orderBy,
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  return {
    items: rows.map((row) => ({ ...toApiRegistration(row), hasAccess: grantedSet.has(row.wallet) })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
