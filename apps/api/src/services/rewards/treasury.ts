// The treasury pays rewards: a token account of the STRM mint owned by a keypair the server holds.
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  type Connection,
  type Keypair,
  PublicKey,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
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

/** SPL Memo v3 (on every cluster, and on the local chain). */
const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * Signs (does not send) the transfer of `amount` base units to the wallet's token account (created when
 * missing). `reference` (the claim) goes in a memo: two payouts of the same amount to the same wallet under
 * one blockhash would otherwise be the same transaction, with the same signature, and the second claim could
 * neither be recorded nor paid.
 */
export async function signPayout(
  connection: Connection,
  treasury: Treasury,
  wallet: string,
  amount: bigint,
  reference?: string,
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
  if (reference) {
    tx.add(
      new TransactionInstruction({
        programId: MEMO_PROGRAM_ID,
        keys: [],
        data: Buffer.from(reference, 'utf8'),
      }),
    );
  }
  tx.sign(treasury.owner);
  return {
    signature: bs58.encode(tx.signature!),
    transaction: tx.serialize().toString('base64'),
    lastValidBlockHeight: BigInt(lastValidBlockHeight),
  };
}
