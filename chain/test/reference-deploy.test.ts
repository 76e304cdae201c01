// mining.so deployed as an operator deploys it to devnet, on agave's own validator: through the upgradeable
// loader's normal path (a buffer written in chunks, deployed, upgraded by its authority and refused to anyone
// else), with nothing but RPC. Runs in the reference lane (pnpm test:reference); docs/program.md#deploying-to-a-cluster.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalChain, startLocalChain } from '../ts/index.ts';
import { freePortPair } from './support.ts';

const LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Bytes of program code per Write instruction: what fits a 1,232-byte transaction beside two signatures. */
const CHUNK = 900;
/** The loader's account headers (UpgradeableLoaderState): buffer 37 bytes, program 36, ProgramData 45. */
const BUFFER_HEADER = 37;
const PROGRAM_SIZE = 36;
const PROGRAM_DATA_HEADER = 45;

/** A loader instruction's data: its bincode tag (u32 LE), then its fields. */
function loaderData(tag: number, ...fields: Buffer[]): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(tag);
  return Buffer.concat([head, ...fields]);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

const w = (pubkey: PublicKey, isSigner = false) => ({ pubkey, isSigner, isWritable: true });
const r = (pubkey: PublicKey, isSigner = false) => ({ pubkey, isSigner, isWritable: false });

function programDataOf(program: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([program.toBuffer()], LOADER)[0];
}

/** Creates a buffer owned by `authority` and writes `code` into it, chunks in flight together. */
async function writeBuffer(connection: Connection, payer: Keypair, authority: Keypair, code: Buffer) {
  const buffer = Keypair.generate();
  const size = BUFFER_HEADER + code.length;
  await sendAndConfirmTransaction(
    connection,
    new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: buffer.publicKey,
        lamports: await connection.getMinimumBalanceForRentExemption(size),
        space: size,
        programId: LOADER,
      }),
      new TransactionInstruction({
        programId: LOADER,
        keys: [w(buffer.publicKey), r(authority.publicKey)],
        data: loaderData(0),
      }),
    ),
    [payer, buffer],
    { commitment: 'confirmed' },
  );
  const writes: Promise<string>[] = [];
  for (let offset = 0; offset < code.length; offset += CHUNK) {
    const bytes = code.subarray(offset, offset + CHUNK);
    const write = new TransactionInstruction({
      programId: LOADER,
      keys: [w(buffer.publicKey), r(authority.publicKey, true)],
      data: loaderData(1, u32(offset), u64(bytes.length), bytes),
    });
    writes.push(
      sendAndConfirmTransaction(connection, new Transaction().add(write), [payer, authority], {
        commitment: 'confirmed',
      }),
    );
  }
  await Promise.all(writes).catch(async (err: unknown) => {
    // web3.js names only "Simulation failed": the answer's own error and logs say which and why.
    if (!(err instanceof SendTransactionError)) throw err;
    const logs = (await err.getLogs(connection).catch(() => [])) ?? [];
    throw new Error(`a buffer write failed: ${JSON.stringify(err.transactionError)}\n${logs.join('\n')}`);
  });
  return buffer.publicKey;
}

function setBufferAuthority(buffer: PublicKey, current: PublicKey, next: PublicKey) {
  return new TransactionInstruction({
    programId: LOADER,
    keys: [w(buffer), r(current, true), r(next)],
    data: loaderData(4),
  });
}

function upgrade(program: PublicKey, buffer: PublicKey, spill: PublicKey, authority: PublicKey) {
  return new TransactionInstruction({
    programId: LOADER,
    keys: [
      w(programDataOf(program)),
      w(program),
      w(buffer),
      w(spill),
      r(SYSVAR_RENT_PUBKEY),
      r(SYSVAR_CLOCK_PUBKEY),
      r(authority, true),
    ],
    data: loaderData(3),
  });
}

let chain: LocalChain;
let dataDir: string;
let payer: Keypair;
const code = readFileSync(join(repoRoot, 'target', 'deploy', 'mining.so'));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'strm-reference-deploy-'));
  chain = await startLocalChain({ dataDir, rpcPort: await freePortPair(), reset: true, validator: 'agave' });
  payer = Keypair.generate();
  const airdrop = await chain.connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL);
  await chain.connection.confirmTransaction({
    signature: airdrop,
    ...(await chain.connection.getLatestBlockhash()),
  });
});

afterAll(async () => {
  await chain?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('mining.so through the upgradeable loader on agave’s validator', () => {
  const program = Keypair.generate();
  const stranger = Keypair.generate();

  it('is written to a buffer and deployed, and then runs', { timeout: 300_000 }, async () => {
    const buffer = await writeBuffer(chain.connection, payer, payer, code);
    const programData = programDataOf(program.publicKey);
    await sendAndConfirmTransaction(
      chain.connection,
      new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: program.publicKey,
          lamports: await chain.connection.getMinimumBalanceForRentExemption(PROGRAM_SIZE),
          space: PROGRAM_SIZE,
          programId: LOADER,
        }),
        new TransactionInstruction({
          programId: LOADER,
          keys: [
            w(payer.publicKey, true),
            w(programData),
            w(program.publicKey),
            w(buffer),
            r(SYSVAR_RENT_PUBKEY),
            r(SYSVAR_CLOCK_PUBKEY),
            r(SystemProgram.programId),
            r(payer.publicKey, true),
          ],
          // DeployWithMaxDataLen: room to upgrade to a program twice this size.
          data: loaderData(2, u64(code.length * 2)),
        }),
      ),
      [payer, program],
      { commitment: 'confirmed' },
    );
    const account = await chain.connection.getAccountInfo(programData, 'confirmed');
    expect(account?.data.subarray(PROGRAM_DATA_HEADER, PROGRAM_DATA_HEADER + code.length).equals(code)).toBe(
      true,
    );
    // The upgrade authority, as `solana program show` reads it: Option<Pubkey> after the state tag and slot.
    expect(new PublicKey(account!.data.subarray(13, 45)).equals(payer.publicKey)).toBe(true);

    // It executes (from the next slot): Anchor's entrypoint answers an instruction it does not know, and its
    // id check refuses an address that is not the one it declares, both as program errors from inside the VM.
    await new Promise((slot) => setTimeout(slot, 1_000));
    const error = await sendAndConfirmTransaction(
      chain.connection,
      new Transaction().add(
        new TransactionInstruction({ programId: program.publicKey, keys: [], data: Buffer.alloc(8) }),
      ),
      [payer],
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SendTransactionError);
    const logs = (await (error as SendTransactionError).getLogs(chain.connection)) ?? [];
    expect(logs.join('\n')).toMatch(/consumed \d+ of \d+ compute units/);
    expect(logs.join('\n')).toContain(`Program ${program.publicKey.toBase58()} failed: custom program error`);
  });

  it('is upgraded by its authority only', { timeout: 300_000 }, async () => {
    const buffer = await writeBuffer(chain.connection, payer, payer, code);
    const programData = programDataOf(program.publicKey);
    const slotBefore = (await chain.connection.getAccountInfo(
      programData,
      'confirmed',
    ))!.data.readBigUInt64LE(4);

    // Someone else, with the buffer handed to them, is refused: the ProgramData names another authority.
    await sendAndConfirmTransaction(
      chain.connection,
      new Transaction().add(setBufferAuthority(buffer, payer.publicKey, stranger.publicKey)),
      [payer],
      { commitment: 'confirmed' },
    );
    const refused = await sendAndConfirmTransaction(
      chain.connection,
      new Transaction().add(upgrade(program.publicKey, buffer, stranger.publicKey, stranger.publicKey)),
      [payer, stranger],
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SendTransactionError);
    const why = `${(refused as Error).message}\n${((await (refused as SendTransactionError).getLogs(chain.connection)) ?? []).join('\n')}`;
    expect(why).toMatch(/incorrect (upgrade )?authority/i);

    // The authority upgrades: the ProgramData is rewritten at a later slot and the buffer's rent is spilled.
    await sendAndConfirmTransaction(
      chain.connection,
      new Transaction().add(setBufferAuthority(buffer, stranger.publicKey, payer.publicKey)),
      [payer, stranger],
      { commitment: 'confirmed' },
    );
    await sendAndConfirmTransaction(
      chain.connection,
      new Transaction().add(upgrade(program.publicKey, buffer, payer.publicKey, payer.publicKey)),
      [payer],
      { commitment: 'confirmed' },
    );
    const after = await chain.connection.getAccountInfo(programData, 'confirmed');
    expect(after!.data.readBigUInt64LE(4)).toBeGreaterThan(slotBefore);
    expect(after!.data.subarray(PROGRAM_DATA_HEADER, PROGRAM_DATA_HEADER + code.length).equals(code)).toBe(
      true,
    );
    expect(await chain.connection.getAccountInfo(buffer, 'confirmed')).toBeNull();
  });
});
