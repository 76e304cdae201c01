import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  type Connection,
  LAMPORTS_PER_SOL,
  PublicKey,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js';
import { toBaseUnits } from '@strm/shared';
import type { LocalChainInfo } from './genesis.ts';
import { readKeypair } from './keys.ts';

export interface FaucetResult {
  solSignature: string | null;
  strmSignature: string | null;
  tokenAccount: string;
}

/**
 * Local chain only: gives a wallet SOL for fees and STRM to stake, minting with the local mint
 * authority. Nothing like it exists on devnet or mainnet. Two transactions: the airdrop, then the token
 * account (created if missing) and the mint in one (the local chain runs transactions one at a time, so
 * preparing thousands of wallets is bound by how many each takes).
 */
export async function fundWallet(
  connection: Connection,
  info: LocalChainInfo,
  wallet: PublicKey,
  amounts: { sol: number; strm: number },
): Promise<FaucetResult> {
  const authority = readKeypair(info.keypairs.mintAuthority);
  const mint = new PublicKey(info.mint);
  let solSignature: string | null = null;
  if (amounts.sol > 0) {
    solSignature = await connection.requestAirdrop(wallet, Math.round(amounts.sol * LAMPORTS_PER_SOL));
    const latest = await connection.getLatestBlockhash();
    await connection.confirmTransaction({ signature: solSignature, ...latest });
  }
  const tokenAccount = getAssociatedTokenAddressSync(mint, wallet);
  const tx = new Transaction().add(
    createAssociatedTokenAccountIdempotentInstruction(authority.publicKey, tokenAccount, wallet, mint),
  );
  if (amounts.strm > 0) {
    tx.add(createMintToInstruction(mint, tokenAccount, authority.publicKey, toBaseUnits(amounts.strm)));
  }
  const signature = await sendAndConfirmTransaction(connection, tx, [authority], { commitment: 'confirmed' });
  return {
    solSignature,
    strmSignature: amounts.strm > 0 ? signature : null,
    tokenAccount: tokenAccount.toBase58(),
  };
}
