// The conformance suites' shared setup: each file runs against one local chain, started before its tests
// (genesis makes the mint, the authority and the program's config), and funds wallets and sends
// transactions through the public client libraries, as the apps do.
import { createAssociatedTokenAccount, mintTo } from '@solana/spl-token';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  Transaction,
  type TransactionInstruction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import { type MiningProgram, miningProgram, programErrorOf } from '@strm/mining-client';
import { afterAll, beforeAll, expect } from 'vitest';
import { readKeypair } from '../ts/index.ts';
import { startTestChain } from './support.ts';

export let chain: Awaited<ReturnType<typeof startTestChain>>;
export let program: MiningProgram;
export let mint: PublicKey;
export let authority: Keypair;
export const UNIT = 1_000_000n;

/** Between two reads of a poll (how often to ask, not how long to wait). */
export const pollInterval = () => new Promise((r) => setTimeout(r, 50));

/** Starts the file's chain before its tests and stops it after them. */
export function useConformanceChain(): void {
  beforeAll(async () => {
    chain = await startTestChain();
    program = miningProgram(chain.connection);
    mint = new PublicKey(chain.info.mint);
    authority = readKeypair(chain.info.keypairs.authority);
  });
  afterAll(() => chain?.stop());
}

export async function fundedWallet(strm = 0n): Promise<Keypair> {
  const wallet = Keypair.generate();
  const signature = await chain.connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL);
  await chain.connection.confirmTransaction({ signature, ...(await chain.connection.getLatestBlockhash()) });
  const ata = await createAssociatedTokenAccount(chain.connection, wallet, mint, wallet.publicKey);
  if (strm > 0n) await mintTo(chain.connection, authority, mint, ata, authority, strm * UNIT);
  return wallet;
}

export function send(instructions: TransactionInstruction[], signers: Keypair[]) {
  return sendAndConfirmTransaction(chain.connection, new Transaction().add(...instructions), signers, {
    commitment: 'confirmed',
  });
}

export async function expectProgramError(promise: Promise<unknown>, code: number) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected program error ${code}`).not.toBeNull();
  expect(err).toBeInstanceOf(SendTransactionError);
  expect(programErrorOf(err)?.code).toBe(code);
}
