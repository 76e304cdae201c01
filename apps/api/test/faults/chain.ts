// The chain as the streamers use it: funded wallets with Tier 1 active, and the transactions they sign.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Connection,
  Keypair,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { type LocalChainInfo, fundWallet } from '@strm/local-chain';
import { activateTierInstructions, miningProgram, readConfig } from '@strm/mining-client';

export interface ChainAccess {
  connection: Connection;
  info: LocalChainInfo;
}

export function chainInfoAt(dir: string): LocalChainInfo {
  return JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as LocalChainInfo;
}

async function send(connection: Connection, signer: Keypair, instructions: TransactionInstruction[]) {
  return sendAndConfirmTransaction(connection, new Transaction().add(...instructions), [signer], {
    commitment: 'confirmed',
  });
}

/** A funded wallet with Tier 1 active on chain, and the activation's signature. */
export async function activatedWallet(localChain: ChainAccess) {
  const keypair = Keypair.generate();
  await fundWallet(localChain.connection, localChain.info, keypair.publicKey, { sol: 2, strm: 20_000 });
  const program = miningProgram(localChain.connection);
  const deposit = (await readConfig(program))?.tiers.find((t) => t.name === 'Tier 1')?.deposit ?? 0n;
  const signature = await send(
    localChain.connection,
    keypair,
    await activateTierInstructions(program, keypair.publicKey, 'Tier 1', deposit),
  );
  return { keypair, signature };
}

export function selfTransfer(localChain: ChainAccess, keypair: Keypair) {
  return send(localChain.connection, keypair, [
    SystemProgram.transfer({ fromPubkey: keypair.publicKey, toPubkey: keypair.publicKey, lamports: 0 }),
  ]);
}
