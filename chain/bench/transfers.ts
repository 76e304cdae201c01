// Benchmark: SPL token transfers per second the local chain sustains, over its public JSON-RPC.
// Prints cold start time, then the TPS of N signed transfers sent by C concurrent senders and confirmed.
//   pnpm --filter @strm/local-chain bench   (BENCH_TRANSFERS, BENCH_CONCURRENCY to change the load)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAssociatedTokenAccount,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  mintTo,
} from '@solana/spl-token';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, Transaction } from '@solana/web3.js';
import { buildLocalChain, readKeypair, startLocalChain } from '../ts/index.ts';
import { freePortPair } from '../test/support.ts';

const transfers = Number(process.env.BENCH_TRANSFERS ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

const dataDir = await mkdtemp(join(tmpdir(), 'strm-bench-'));
buildLocalChain();
const rpcPort = await freePortPair();
const coldStart = performance.now();
const chain = await startLocalChain({ dataDir, rpcPort, reset: true, build: false });
const coldStartMs = performance.now() - coldStart;
const { connection } = chain;
const mint = new PublicKey(chain.info.mint);
const authority = readKeypair(chain.info.keypairs.authority);

// One funded sender per lane, each with STRM, all paying the same receiver.
const receiver = Keypair.generate();
const senders: Keypair[] = [];
for (let i = 0; i < concurrency; i++) {
  const sender = Keypair.generate();
  const sig = await connection.requestAirdrop(sender.publicKey, 5 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: sig, ...(await connection.getLatestBlockhash()) });
  const ata = await createAssociatedTokenAccount(connection, sender, mint, sender.publicKey);
  await mintTo(connection, authority, mint, ata, authority, 1_000_000_000n);
  senders.push(sender);
}
const receiverAta = await createAssociatedTokenAccount(connection, senders[0]!, mint, receiver.publicKey);

let next = 0;
const latencies: number[] = [];
async function lane(sender: Keypair) {
  const from = getAssociatedTokenAddressSync(mint, sender.publicKey);
  while (next < transfers) {
    const i = next++;
    const started = performance.now();
    const { blockhash } = await connection.getLatestBlockhash();
    // A distinct amount per transfer keeps every signature unique.
    const tx = new Transaction({ feePayer: sender.publicKey, recentBlockhash: blockhash }).add(
      createTransferInstruction(from, receiverAta, sender.publicKey, BigInt(1 + i)),
    );
    tx.sign(sender);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const status = await connection.getSignatureStatus(signature);
    if (status.value?.err) throw new Error(`transfer ${i} failed: ${JSON.stringify(status.value.err)}`);
    latencies.push(performance.now() - started);
  }
}

const started = performance.now();
await Promise.all(senders.map(lane));
const seconds = (performance.now() - started) / 1000;
const balance = await connection.getTokenAccountBalance(receiverAta);
const expected = (transfers * (transfers + 1)) / 2;
if (Number(balance.value.amount) !== expected)
  throw new Error(`receiver has ${balance.value.amount}, expected ${expected}`);

latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
console.log(`local chain cold start (with genesis): ${coldStartMs.toFixed(0)} ms`);
console.log(
  `token transfers: ${transfers} in ${seconds.toFixed(2)} s = ${(transfers / seconds).toFixed(1)} TPS ` +
    `(${concurrency} senders; latency p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms; all confirmed, balances checked)`,
);
await chain.stop();
await rm(dataDir, { recursive: true, force: true });
process.exit(0);
