// The local chain against the public client libraries only (@solana/web3.js, @solana/spl-token,
// @coral-xyz/anchor through @strm/mining-client), as the apps use any cluster: the cluster's answers,
// transactions refused or simulated as wallets send them, and restarts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKEN_PROGRAM_ID, createAssociatedTokenAccount, mintTo } from '@solana/spl-token';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import { activateTierInstructions, miningProgram, streamerStatus, tokenBalance } from '@strm/mining-client';
import { describe, expect, it } from 'vitest';
import { CHEAT_TOKEN_HEADER, readKeypair, startLocalChain, validatorKind } from '../ts/index.ts';
import { openPubSub } from './pubsub-client.ts';
import { freePortPair, rpc } from './support.ts';
import { UNIT, chain, fundedWallet, pollInterval, send, useConformanceChain } from './conformance-support.ts';

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

useConformanceChain();

/** Whether the chain is agave's validator (the reference lane): where the two differ, each is held to its own. */
const agave = validatorKind() === 'agave';

describe('cluster basics', () => {
  it('answers health, version, genesis hash, slot and blockhash like a validator', async () => {
    expect(await rpc(chain.rpcUrl, 'getHealth')).toMatchObject({ result: 'ok' });
    // The local chain is agave 2.3's bank; the reference lane's validator is agave 4.2.
    expect((await chain.connection.getVersion())['solana-core']).toMatch(
      chain.validator === 'agave' ? /^4\./ : /^2\./,
    );
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
    // The local chain's clock is the wall clock; agave's is its estimate from votes and slots, which falls
    // behind on a loaded machine (docs/chain.md#known-differences-from-a-validator).
    expect(Math.abs(info.unixTimestamp - Date.now() / 1000)).toBeLessThan(agave ? 60 : 5);
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
    // The local cheat code sets state, never a program the chain runs on (agave's validator has none).
    if (chain.validator === 'local')
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

  it('answers a PubSub client’s close with its code, so the client does not take it for a dropped connection', async () => {
    // web3.js closes its idle socket with 1000 and reconnects whenever the close that comes back is anything
    // else (1006 when the server just hangs up): against a server that did, it reconnected every second.
    const client = await openPubSub(chain.wsUrl);
    client.send({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' });
    expect(await client.reply(1)).toMatchObject({ result: expect.any(Number) });
    client.closeWith(1000);
    expect(await client.closed).toBe(1000);
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
    // The local chain refuses it at once (-32003) either way; agave's validator finds it in its preflight
    // simulation (-32002) and, without one, takes the transaction and drops it
    // (docs/chain.md#known-differences-from-a-validator).
    for (const skipPreflight of [false, true]) {
      const error = await chain.connection.sendRawTransaction(raw, { skipPreflight }).then(
        () => null,
        (e: unknown) => e,
      );
      if (agave && skipPreflight) {
        expect(error).toBeNull();
        continue;
      }
      expect(error).toBeInstanceOf(SendTransactionError);
      expect((error as Error).message).toContain(
        agave
          ? 'Transaction did not pass signature verification'
          : 'Transaction signature verification failure',
      );
    }
    expect(
      await rpc(chain.rpcUrl, 'sendTransaction', [raw.toString('base64'), { encoding: 'base64' }]),
    ).toMatchObject(
      agave
        ? { error: { code: -32002, data: { err: 'SignatureFailure' } } }
        : { error: { code: -32003, message: 'Transaction signature verification failure' } },
    );
    expect(await chain.connection.getBalance(thief.publicKey)).toBe(0);
  });

  it('simulates as wallets do: with signatures checked, or with the blockhash replaced', async () => {
    const wallet = await fundedWallet();
    const to = Keypair.generate().publicKey;
    // A blockhash this chain never had, as when a wallet simulates a transaction before it is final.
    const stale = transferTo(wallet, to, Keypair.generate().publicKey.toBase58());
    stale.sign(wallet);
    const encoded = stale.serialize().toString('base64');
    // At `confirmed`, as wallets' connections ask: the wallet was funded seconds ago, which agave's validator
    // has not finalized yet (docs/chain.md#known-differences-from-a-validator).
    const plain = await rpc(chain.rpcUrl, 'simulateTransaction', [
      encoded,
      { encoding: 'base64', commitment: 'confirmed' },
    ]);
    expect(plain).toMatchObject({ result: { value: { err: 'BlockhashNotFound' } } });
    const replaced = await rpc(chain.rpcUrl, 'simulateTransaction', [
      encoded,
      { encoding: 'base64', replaceRecentBlockhash: true, commitment: 'confirmed' },
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
    // A bad signature: the local chain's error -32003; agave's simulation result with SignatureFailure
    // (docs/chain.md#known-differences-from-a-validator).
    expect(
      await rpc(chain.rpcUrl, 'simulateTransaction', [
        forgedEncoded,
        { encoding: 'base64', sigVerify: true },
      ]),
    ).toMatchObject(agave ? { result: { value: { err: 'SignatureFailure' } } } : { error: { code: -32003 } });
    expect(
      await rpc(chain.rpcUrl, 'simulateTransaction', [
        forgedEncoded,
        { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: true },
      ]),
    ).toMatchObject({ error: { code: -32602 } });
    expect(await chain.connection.getBalance(to)).toBe(0);
  });

  it("lists an address's transactions newest first, with their memos (getSignaturesForAddress)", async () => {
    // As an operator reads a treasury's payouts since a backup (docs/operations.md#backups).
    const wallet = await fundedWallet();
    const sink = Keypair.generate().publicKey;
    const paid: string[] = [];
    for (const memo of ['STRM claims 1', 'STRM claims 2,3', 'STRM claims 4']) {
      paid.push(
        await send(
          [
            SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: sink, lamports: 1_000_000 }),
            new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from(memo) }),
          ],
          [wallet],
        ),
      );
    }
    const all = await chain.connection.getSignaturesForAddress(sink);
    expect(all.map((s) => [s.signature, s.memo, s.err])).toEqual([
      [paid[2], '[13] STRM claims 4', null],
      [paid[1], '[15] STRM claims 2,3', null],
      [paid[0], '[13] STRM claims 1', null],
    ]);
    for (const s of all) {
      expect(s.slot).toBeGreaterThan(0);
      expect(Math.abs(s.blockTime! - Date.now() / 1000)).toBeLessThan(60);
    }
    // The wallet's own history also holds its airdrop and token account, older than the payouts.
    const own = await chain.connection.getSignaturesForAddress(wallet.publicKey, { limit: 2 });
    expect(own.map((s) => s.signature)).toEqual([paid[2], paid[1]]);
    const older = await chain.connection.getSignaturesForAddress(wallet.publicKey, { before: paid[1] });
    expect(older[0]?.signature).toBe(paid[0]);
    expect(older.length).toBeGreaterThanOrEqual(3);
    const since = await chain.connection.getSignaturesForAddress(wallet.publicKey, { until: paid[0] });
    expect(since.map((s) => s.signature)).toEqual([paid[2], paid[1]]);
    expect(
      await rpc(chain.rpcUrl, 'getSignaturesForAddress', [sink.toBase58(), { limit: 1001 }]),
    ).toMatchObject({ error: { code: -32602 } });
  });
});

describe('restarts', () => {
  it('keep every account (the same mint, balances and streamer records) and go on counting slots', async () => {
    // The suite's chain was built in beforeAll; this test only restarts it (no cargo run under the clock).
    const dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-restart-'));
    const rpcPort = await freePortPair();
    try {
      const first = await startLocalChain({ dataDir, rpcPort, build: false, programSuite: true });
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
      // The local chain tells its subscribers it stopped on purpose (a normal closure), so clients such as
      // web3.js do not keep reconnecting to it; agave's validator just drops the connection (1006:
      // docs/chain.md#known-differences-from-a-validator).
      const subscriber = await openPubSub(first.wsUrl);
      const slotBefore = await first.connection.getSlot('confirmed');
      await first.stop();
      expect(await subscriber.closed).toBe(agave ? 1006 : 1000);

      const second = await startLocalChain({ dataDir, rpcPort, build: false, programSuite: true });
      try {
        expect(second.info.mint).toBe(first.info.mint);
        // Slots go on from the ledger's, as a validator's do: a client that refuses an answer from a slot older
        // than one it has seen (the records watch) keeps working across the restart.
        expect(await second.connection.getSlot('confirmed')).toBeGreaterThanOrEqual(slotBefore);
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
