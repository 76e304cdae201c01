import { PublicKey } from '@solana/web3.js';
import { miningProgram, readConfig } from '@strm/mining-client';
import type { Rpc } from '../rpc/rpc.ts';
import { DomainError } from '../errors.ts';

const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

/** The product token's mint, from the mining program's on-chain config (the chain is the truth). */
export async function productMint(rpc: Rpc): Promise<PublicKey> {
  const config = await readConfig(miningProgram(rpc.connection));
  if (!config)
    throw new DomainError('chain_unavailable', 'The mining program is not initialized on this cluster');
  return config.tokenMint;
}

/**
 * The wallet's balance of the product token in base units, summed over its token accounts of that mint
 * (0 without one). An unreachable chain is a 503: the server never guesses a balance.
 */
export async function tokenBalanceUnits(rpc: Rpc, wallet: string): Promise<bigint> {
  try {
    const mint = await productMint(rpc);
    const { value } = await rpc.connection.getParsedTokenAccountsByOwner(
      new PublicKey(wallet),
      { programId: TOKEN_PROGRAM_ID },
      'confirmed',
    );
    return value
      .map((a) => a.account.data.parsed?.info)
      .filter((info) => info?.mint === mint.toBase58())
      .reduce((sum, info) => sum + BigInt(info.tokenAmount.amount), 0n);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new DomainError(
      'chain_unavailable',
      'Could not read the token balance from the chain, please try again',
    );
  }
}
