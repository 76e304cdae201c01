// The treasury pays rewards: a token account of the STRM mint owned by a keypair the server holds.
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { type Connection, type Keypair, PublicKey, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';

export interface Treasury {
  owner: Keypair;
  mint: PublicKey;
  tokenAccount: PublicKey;
  decimals: number;
}

export interface SignedPayout {
  signature: string;
  /** The signed transaction, base64 (stored before sending). */
  transaction: string;
  lastValidBlockHeight: bigint;
}

export async function treasuryBalance(connection: Connection, treasury: Treasury): Promise<bigint> {
  const { value } = await connection.getTokenAccountBalance(treasury.tokenAccount, 'confirmed');
  return BigInt(value.amount);
}

/** Signs (does not send) the transfer of `amount` base units to the wallet's token account (created when missing). */
export async function signPayout(
  connection: Connection,
  treasury: Treasury,
  wallet: string,
  amount: bigint,
): Promise<SignedPayout> {
  const owner = new PublicKey(wallet);
  const destination = getAssociatedTokenAddressSync(treasury.mint, owner);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: treasury.owner.publicKey, blockhash, lastValidBlockHeight }).add(
    createAssociatedTokenAccountIdempotentInstruction(
      treasury.owner.publicKey,
      destination,
      owner,
      treasury.mint,
    ),
    createTransferCheckedInstruction(
      treasury.tokenAccount,
      treasury.mint,
      destination,
      treasury.owner.publicKey,
      amount,
      treasury.decimals,
    ),
  );
  tx.sign(treasury.owner);
  return {
    signature: bs58.encode(tx.signature!),
    transaction: tx.serialize().toString('base64'),
    lastValidBlockHeight: BigInt(lastValidBlockHeight),
  };
}
