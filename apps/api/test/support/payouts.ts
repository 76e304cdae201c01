// Many wallets at once for the payout tests and bench:collect: funded with SOL for the collect proof's fee,
// each with a pending reward in the database (as mining leaves it).
import { Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { readKeypair } from '@strm/local-chain';
import pino from 'pino';
import type { Logger } from '../../src/logger.ts';
import type { Treasury } from '../../src/services/rewards/treasury.ts';
import type { EngineServer, TestChain } from './engine-harness.ts';

/** `n` fresh wallets with 0.1 SOL each (airdrops, `batch` at a time, each confirmed). */
export async function fundedWallets(chain: TestChain, n: number, batch = 50): Promise<Keypair[]> {
  const connection = chain.local.connection;
  const wallets = Array.from({ length: n }, () => Keypair.generate());
  for (let i = 0; i < n; i += batch) {
    await Promise.all(
      wallets.slice(i, i + batch).map(async (w) => {
        const signature = await connection.requestAirdrop(w.publicKey, LAMPORTS_PER_SOL / 10);
        const latest = await connection.getLatestBlockhash('confirmed');
        await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
      }),
    );
  }
  return wallets;
}

/** Streamer rows for `wallets`, each with `units` pending. */
export async function pendingStreamers(server: EngineServer, wallets: Keypair[], units: bigint) {
  await server.prisma.streamer.createMany({
    data: wallets.map((w) => ({ wallet: w.publicKey.toBase58(), pendingRewardUnits: units })),
  });
}

/** The local chain's treasury, as the server pays from it. */
export function localTreasury(chain: TestChain): Treasury {
  return {
    owner: readKeypair(chain.local.info.keypairs.treasuryOwner),
    mint: new PublicKey(chain.local.info.mint),
    tokenAccount: new PublicKey(chain.local.info.treasuryTokenAccount),
    decimals: 6,
  };
}

/** A logger at warn whose lines are kept, parsed, for a test to read. */
export function keptLogs(): { lines: Array<Record<string, unknown>>; logger: Logger } {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
  };
}
