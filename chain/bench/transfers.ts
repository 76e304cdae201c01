// Benchmark: SPL token transfers per second the local chain sustains, over its public JSON-RPC.
// Prints cold start time, memory and idle CPU, then the TPS of N signed transfers sent by C concurrent senders
// and confirmed.
//   pnpm --filter @strm/local-chain bench   (BENCH_TRANSFERS, BENCH_CONCURRENCY to change the load;
//   LOCAL_CHAIN=agave for agave's validator, docs/chain.md#the-reference-validator)
import { readFileSync } from 'node:fs';
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
import { buildLocalChain, readKeypair, startLocalChain, validatorKind } from '../ts/index.ts';
import { freePortPair } from '../test/support.ts';

const transfers = Number(process.env.BENCH_TRANSFERS ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

const dataDir = await mkdtemp(join(tmpdir(), 'strm-bench-'));
if (validatorKind() === 'local') buildLocalChain();
const rpcPort = await freePortPair();
const coldStart = performance.now();
const chain = await startLocalChain({ dataDir, rpcPort, reset: true, build: false });
const coldStartMs = performance.now() - coldStart;
const { connection } = chain;
const name = chain.validator === 'agave' ? 'agave’s test validator' : 'local chain';

/** The validator's resident memory (MB) and CPU time (s, user + system), from /proc. */
function usage(): { rssMb: number; cpuSeconds: number } {
  const status = readFileSync(`/proc/${chain.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${chain.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rssMb: rssKb / 1024, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const idleFrom = usage();
await new Promise((settled) => setTimeout(settled, idleSeconds * 1000));
const idleTo = usage();
const idleCpu = ((idleTo.cpuSeconds - idleFrom.cpuSeconds) / idleSeconds) * 100;
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
    // Confirmed: the local chain's answer already is; agave's validator confirms a slot or two later.
    let status = await connection.getSignatureStatus(signature);
    while (!status.value || status.value.confirmationStatus === 'processed') {
      await new Promise((later) => setTimeout(later, 20));
      status = await connection.getSignatureStatus(signature);
    }
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
console.log(`${name} cold start (with genesis): ${coldStartMs.toFixed(0)} ms`);
console.log(
  `${name} idle: ${idleCpu.toFixed(0)} % of a core over ${idleSeconds} s, RSS ${idleTo.rssMb.toFixed(0)} MB; ` +
    `after the transfers RSS ${usage().rssMb.toFixed(0)} MB`,
);
console.log(
  `token transfers: ${transfers} in ${seconds.toFixed(2)} s = ${(transfers / seconds).toFixed(1)} TPS ` +
    `(${concurrency} senders; latency p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms; all confirmed, balances checked)`,
);
await chain.stop();
await rm(dataDir, { recursive: true, force: true });
process.exit(0);
