// The local chain against the public client libraries only (@solana/web3.js, @solana/spl-token,
// @coral-xyz/anchor through @strm/mining-client), as the apps use any cluster.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BorshAccountsCoder } from '@coral-xyz/anchor';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccount,
  getAccount,
  getAssociatedTokenAddressSync,
  mintTo,
  transfer,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SendTransactionError,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import {
  type MiningProgram,
  acceptAuthorityInstruction,
  activateTierInstructions,
  addTierInstruction,
  configPda,
  deactivateTierInstruction,
  holdingsAddress,
  miningProgram,
  programDataAddress,
  programErrorOf,
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHEAT_TOKEN_HEADER, readKeypair, startLocalChain } from '../ts/index.ts';
import { openPubSub } from './pubsub-client.ts';
import { freePortPair, rpc, startTestChain } from './support.ts';

let chain: Awaited<ReturnType<typeof startTestChain>>;
let program: MiningProgram;
let mint: PublicKey;
let authority: Keypair;
const UNIT = 1_000_000n;

/** Between two reads of a poll (how often to ask, not how long to wait). */
const pollInterval = () => new Promise((r) => setTimeout(r, 50));

beforeAll(async () => {
  chain = await startTestChain();
  program = miningProgram(chain.connection);
  mint = new PublicKey(chain.info.mint);
  authority = readKeypair(chain.info.keypairs.authority);
});
afterAll(() => chain?.stop());

async function fundedWallet(strm = 0n): Promise<Keypair> {
  const wallet = Keypair.generate();
  const signature = await chain.connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL);
  await chain.connection.confirmTransaction({ signature, ...(await chain.connection.getLatestBlockhash()) });
  const ata = await createAssociatedTokenAccount(chain.connection, wallet, mint, wallet.publicKey);
  if (strm > 0n) await mintTo(chain.connection, authority, mint, ata, authority, strm * UNIT);
  return wallet;
}

function send(instructions: TransactionInstruction[], signers: Keypair[]) {
  return sendAndConfirmTransaction(chain.connection, new Transaction().add(...instructions), signers, {
    commitment: 'confirmed',
  });
}

async function expectProgramError(promise: Promise<unknown>, code: number) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected program error ${code}`).not.toBeNull();
  expect(err).toBeInstanceOf(SendTransactionError);
  expect(programErrorOf(err)?.code).toBe(code);
}

describe('cluster basics', () => {
  it('answers health, version, genesis hash, slot and blockhash like a validator', async () => {
    expect(await rpc(chain.rpcUrl, 'getHealth')).toMatchObject({ result: 'ok' });
    expect((await chain.connection.getVersion())['solana-core']).toMatch(/^2\./);
    expect(await chain.connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const { blockhash, lastValidBlockHeight } = await chain.connection.getLatestBlockhash();
    expect(lastValidBlockHeight).toBeGreaterThanOrEqual(await chain.connection.getBlockHeight());
    expect(await chain.connection.isBlockhashValid(blockhash)).toMatchObject({ value: true });
    expect((await chain.connection.isBlockhashValid('11111111111111111111111111111111')).value).toBe(false);
    expect(await chain.connection.getMinimumBalanceForRentExemption(165)).toBeGreaterThan(0);
  });

  it('counts slots and block heights at a validator’s pace, in the clock programs read too', async () => {
    // Waits for three slots, as a caller does (polling), and times them: each lasts at least 400 ms, so n
    // slots passing in the time measured took at least (n - 1) × 400 ms (the chain counts a slot within
    // 50 ms of it starting). How much longer they take depends on the machine's load, not bounded here.
    const started = performance.now();
    const before = await chain.connection.getSlot();
    let after = before;
    while (after < before + 3) {
      await pollInterval();
      after = await chain.connection.getSlot();
    }
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual((after - before - 1) * 400 - 60);
    // A blockhash is valid for 150 blocks after the height it was made at, which is the latest height or
    // close behind it. A block can be made between two calls, so the height is read on both sides.
    const heightBefore = await chain.connection.getBlockHeight();
    const { lastValidBlockHeight } = await chain.connection.getLatestBlockhash();
    const heightAfter = await chain.connection.getBlockHeight();
    expect(lastValidBlockHeight - 150).toBeGreaterThan(heightBefore - 10);
    expect(lastValidBlockHeight - 150).toBeLessThanOrEqual(heightAfter);
    const epoch = await chain.connection.getEpochInfo();
    expect(epoch.absoluteSlot).toBeGreaterThanOrEqual(after);
    // Genesis ran transactions (mint, treasury, config).
    expect(epoch.transactionCount).toBeGreaterThan(0);
    expect(await chain.connection.getTransactionCount()).toBeGreaterThanOrEqual(epoch.transactionCount!);

    const clock = await chain.connection.getParsedAccountInfo(SYSVAR_CLOCK_PUBKEY);
    const info = (clock.value?.data as { parsed: { info: { slot: number; unixTimestamp: number } } }).parsed
      .info;
    expect(Math.abs(info.slot - (await chain.connection.getSlot()))).toBeLessThanOrEqual(2);
    expect(Math.abs(info.unixTimestamp - Date.now() / 1000)).toBeLessThan(5);
  });

  it('refuses unknown methods and malformed requests with standard JSON-RPC errors', async () => {
    expect(await rpc(chain.rpcUrl, 'getEverything')).toMatchObject({ error: { code: -32601 } });
    expect(await rpc(chain.rpcUrl, 'getBalance', ['not-a-key'])).toMatchObject({ error: { code: -32602 } });
    expect(await rpc(chain.rpcUrl, 'sendTransaction', ['AAAA', { encoding: 'base64' }])).toMatchObject({
      error: { code: -32602 },
    });
    const garbage = await fetch(chain.rpcUrl, {
      method: 'POST',
      body: '{nope',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await garbage.json()).toMatchObject({ error: { code: -32700 } });
    expect(
      await rpc(chain.rpcUrl, 'sendTransaction', ['A'.repeat(2000), { encoding: 'base64' }]),
    ).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('too large') },
    });
    expect(await rpc(chain.rpcUrl, 'getMinimumBalanceForRentExemption', [2 ** 63])).toMatchObject({
      error: { code: -32600 },
    });
    // The local cheat code sets state, never a program the chain runs on.
    expect(
      await rpc(
        chain.rpcUrl,
        'strm_setAccount',
        [TOKEN_PROGRAM_ID.toBase58(), { lamports: 1, owner: SystemProgram.programId.toBase58() }],
        { [CHEAT_TOKEN_HEADER]: chain.cheatToken },
      ),
    ).toMatchObject({ error: { code: -32602 } });
    // Still serving after all that, and a validator's HTTP health check answers too.
    expect(await rpc(chain.rpcUrl, 'getHealth')).toMatchObject({ result: 'ok' });
    expect(await (await fetch(`${chain.rpcUrl}/health`)).text()).toBe('ok');
  });
});

describe('transactions', () => {
  function transferTo(from: Keypair, to: PublicKey, blockhash: string) {
    return new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }),
    );
  }

  it('refuses a forged signature, with or without preflight, and moves nothing', async () => {
    const victim = await fundedWallet();
    const thief = Keypair.generate();
    const tx = transferTo(victim, thief.publicKey, (await chain.connection.getLatestBlockhash()).blockhash);
    tx.addSignature(victim.publicKey, Buffer.alloc(64, 7));
    const raw = tx.serialize({ verifySignatures: false });
    for (const skipPreflight of [false, true]) {
      const error = await chain.connection.sendRawTransaction(raw, { skipPreflight }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SendTransactionError);
      expect((error as Error).message).toContain('Transaction signature verification failure');
    }
    expect(
      await rpc(chain.rpcUrl, 'sendTransaction', [raw.toString('base64'), { encoding: 'base64' }]),
    ).toMatchObject({ error: { code: -32003, message: 'Transaction signature verification failure' } });
    expect(await chain.connection.getBalance(thief.publicKey)).toBe(0);
  });

  it('simulates as wallets do: with signatures checked, or with the blockhash replaced', async () => {
    const wallet = await fundedWallet();
    const to = Keypair.generate().publicKey;
    // A blockhash this chain never had, as when a wallet simulates a transaction before it is final.
    const stale = transferTo(wallet, to, Keypair.generate().publicKey.toBase58());
    stale.sign(wallet);
    const encoded = stale.serialize().toString('base64');
    const plain = await rpc(chain.rpcUrl, 'simulateTransaction', [encoded, { encoding: 'base64' }]);
    expect(plain).toMatchObject({ result: { value: { err: 'BlockhashNotFound' } } });
    const replaced = await rpc(chain.rpcUrl, 'simulateTransaction', [
      encoded,
      { encoding: 'base64', replaceRecentBlockhash: true },
    ]);
    expect(replaced).toMatchObject({
      result: {
        value: {
          err: null,
          logs: expect.arrayContaining(['Program 11111111111111111111111111111111 success']),
          replacementBlockhash: { blockhash: expect.any(String), lastValidBlockHeight: expect.any(Number) },
        },
      },
    });

    const forged = transferTo(wallet, to, (await chain.connection.getLatestBlockhash()).blockhash);
    forged.addSignature(wallet.publicKey, Buffer.alloc(64, 1));
    const forgedEncoded = forged.serialize({ verifySignatures: false }).toString('base64');
    expect(
      await rpc(chain.rpcUrl, 'simulateTransaction', [
        forgedEncoded,
        { encoding: 'base64', sigVerify: true },
      ]),
    ).toMatchObject({ error: { code: -32003 } });
    expect(
      await rpc(chain.rpcUrl, 'simulateTransaction', [
        forgedEncoded,
        { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: true },
      ]),
    ).toMatchObject({ error: { code: -32602 } });
    expect(await chain.connection.getBalance(to)).toBe(0);
  });
});

describe('SOL and STRM', () => {
  it('airdrops, confirmed through the PubSub signature subscription', async () => {
    const wallet = Keypair.generate();
    const signature = await chain.connection.requestAirdrop(wallet.publicKey, 3 * LAMPORTS_PER_SOL);
    const result = await chain.connection.confirmTransaction({
      signature,
      ...(await chain.connection.getLatestBlockhash()),
    });
    expect(result.value.err).toBeNull();
    expect(await chain.connection.getBalance(wallet.publicKey)).toBe(3 * LAMPORTS_PER_SOL);
  });

  it('creates associated token accounts, mints and transfers STRM, read back as jsonParsed', async () => {
    const alice = await fundedWallet(1500n);
    const bob = await fundedWallet();
    const aliceAta = getAssociatedTokenAddressSync(mint, alice.publicKey);
    const bobAta = getAssociatedTokenAddressSync(mint, bob.publicKey);
    await transfer(chain.connection, alice, aliceAta, bobAta, alice, 250n * UNIT);

    expect((await getAccount(chain.connection, bobAta)).amount).toBe(250n * UNIT);
    expect((await chain.connection.getTokenAccountBalance(aliceAta)).value).toMatchObject({
      amount: String(1250n * UNIT),
      decimals: 6,
      uiAmount: 1250,
      uiAmountString: '1250',
    });
    const parsed = await chain.connection.getParsedAccountInfo(bobAta);
    expect(parsed.value?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'account', info: { mint: mint.toBase58(), owner: bob.publicKey.toBase58() } },
    });
    expect(await tokenBalance(chain.connection, alice.publicKey, mint)).toBe(1250);
    expect(await tokenBalance(chain.connection, Keypair.generate().publicKey, mint)).toBe(0);
  });

  it('reports a transaction’s status, and its details with token balances', async () => {
    const alice = await fundedWallet(10n);
    const bob = await fundedWallet();
    const signature = await transfer(
      chain.connection,
      alice,
      getAssociatedTokenAddressSync(mint, alice.publicKey),
      getAssociatedTokenAddressSync(mint, bob.publicKey),
      alice,
      4n * UNIT,
    );
    const { value } = await chain.connection.getSignatureStatuses([
      signature,
      '1111111111111111111111111111111111111111111111111111111111111111',
    ]);
    expect(value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(value[1]).toBeNull();
    const tx = await chain.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx?.transaction.signatures[0]).toBe(signature);
    expect(tx?.meta?.err).toBeNull();
    expect(tx?.meta?.fee).toBe(5000);
    const post = tx?.meta?.postTokenBalances?.find((b) => b.owner === bob.publicKey.toBase58());
    expect(post?.uiTokenAmount.uiAmount).toBe(4);
    expect(tx?.blockTime).toBeGreaterThan(Date.now() / 1000 - 120);
  });

  it('gives two equal airdrops in a row, and refuses one the faucet cannot pay', async () => {
    const wallet = Keypair.generate();
    const latest = await chain.connection.getLatestBlockhash();
    for (let i = 0; i < 2; i++) {
      const signature = await chain.connection.requestAirdrop(wallet.publicKey, LAMPORTS_PER_SOL);
      await chain.connection.confirmTransaction({ signature, ...latest });
    }
    expect(await chain.connection.getBalance(wallet.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
    expect(
      await rpc(chain.rpcUrl, 'requestAirdrop', [wallet.publicKey.toBase58(), Number.MAX_SAFE_INTEGER]),
    ).toMatchObject({ error: { code: -32603, message: expect.stringContaining('airdrop') } });
  });

  it('notifies token account subscribers in jsonParsed, as wallets subscribe', async () => {
    const wallet = await fundedWallet();
    const ata = getAssociatedTokenAddressSync(mint, wallet.publicKey);
    const client = await openPubSub(chain.wsUrl);
    try {
      client.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'accountSubscribe',
        params: [ata.toBase58(), { encoding: 'jsonParsed', commitment: 'confirmed' }],
      });
      expect(await client.next()).toMatchObject({ id: 1, result: expect.any(Number) });
      await mintTo(chain.connection, authority, mint, ata, authority, 7n * UNIT);
      expect(await client.next()).toMatchObject({
        method: 'accountNotification',
        params: {
          result: {
            context: { slot: expect.any(Number) },
            value: {
              data: { program: 'spl-token', parsed: { info: { tokenAmount: { uiAmountString: '7' } } } },
            },
          },
        },
      });
    } finally {
      client.close();
    }
  });

  it('notifies account subscribers when a balance changes', async () => {
    const wallet = Keypair.generate();
    let notified: number | undefined;
    const id = chain.connection.onAccountChange(wallet.publicKey, (account) => {
      notified ??= account.lamports;
    });
    // web3.js subscribes in the background and does not say when the server has accepted it; a change
    // before then is not notified. So airdrop 1 SOL at a time until a notification comes, giving each
    // airdrop two more blocks to be notified in; the first notification carries the balance after the
    // airdrop that caused it.
    const balances: number[] = [];
    try {
      while (notified === undefined) {
        const signature = await chain.connection.requestAirdrop(wallet.publicKey, LAMPORTS_PER_SOL);
        await chain.connection.confirmTransaction({
          signature,
          ...(await chain.connection.getLatestBlockhash()),
        });
        balances.push(await chain.connection.getBalance(wallet.publicKey));
        const height = await chain.connection.getBlockHeight();
        while (notified === undefined && (await chain.connection.getBlockHeight()) < height + 2) {
          await pollInterval();
        }
      }
    } finally {
      await chain.connection.removeAccountChangeListener(id);
    }
    expect(balances).toContain(notified);
    expect(balances[0]).toBe(LAMPORTS_PER_SOL);
  });
});

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

  it('activates only at the deposit the user agreed to', async () => {
    const wallet = await fundedWallet(1000n);
    // The client refuses a deposit that is no longer the tier's before anything is signed…
    await expect(activateTierInstructions(program, wallet.publicKey, 'Tier 1', 900n * UNIT)).rejects.toThrow(
      "The tier's deposit has changed.",
    );
    // …and the program refuses it when it changed after signing (6007).
    const repriced = await program.methods
      .activateTier('Tier 1', new BN((900n * UNIT).toString()))
      .accountsStrict({
        wallet: wallet.publicKey,
        config: configPda(),
        streamer: streamerPda(wallet.publicKey),
        tokenMint: mint,
        walletTokenAccount: getAssociatedTokenAddressSync(mint, wallet.publicKey),
        holdings: holdingsAddress(wallet.publicKey, mint),
        tokenProgram: TOKEN_PROGRAM_ID,
        associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
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
    const unknownTier = await program.methods
      .activateTier('Tier 42', new BN(UNIT.toString()))
      .accountsStrict({
        wallet: wallet.publicKey,
        config: configPda(),
        streamer: streamerPda(wallet.publicKey),
        tokenMint: mint,
        walletTokenAccount: getAssociatedTokenAddressSync(mint, wallet.publicKey),
        holdings: holdingsAddress(wallet.publicKey, mint),
        tokenProgram: TOKEN_PROGRAM_ID,
        associatedTokenProgram: ASSOCIATED_TOKEN_PROGRAM_ID,
        systemProgram: SystemProgram.programId,
      })
      .instruction();
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

describe('restarts', () => {
  it('keep every account: the same mint, balances and streamer records', async () => {
    // The suite's chain was built in beforeAll; this test only restarts it (no cargo run under the clock).
    const dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-restart-'));
    const rpcPort = await freePortPair();
    try {
      const first = await startLocalChain({ dataDir, rpcPort, build: false });
      const firstProgram = miningProgram(first.connection);
      const firstMint = new PublicKey(first.info.mint);
      const firstAuthority = readKeypair(first.info.keypairs.authority);
      const wallet = Keypair.generate();
      const airdrop = await first.connection.requestAirdrop(wallet.publicKey, LAMPORTS_PER_SOL);
      await first.connection.confirmTransaction({
        signature: airdrop,
        ...(await first.connection.getLatestBlockhash()),
      });
      const ata = await createAssociatedTokenAccount(first.connection, wallet, firstMint, wallet.publicKey);
      await mintTo(first.connection, firstAuthority, firstMint, ata, firstAuthority, 1000n * UNIT);
      await sendAndConfirmTransaction(
        first.connection,
        new Transaction().add(
          ...(await activateTierInstructions(firstProgram, wallet.publicKey, 'Tier 1', 1000n * UNIT)),
        ),
        [wallet],
      );
      // Subscribers are told the chain stopped on purpose (a normal closure), so clients such as
      // web3.js do not keep reconnecting to it.
      const subscriber = await openPubSub(first.wsUrl);
      await first.stop();
      expect(await subscriber.closed).toBe(1000);

      const second = await startLocalChain({ dataDir, rpcPort, build: false });
      try {
        expect(second.info.mint).toBe(first.info.mint);
        expect(await streamerStatus(miningProgram(second.connection), wallet.publicKey)).toEqual({
          activeTier: 'Tier 1',
          isMining: true,
        });
        expect(await second.connection.getBalance(wallet.publicKey)).toBeGreaterThan(0);
        expect(await tokenBalance(second.connection, wallet.publicKey, firstMint)).toBe(0);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
