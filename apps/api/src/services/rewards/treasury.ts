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
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
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

/** Where a wallet is paid: its associated token account of the treasury's mint. */
export interface Destination {
  owner: PublicKey;
  address: PublicKey;
}

/** Destinations kept per treasury, up to this many wallets (the oldest derived first out). */
const DESTINATIONS_KEPT = 50_000;
const destinations = new WeakMap<Treasury, Map<string, Destination>>();

/**
 * The wallet's token account address, derived once and kept: the derivation searches for an address off the
 * ed25519 curve (a point decompression in JavaScript for each bump tried, and one more for the wallet
 * itself), and a rush of 1,000 collects derived each destination twice (the check and the transaction):
 * 0.85 s of the API's CPU in 11 s (docs/benchmarks.md#collects).
 */
export function destinationOf(treasury: Treasury, wallet: string): Destination {
  let kept = destinations.get(treasury);
  if (!kept) {
    kept = new Map();
    destinations.set(treasury, kept);
  }
  let destination = kept.get(wallet);
  if (!destination) {
    const owner = new PublicKey(wallet);
    // `true`: the wallet's own curve check skipped (a point decompression): every wallet here signed in with
    // its key, so it is on the curve.
    destination = { owner, address: getAssociatedTokenAddressSync(treasury.mint, owner, true) };
    if (kept.size >= DESTINATIONS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(wallet, destination);
  }
  return destination;
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
  const instructions = [
    ComputeBudgetProgram.setComputeUnitLimit({
      units: COMPUTE_UNITS_PER_PAYOUT * payouts.length + COMPUTE_UNITS_FOR_MEMO,
    }),
  ];
  for (const payout of payouts) {
    const { owner, address: destination } = destinationOf(treasury, payout.wallet);
    instructions.push(
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
  instructions.push(
    new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: Buffer.from(memo, 'utf8') }),
  );
  // The message compiled once, its keys deduplicated through a map (TransactionMessage): Transaction's sign
  // and serialize would each compile it again, comparing every key with every other. A legacy message in a
  // VersionedTransaction serialises to the bytes of a legacy transaction.
  const message = new TransactionMessage({
    payerKey: payer,
    recentBlockhash: recent.blockhash,
    instructions,
  }).compileToLegacyMessage();
  const signed = new VersionedTransaction(message);
  signed.sign([treasury.owner]);
  return {
    signature: bs58.encode(signed.signatures[0]!),
    transaction: Buffer.from(signed.serialize()).toString('base64'),
    lastValidBlockHeight: BigInt(recent.lastValidBlockHeight),
  };
}
