// One database, one chain: the pending rewards in a database were earned against one chain's tiers and are
// paid on that chain. The first start records the chain's genesis hash; an API whose RPC answers another
// refuses to run on the database, whatever its profile (docs/security.md#one-database-one-chain).
import type { Connection } from '@solana/web3.js';
import type { PrismaClient } from '../db/index.ts';
import type { Logger } from '../logger.ts';

export class ChainMismatchError extends Error {
  override name = 'ChainMismatchError';
}

/** The RPC's address for the record, without credentials, a query or a path (an API key may sit there). */
function describeRpc(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  return `${url.protocol}//${url.host}`;
}

/**
 * Records the chain's genesis hash when the database has none, and throws ChainMismatchError when it records
 * another; rejects as the RPC does when it cannot answer.
 */
export async function checkChainIdentity(
  prisma: PrismaClient,
  connection: Pick<Connection, 'getGenesisHash'>,
  rpcUrl: string,
): Promise<'recorded' | 'same'> {
  const genesisHash = await connection.getGenesisHash();
  const seen = describeRpc(rpcUrl);
  const inserted = await prisma.$executeRaw`
    INSERT INTO chain_identity (id, genesis_hash, cluster) VALUES (1, ${genesisHash}, ${seen})
    ON CONFLICT (id) DO NOTHING`;
  if (inserted === 1) return 'recorded';
  const recorded = await prisma.chainIdentity.findUniqueOrThrow({ where: { id: 1 } });
  if (recorded.genesisHash === genesisHash) return 'same';
  throw new ChainMismatchError(
    `This database belongs to the chain with genesis hash ${recorded.genesisHash} (first seen at ${recorded.cluster}), but ${seen} answers ${genesisHash}: rewards of one chain are never added to, or paid from, another's database. Point DATABASE_URL at this chain's own database.`,
  );
}

export interface ChainIdentityWatch {
  stop(): void;
}

/**
 * Checks the chain's identity until the RPC answers, every `intervalMs`: a start while the chain is away goes
 * ahead (nothing is paid without the chain) and is stopped by `onMismatch` if the chain, once back, is
 * another.
 */
export function watchChainIdentity(
  check: () => Promise<unknown>,
  logger: Logger,
  onMismatch: (err: ChainMismatchError) => void,
  intervalMs = 5_000,
): ChainIdentityWatch {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async () => {
    try {
      await check();
      logger.info('the chain answered: it is the one this database belongs to');
    } catch (err) {
      if (err instanceof ChainMismatchError) return onMismatch(err);
      logger.warn({ err }, 'the chain did not answer its genesis hash; checking again');
      if (!stopped) timer = setTimeout(retry, intervalMs);
    }
  };
  const retry = () =>
    attempt().catch((err: unknown) => logger.error({ err }, 'the chain identity check failed unexpectedly'));
  timer = setTimeout(retry, intervalMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
