import { getOrCreateAssociatedTokenAccount, mintTo } from '@solana/spl-token';
import { type Connection, LAMPORTS_PER_SOL, type PublicKey } from '@solana/web3.js';
import { toBaseUnits } from '@strm/shared';
import type { ChainInfo } from './genesis.ts';
import { readKeypair } from './keys.ts';

export interface FaucetResult {
  solSignature: string | null;
  strmSignature: string | null;
  tokenAccount: string;
}

/**
 * Local chain only: gives a wallet SOL for fees and STRM to stake, minting with the local mint
 * authority. Nothing like it exists on devnet or mainnet.
 */
export async function fundWallet(
  connection: Connection,
  info: ChainInfo,
  wallet: PublicKey,
  amounts: { sol: number; strm: number },
): Promise<FaucetResult> {
  const authority = readKeypair(info.keypairs.mintAuthority);
  const mint = new (await import('@solana/web3.js')).PublicKey(info.mint);
  let solSignature: string | null = null;
  if (amounts.sol > 0) {
    solSignature = await connection.requestAirdrop(wallet, Math.round(amounts.sol * LAMPORTS_PER_SOL));
    const latest = await connection.getLatestBlockhash();
    await connection.confirmTransaction({ signature: solSignature, ...latest });
  }
  const account = await getOrCreateAssociatedTokenAccount(connection, authority, mint, wallet);
  const strmSignature =
    amounts.strm > 0
      ? await mintTo(connection, authority, mint, account.address, authority, toBaseUnits(amounts.strm))
      : null;
  return { solSignature, strmSignature, tokenAccount: account.address.toBase58() };
}
