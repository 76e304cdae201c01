// The mining program on the local chain through @strm/mining-client (Anchor), as the apps call it: the
// genesis config, activation and deactivation, the authority's handover, and each program error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BorshAccountsCoder } from '@coral-xyz/anchor';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { ComputeBudgetProgram, PublicKey, SystemProgram } from '@solana/web3.js';
import {
  acceptAuthorityInstruction,
  activateTierInstructions,
  addTierInstruction,
  configPda,
  deactivateTierInstruction,
  holdingsAddress,
  programDataAddress,
  proposeAuthorityInstruction,
  readConfig,
  readStreamer,
  readUpgradeAuthority,
  removeTierInstruction,
  streamerPda,
  streamerStatus,
  tokenBalance,
} from '@strm/mining-client';
import idl from '@strm/mining-client/idl/mining.json' with { type: 'json' };
import BN from 'bn.js';
import { describe, expect, it } from 'vitest';
import { CHEAT_TOKEN_HEADER, chainProgramChoice } from '../ts/index.ts';
import { rpc } from './support.ts';
import {
  UNIT,
  authority,
  chain,
  expectProgramError,
  fundedWallet,
  mint,
  program,
  send,
  useConformanceChain,
} from './conformance-support.ts';

useConformanceChain();

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAM_DATA_HEADER = 45;

/** activate_tier built by hand, past the client's own checks, so that the program's refusal is what is seen. */
function handBuiltActivation(wallet: PublicKey, tier: string, deposit: bigint) {
  return program.methods
    .activateTier(tier, new BN(deposit.toString()))
    .accountsStrict({
      wallet,
      config: configPda(),
      streamer: streamerPda(wallet),
      tokenMint: mint,
      walletTokenAccount: getAssociatedTokenAddressSync(mint, wallet),
      holdings: holdingsAddress(wallet, mint),
      tokenProgram: TOKEN_PROGRAM_ID,
      associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
      systemProgram: SystemProgram.programId,
    })
    .instruction();
}

describe('the mining program through the TS client', () => {
  it('starts with the config and the nine default tiers from genesis', async () => {
    const config = await readConfig(program);
    expect(config?.tokenMint.toBase58()).toBe(chain.info.mint);
    expect(config?.tokenDecimals).toBe(6);
    expect(config?.tiers.map((t) => t.name)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `Tier ${i}`));
    expect(config?.tiers[8]?.deposit).toBe(1_000_000n * UNIT);
  });

  it('was initialised by the program’s upgrade authority, recorded in its ProgramData', async () => {
    const authorityKey = new PublicKey(chain.info.authority);
    expect((await readUpgradeAuthority(chain.connection))?.equals(authorityKey)).toBe(true);
    expect((await readConfig(program))?.authority.equals(authorityKey)).toBe(true);
    // The ProgramData is the loader's account, at the address the loader derives from the program id.
    const programData = await chain.connection.getAccountInfo(programDataAddress());
    expect(programData?.owner.toBase58()).toBe('BPFLoaderUpgradeab1e11111111111111111111111');
  });

  it('runs the program STRM_TEST_CHAIN_PROGRAM asks for, deployed as anchor deploy leaves it', async () => {
    // The chain's ready line says which one it took. agave's validator has no native programs: it runs the SBF
    // build whatever was asked. `auto` is the SBF build where it is set up: always under CI, which sets it up
    // before the suites (scripts/sbf/test.mjs); elsewhere only the ready line can tell.
    const asked = chainProgramChoice(undefined, true);
    const ci = process.env.CI === 'true' || process.env.CI === '1';
    const expected =
      chain.validator === 'agave' || asked === 'sbf' || (asked === 'auto' && ci)
        ? 'SBF'
        : asked === 'native'
          ? 'native'
          : chain.program;
    expect(chain.program).toBe(expected);
    const sbf = chain.program === 'SBF';
    const programData = await chain.connection.getAccountInfo(programDataAddress());
    // The loader's ProgramData header (45 bytes: state, slot, upgrade authority), then the program's code:
    // the SBF build itself, or none for the native program.
    const code = programData?.data.subarray(PROGRAM_DATA_HEADER);
    expect(
      code?.equals(sbf ? readFileSync(join(repoRoot, 'target/deploy/mining.so')) : Buffer.alloc(0)),
    ).toBe(true);
    const account = await chain.connection.getAccountInfo(program.programId);
    expect(account?.executable).toBe(true);
    expect(account?.owner.toBase58()).toBe(
      sbf ? 'BPFLoaderUpgradeab1e11111111111111111111111' : 'NativeLoader1111111111111111111111111111111',
    );
  });

  it('activates only at the deposit the user agreed to', async () => {
    const wallet = await fundedWallet(1000n);
    // The client refuses a deposit that is no longer the tier's before anything is signed…
    await expect(activateTierInstructions(program, wallet.publicKey, 'Tier 1', 900n * UNIT)).rejects.toThrow(
      "The tier's deposit has changed.",
    );
    // …and the program refuses it when it changed after signing (6007).
    const repriced = await handBuiltActivation(wallet.publicKey, 'Tier 1', 900n * UNIT);
    await expectProgramError(send([repriced], [wallet]), 6007);
    expect(await tokenBalance(chain.connection, wallet.publicKey, mint)).toBe(1000);
  });

  it('hands the authority over in two steps (and back)', async () => {
    const successor = await fundedWallet();
    await send(
      [await proposeAuthorityInstruction(program, authority.publicKey, successor.publicKey)],
      [authority],
    );
    expect((await readConfig(program))?.pendingAuthority?.equals(successor.publicKey)).toBe(true);
    expect((await readConfig(program))?.authority.equals(authority.publicKey)).toBe(true);
    await send([await acceptAuthorityInstruction(program, successor.publicKey)], [successor]);
    expect((await readConfig(program))?.authority.equals(successor.publicKey)).toBe(true);
    await expectProgramError(
      send(
        [await addTierInstruction(program, authority.publicKey, { name: 'Old key', deposit: 1n })],
        [authority],
      ),
      6000,
    );
    await send(
      [await proposeAuthorityInstruction(program, successor.publicKey, authority.publicKey)],
      [successor],
    );
    await send([await acceptAuthorityInstruction(program, authority.publicKey)], [authority]);
    const config = await readConfig(program);
    expect(config?.authority.equals(authority.publicKey)).toBe(true);
    expect(config?.pendingAuthority).toBeNull();
  });

  it('activates a wallet whose record and holdings addresses were sent lamports first (no init griefing)', async () => {
    // Anyone can send lamports to the addresses of a wallet's future record and holdings.
    const wallet = await fundedWallet(6000n);
    const record = streamerPda(wallet.publicKey);
    const holdings = holdingsAddress(wallet.publicKey, mint);
    const gift = async (to: PublicKey, lamports: number) => {
      const signature = await chain.connection.requestAirdrop(to, lamports);
      await chain.connection.confirmTransaction({
        signature,
        ...(await chain.connection.getLatestBlockhash()),
      });
    };
    await gift(record, 1_000_000);
    await gift(holdings, 2_000_000);
    const before = await chain.connection.getBalance(wallet.publicKey);

    await send(await activateTierInstructions(program, wallet.publicKey, 'Tier 2', 5000n * UNIT), [wallet]);
    expect(await tokenBalance(chain.connection, record, mint)).toBe(5000);
    // Closing returns every lamport of both accounts, the gifts included, to the wallet (less two fees).
    await send([await deactivateTierInstruction(program, wallet.publicKey)], [wallet]);
    expect(await chain.connection.getBalance(wallet.publicKey)).toBe(before + 3_000_000 - 2 * 5000);
    expect(await chain.connection.getAccountInfo(record)).toBeNull();
    expect(await chain.connection.getAccountInfo(holdings)).toBeNull();
  });

  it('activates a tier, shows the streamer, indexes the event, and deactivates with the deposit back', async () => {
    const wallet = await fundedWallet(6000n);
    const lamportsBefore = await chain.connection.getBalance(wallet.publicKey);
    await send(await activateTierInstructions(program, wallet.publicKey, 'Tier 2', 5000n * UNIT), [wallet]);

    expect(await streamerStatus(program, wallet.publicKey)).toEqual({ activeTier: 'Tier 2', isMining: true });
    const streamer = await readStreamer(program, wallet.publicKey);
    expect(streamer?.deposited).toBe(5000n * UNIT);
    expect(await tokenBalance(chain.connection, wallet.publicKey, mint)).toBe(1000);
    const holdings = await chain.connection.getParsedAccountInfo(holdingsAddress(wallet.publicKey, mint));
    expect(holdings.value?.data).toMatchObject({
      parsed: { info: { owner: streamerPda(wallet.publicKey).toBase58(), tokenAmount: { uiAmount: 5000 } } },
    });

    // The streamer record is found by wallet with a memcmp filter (after the 8-byte discriminator).
    const found = await chain.connection.getProgramAccounts(program.programId, {
      filters: [{ memcmp: { offset: 8, bytes: wallet.publicKey.toBase58() } }],
    });
    expect(found.map((a) => a.pubkey.toBase58())).toEqual([streamerPda(wallet.publicKey).toBase58()]);

    const deactivation = await send([await deactivateTierInstruction(program, wallet.publicKey)], [wallet]);
    expect(await streamerStatus(program, wallet.publicKey)).toEqual({ activeTier: null, isMining: false });
    expect(await tokenBalance(chain.connection, wallet.publicKey, mint)).toBe(6000);
    // The record and the holdings are closed: their rent is back, the wallet paid only two fees.
    expect(await chain.connection.getAccountInfo(streamerPda(wallet.publicKey))).toBeNull();
    expect(await chain.connection.getAccountInfo(holdingsAddress(wallet.publicKey, mint))).toBeNull();
    expect(await chain.connection.getBalance(wallet.publicKey)).toBe(lamportsBefore - 2 * 5000);

    const tx = await chain.connection.getTransaction(deactivation, { maxSupportedTransactionVersion: 0 });
    const events = (tx?.meta?.logMessages ?? []).filter((l) => l.startsWith('Program data: '));
    expect(events).toHaveLength(1);
  });

  it('records inner instructions and compute units as a validator shows them', async () => {
    const wallet = await fundedWallet(6000n);
    const signature = await send(
      await activateTierInstructions(program, wallet.publicKey, 'Tier 2', 5000n * UNIT),
      [wallet],
    );
    const tx = await chain.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const keys = tx?.transaction.message.staticAccountKeys.map((k) => k.toBase58()) ?? [];
    const activation = tx?.transaction.message.compiledInstructions.findIndex(
      (ix) => keys[ix.programIdIndex] === program.programId.toBase58(),
    );
    // The activation's CPI into SPL Token (the deposit's transfer), one level down.
    const inner = tx?.meta?.innerInstructions?.find((i) => i.index === activation);
    expect(inner?.instructions.map((ix) => keys[ix.programIdIndex])).toContain(TOKEN_PROGRAM_ID.toBase58());
    expect(inner?.instructions.every((ix) => (ix as { stackHeight?: number }).stackHeight === 2)).toBe(true);
    // Instructions that made no inner call have no entry, as on a validator.
    expect(tx?.meta?.innerInstructions?.every((i) => i.instructions.length > 0)).toBe(true);
    expect(tx?.meta?.logMessages).toContain(`Program ${TOKEN_PROGRAM_ID.toBase58()} invoke [2]`);
    expect(tx?.meta?.computeUnitsConsumed).toBeGreaterThan(0);
    // The SBF build is metered as on a cluster (its line names the units its CPIs took too); the native
    // program is not.
    const metered = tx?.meta?.logMessages?.find((l) =>
      l.startsWith(`Program ${program.programId} consumed `),
    );
    const units = metered === undefined ? undefined : Number(metered.split(' ')[3]);
    const seen =
      units === undefined ? 'not metered' : units > 10_000 ? 'metered' : `metered at ${units} units`;
    expect(seen).toBe(chain.program === 'SBF' ? 'metered' : 'not metered');
  });

  it('surfaces each program error 6000-6006 with its code', async () => {
    const wallet = await fundedWallet(2000n);
    const intruder = await fundedWallet();

    // 6000 Unauthorized: a tier change not signed by the authority.
    await expectProgramError(
      send(
        [await addTierInstruction(program, intruder.publicKey, { name: 'Free', deposit: 1n })],
        [intruder],
      ),
      6000,
    );
    // 6001 AlreadyActive.
    await send(await activateTierInstructions(program, wallet.publicKey, 'Tier 1', 1000n * UNIT), [wallet]);
    await expectProgramError(
      send(await activateTierInstructions(program, wallet.publicKey, 'Tier 1', 1000n * UNIT), [wallet]),
      6001,
    );
    // 6005 InvalidHoldingsAccount: the wallet's own token account named as holdings.
    const ix = await deactivateTierInstruction(program, wallet.publicKey);
    const holdingsIndex = ix.keys.findIndex((k) => k.pubkey.equals(holdingsAddress(wallet.publicKey, mint)));
    ix.keys[holdingsIndex]!.pubkey = getAssociatedTokenAddressSync(mint, wallet.publicKey);
    await expectProgramError(send([ix], [wallet]), 6005);
    // 6002 NotActive: deactivation closes the record, so the client says it before sending, and the
    // program finds no record at all (Anchor's AccountNotInitialized, 3012 = 0xbc4).
    const deactivation = await deactivateTierInstruction(program, wallet.publicKey);
    await send([deactivation], [wallet]);
    await expect(deactivateTierInstruction(program, wallet.publicKey)).rejects.toThrow(
      'Not an active miner.',
    );
    // (A compute-unit limit makes it a new transaction even within the same blockhash.)
    const again = [ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }), deactivation];
    await expect(send(again, [wallet])).rejects.toThrow(/custom program error: 0xbc4/);
    // 6003 InvalidTier: the client refuses an unknown tier itself ('Tier not found'), so build it by hand.
    await expect(activateTierInstructions(program, wallet.publicKey, 'Tier 42', UNIT)).rejects.toThrow(
      'Tier not found',
    );
    const unknownTier = await handBuiltActivation(wallet.publicKey, 'Tier 42', UNIT);
    await expectProgramError(send([unknownTier], [wallet]), 6003);

    // 6004 MaxTiersReached: the authority fills the table (16), one more is refused; then tidies up.
    const extra = Array.from({ length: 7 }, (_, i) => `Extra ${i}`);
    for (const name of extra)
      await send(
        [await addTierInstruction(program, authority.publicKey, { name, deposit: 1n })],
        [authority],
      );
    await expectProgramError(
      send(
        [await addTierInstruction(program, authority.publicKey, { name: 'One more', deposit: 1n })],
        [authority],
      ),
      6004,
    );
    for (const name of extra)
      await send([await removeTierInstruction(program, authority.publicKey, name)], [authority]);

    // 6006 Overflow: only reachable from a state no transaction can make (deposits are bounded by the
    // mint's supply), so the chain's local cheat code sets the config's running total near u64::MAX.
    // agave's validator has no cheat code: there the SBF suite's LiteSVM case covers 6006.
    if (chain.validator === 'agave') return;
    const coder = new BorshAccountsCoder(idl as never);
    const configInfo = await chain.connection.getAccountInfo(configPda());
    const decoded = coder.decode('Config', configInfo!.data);
    decoded.total_deposited = new BN('18446744073709551000');
    const encoded = await coder.encode('Config', decoded);
    const data = Buffer.alloc(configInfo!.data.length);
    encoded.copy(data);
    expect(
      await rpc(
        chain.rpcUrl,
        'strm_setAccount',
        [
          configPda().toBase58(),
          {
            lamports: configInfo!.lamports,
            data: [data.toString('base64'), 'base64'],
            owner: program.programId.toBase58(),
          },
        ],
        { [CHEAT_TOKEN_HEADER]: chain.cheatToken },
      ),
    ).toMatchObject({ result: null });
    await expectProgramError(
      send(await activateTierInstructions(program, wallet.publicKey, 'Tier 1', 1000n * UNIT), [wallet]),
      6006,
    );
  });
});
