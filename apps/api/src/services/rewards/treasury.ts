// The treasury pays rewards: a token account of the STRM mint owned by a keypair the server holds.
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  type Connection,
  Keypair,
  PublicKey,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { readFileSync } from 'node:fs';
import { type MiningProgram, readConfig } from '@strm/mining-client';
import { PRODUCT, TOKEN_DECIMALS } from '@strm/shared';
import bs58 from 'bs58';
import type { AppDeps } from '../../deps.ts';

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

/** A keypair file in the Solana CLI's format (a JSON array of the 64 secret-key bytes). */
function readKeypair(path: string): Keypair {
  return Keypair.fromSecretKey(Uint8Array.from(JSON.parse(readFileSync(path, 'utf8'))));
}

/**
 * The local chain's treasury (chain.json), or TREASURY_KEYPAIR_PATH's token account of the config's mint;
 * null when neither is there or the program has no config yet.
 */
export async function treasuryOf(
  deps: Pick<AppDeps, 'localChainInfo' | 'config'>,
  program: MiningProgram,
): Promise<Treasury | null> {
  if (deps.localChainInfo) {
    const mint = new PublicKey(deps.localChainInfo.mint);
    return {
      owner: readKeypair(deps.localChainInfo.keypairs.treasuryOwner),
      mint,
      tokenAccount: new PublicKey(deps.localChainInfo.treasuryTokenAccount),
      decimals: deps.localChainInfo.decimals,
    };
  }
  if (!deps.config.treasuryKeypairPath) return null;
  const owner = readKeypair(deps.config.treasuryKeypairPath);
  const onChain = await readConfig(program);
  if (!onChain) return null;
  if (onChain.tokenDecimals !== TOKEN_DECIMALS) throw new Error(decimalsRefusal(onChain.tokenDecimals));
  return {
    owner,
    mint: onChain.tokenMint,
    tokenAccount: getAssociatedTokenAddressSync(onChain.tokenMint, owner.publicKey),
    decimals: onChain.tokenDecimals,
  };
}

/** The mint's decimals differ from what every amount here assumes (TOKEN_DECIMALS). */
export function decimalsRefusal(onChain: number): string {
  return (
    `The mining program's config names a mint with ${onChain} decimals, but ${PRODUCT} amounts here assume ` +
    `${TOKEN_DECIMALS}: payouts would be ${onChain > TOKEN_DECIMALS ? `${10 ** (onChain - TOKEN_DECIMALS)}× too small` : `${10 ** (TOKEN_DECIMALS - onChain)}× too large`}. Initialise the program with a ${TOKEN_DECIMALS}-decimal mint.`
  );
}

export async function treasuryBalance(connection: Connection, treasury: Treasury): Promise<bigint> {
  const { value } = await connection.getTokenAccountBalance(treasury.tokenAccount, 'confirmed');
  return BigInt(value.amount);
}

/** SPL Memo v3 (on every cluster, and on the local chain). */
const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * Creating a token account and transferring to it measured 28,000-37,000 compute units (the account's address
 * search varies), the memo up to 6,000: room for the worst of each. Unused units cost nothing.
 */
const COMPUTE_UNITS_PER_PAYOUT = 60_000;
const COMPUTE_UNITS_FOR_MEMO = 30_000;

export interface Payout {
  wallet: string;
  amountUnits: bigint;
}

/**
 * Signs (does not send) one transaction paying each payout to its wallet's token account (created when
 * missing). `memo` names what it pays (the claims): two payouts of the same amounts to the same wallets under
 * one blockhash would otherwise be the same transaction, with the same signature.
 */
export function signPayouts(
  treasury: Treasury,
  payouts: Payout[],
  memo: string,
  recent: { blockhash: string; lastValidBlockHeight: number },
): SignedPayout {
  const payer = treasury.owner.publicKey;
  const tx = new Transaction({ feePayer: payer, ...recent });
  tx.add(
    ComputeBudgetProgram.setComputeUnitLimit({
      units: COMPUTE_UNITS_PER_PAYOUT * payouts.length + COMPUTE_UNITS_FOR_MEMO,
    }),
  );
  for (const payout of payouts) {
    const owner = new PublicKey(payout.wallet);
    const destination = getAssociatedTokenAddressSync(treasury.mint, owner);
    tx.add(
      createAssociatedTokenAccountIdempotentInstruction(payer, destination, owner, treasury.mint),
      createTransferCheckedInstruction(
        treasury.tokenAccount,
        treasury.mint,
        destination,
        payer,
        payout.amountUnits,
        treasury.decimals,
      ),
    );
  }
  tx.add(
    new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: Buffer.from(memo, 'utf8') }),
  );
  tx.sign(treasury.owner);
  return {
    signature: bs58.encode(tx.signature!),
    transaction: tx.serialize().toString('base64'),
    lastValidBlockHeight: BigInt(recent.lastValidBlockHeight),
  };
}
