// The local chain through a second widely used client, @solana/kit, whose standard confirmation needs the
// slot subscription, plus the PubSub notifications wallets and indexers watch with, dataSlice and fees as
// a validator answers them.
import { createAssociatedTokenAccount, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  compileTransactionMessage,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64Decoder,
  getCompiledTransactionMessageEncoder,
  getSignatureFromTransaction,
  type Instruction,
  lamports,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
  type TransactionMessageBytesBase64,
  type TransactionSigner,
} from '@solana/kit';
import { Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { configPda } from '@strm/mining-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPubSub } from './pubsub-client.ts';
import { rpc as rawRpc, startTestChain } from './support.ts';

let chain: Awaited<ReturnType<typeof startTestChain>>;
let rpc: Rpc<SolanaRpcApi>;
let rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;

beforeAll(async () => {
  chain = await startTestChain();
  rpc = createSolanaRpc(chain.rpcUrl);
  rpcSubscriptions = createSolanaRpcSubscriptions(chain.wsUrl);
});
afterAll(() => chain?.stop());

const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111');

function transferInstruction(from: TransactionSigner, to: Address, amount: bigint): Instruction {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true);
  view.setBigUint64(4, amount, true);
  return {
    programAddress: SYSTEM_PROGRAM,
    accounts: [
      { address: from.address, role: AccountRole.WRITABLE_SIGNER },
      { address: to, role: AccountRole.WRITABLE },
    ],
    data,
  };
}

function computeBudget(unitLimit: number, microLamportsPerUnit: bigint): Instruction[] {
  const limit = new Uint8Array(5);
  limit[0] = 2;
  new DataView(limit.buffer).setUint32(1, unitLimit, true);
  const price = new Uint8Array(9);
  price[0] = 3;
  new DataView(price.buffer).setBigUint64(1, microLamportsPerUnit, true);
  return [
    { programAddress: COMPUTE_BUDGET_PROGRAM, data: limit },
    { programAddress: COMPUTE_BUDGET_PROGRAM, data: price },
  ];
}

async function fundedSigner(): Promise<TransactionSigner> {
  const signer = await generateKeyPairSigner();
  const signature = await chain.connection.requestAirdrop(
    new PublicKey(signer.address),
    2 * LAMPORTS_PER_SOL,
  );
  await chain.connection.confirmTransaction({ signature, ...(await chain.connection.getLatestBlockhash()) });
  return signer;
}

async function message(version: 0 | 'legacy', payer: TransactionSigner, instructions: Instruction[]) {
  const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
  return pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
}

describe('@solana/kit', () => {
  it('sends and confirms with sendAndConfirmTransactionFactory (slot and signature subscriptions)', async () => {
    const payer = await fundedSigner();
    const to = (await generateKeyPairSigner()).address;
    const signed = await signTransactionMessageWithSigners(
      await message(0, payer, [transferInstruction(payer, to, 1_000_000n)]),
    );
    assertIsTransactionWithBlockhashLifetime(signed);
    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
    await sendAndConfirm(signed, { commitment: 'confirmed' });
    const { value } = await rpc.getBalance(to, { commitment: 'confirmed' }).send();
    expect(value).toBe(lamports(1_000_000n));
    const [status] = (await rpc.getSignatureStatuses([getSignatureFromTransaction(signed)]).send()).value;
    expect(status?.err).toBeNull();
  });

  it('prices a v0 message with its priority fee as a legacy one, as a validator does', async () => {
    const payer = await fundedSigner();
    const to = (await generateKeyPairSigner()).address;
    const instructions = [...computeBudget(200_000, 10_000n), transferInstruction(payer, to, 1_000_000n)];
    const feeOf = async (version: 0 | 'legacy') => {
      const compiled = compileTransactionMessage(await message(version, payer, instructions));
      const bytes = getCompiledTransactionMessageEncoder().encode(compiled);
      const encoded = getBase64Decoder().decode(bytes) as TransactionMessageBytesBase64;
      return (await rpc.getFeeForMessage(encoded).send()).value;
    };
    // 5000 per signature + 200,000 units x 10,000 micro-lamports = 2000.
    expect(await feeOf('legacy')).toBe(lamports(7000n));
    expect(await feeOf(0)).toBe(lamports(7000n));

    // What a landed transaction reports as its fee is what it was charged.
    const before = (await rpc.getBalance(payer.address).send()).value;
    const signed = await signTransactionMessageWithSigners(await message(0, payer, instructions));
    assertIsTransactionWithBlockhashLifetime(signed);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(signed, { commitment: 'confirmed' });
    const after = (await rpc.getBalance(payer.address).send()).value;
    expect(before - after).toBe(1_000_000n + 7000n);
    const landed = await rpc
      .getTransaction(getSignatureFromTransaction(signed), {
        maxSupportedTransactionVersion: 0,
        encoding: 'json',
      })
      .send();
    expect(landed?.meta?.fee).toBe(lamports(7000n));
  });

  it('returns only the dataSlice asked for, in getAccountInfo, getMultipleAccounts and getProgramAccounts', async () => {
    const config = address(configPda().toBase58());
    const full = (await chain.connection.getAccountInfo(configPda()))!.data;
    const slice = { offset: 8, length: 32 };
    const expected = full.subarray(8, 40).toString('base64');

    const one = await rpc.getAccountInfo(config, { encoding: 'base64', dataSlice: slice }).send();
    expect(one.value?.data).toEqual([expected, 'base64']);
    const base58 = await rpc.getAccountInfo(config, { encoding: 'base58', dataSlice: slice }).send();
    expect(base58.value?.data).toEqual([new PublicKey(full.subarray(8, 40)).toBase58(), 'base58']);
    const many = await rpc
      .getMultipleAccounts([config, config], { encoding: 'base64', dataSlice: { offset: 8, length: 32 } })
      .send();
    expect(many.value.map((a) => a?.data)).toEqual([
      [expected, 'base64'],
      [expected, 'base64'],
    ]);
    const program = await rpc
      .getProgramAccounts(address(chain.info.programId), {
        encoding: 'base64',
        dataSlice: { offset: 0, length: 0 },
      })
      .send();
    expect(program.length).toBeGreaterThan(0);
    expect(program.every((a) => a.account.data[0] === '')).toBe(true);
    // A slice past the end is empty; jsonParsed cannot be sliced.
    const past = await rpc
      .getAccountInfo(config, { encoding: 'base64', dataSlice: { offset: 1 << 20, length: 8 } })
      .send();
    expect(past.value?.data).toEqual(['', 'base64']);
    expect(
      await rawRpc(chain.rpcUrl, 'getAccountInfo', [
        config,
        { encoding: 'jsonParsed', dataSlice: { offset: 0, length: 8 } },
      ]),
    ).toMatchObject({ error: { code: -32600 } });
  });
});

describe('PubSub notifications', () => {
  it('notifies slots and roots in a validator’s shapes', async () => {
    const client = await openPubSub(chain.wsUrl);
    try {
      client.send({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' });
      client.send({ jsonrpc: '2.0', id: 2, method: 'rootSubscribe' });
      const replies = [await client.reply(1), await client.reply(2)];
      const [slotSub, rootSub] = replies.map((r) => r.result as number);
      const seen: Record<string, Record<string, unknown>> = {};
      while (!seen.slotNotification || !seen.rootNotification) {
        const message = await client.next();
        seen[message.method as string] = message;
      }
      const slot = seen.slotNotification as {
        params: { result: { slot: number; parent: number; root: number }; subscription: number };
      };
      expect(slot.params.subscription).toBe(slotSub);
      expect(slot.params.result.parent).toBe(slot.params.result.slot - 1);
      expect(slot.params.result.root).toBeLessThanOrEqual(slot.params.result.slot);
      expect(seen.rootNotification).toMatchObject({
        params: { result: expect.any(Number), subscription: rootSub },
      });
      client.send({ jsonrpc: '2.0', id: 3, method: 'slotUnsubscribe', params: [slotSub] });
      for (;;) {
        const message = await client.next();
        if (message.id === 3) {
          expect(message.result).toBe(true);
          break;
        }
      }
    } finally {
      client.close();
    }
  });

  it('notifies logs of transactions that mention an address, and program accounts that match filters', async () => {
    const owner = Keypair.generate();
    const airdrop = await chain.connection.requestAirdrop(owner.publicKey, LAMPORTS_PER_SOL);
    await chain.connection.confirmTransaction({
      signature: airdrop,
      ...(await chain.connection.getLatestBlockhash()),
    });
    const client = await openPubSub(chain.wsUrl);
    try {
      client.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'logsSubscribe',
        params: [{ mentions: [owner.publicKey.toBase58()] }],
      });
      client.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'programSubscribe',
        params: [
          TOKEN_PROGRAM_ID.toBase58(),
          {
            encoding: 'base64',
            filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: owner.publicKey.toBase58() } }],
          },
        ],
      });
      client.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'logsSubscribe',
        params: [{ mentions: [owner.publicKey.toBase58(), TOKEN_PROGRAM_ID.toBase58()] }],
      });
      const replies = [await client.next(), await client.next(), await client.next()];
      expect(replies[2]).toMatchObject({ id: 3, error: { code: -32602 } });
      const ata = await createAssociatedTokenAccount(
        chain.connection,
        owner,
        new PublicKey(chain.info.mint),
        owner.publicKey,
      );
      const seen: Record<string, Record<string, unknown>> = {};
      while (!seen.logsNotification || !seen.programNotification) {
        const message = await client.next();
        seen[message.method as string] = message;
      }
      expect(seen.logsNotification).toMatchObject({
        params: {
          subscription: replies[0]!.result,
          result: {
            context: { slot: expect.any(Number) },
            value: {
              signature: expect.any(String),
              err: null,
              logs: expect.arrayContaining([expect.stringContaining('ATokenGPv')]),
            },
          },
        },
      });
      expect(seen.programNotification).toMatchObject({
        params: {
          subscription: replies[1]!.result,
          result: {
            context: { slot: expect.any(Number) },
            value: {
              pubkey: ata.toBase58(),
              account: { owner: TOKEN_PROGRAM_ID.toBase58(), data: [expect.any(String), 'base64'] },
            },
          },
        },
      });
    } finally {
      client.close();
    }
  });
});
