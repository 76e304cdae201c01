// The `observability` step of `pnpm test:compose` (scripts/compose/test.sh): what an operator's Prometheus
// sees when the treasury is drained on the chain the stack runs on. Run from apps/api:
//   node --import tsx test/compose/observability.ts drain-sol <rpc url> <treasury keypair file>
//   node --import tsx test/compose/observability.ts firing <prometheus url> <alert name> <timeout s>
// Each command prints what it saw and exits non-zero when it is not as it should be.
import { readFileSync } from 'node:fs';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';

/** What the treasury owner keeps: under StrmTreasurySolLow's 0.1 SOL (docs/operations.md#strmtreasurysollow). */
const LEFT_LAMPORTS = 0.05 * LAMPORTS_PER_SOL;
const FEE_LAMPORTS = 5_000;

type Json = Record<string, unknown>;

function fail(message: string): never {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function prometheus(base: string, path: string): Promise<Json> {
  const res = await fetch(`${base}${path}`);
  const body = (await res.json()) as { status: string; data?: Json; error?: string };
  if (body.status !== 'success') fail(`${path}: ${res.status} ${body.error}`);
  return body.data!;
}

const commands: Record<string, (...args: string[]) => Promise<void>> = {
  /** The treasury owner's SOL (what pays every payout's fee) sent away, all but 0.05 SOL. */
  async 'drain-sol'(rpcUrl, keypairFile) {
    if (!rpcUrl || !keypairFile) fail('drain-sol <rpc url> <treasury keypair file>');
    const owner = Keypair.fromSecretKey(
      Uint8Array.from(JSON.parse(readFileSync(keypairFile, 'utf8')) as number[]),
    );
    const connection = new Connection(rpcUrl, 'confirmed');
    const before = await connection.getBalance(owner.publicKey);
    const sent = before - LEFT_LAMPORTS - FEE_LAMPORTS;
    if (sent <= 0) fail(`the treasury owner holds ${before} lamports: nothing to drain`);
    const sink = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: owner.publicKey, toPubkey: sink, lamports: sent }),
    );
    // Only the RPC port is published: the balance is polled instead of a PubSub confirmation.
    await connection.sendTransaction(tx, [owner]);
    let after = before;
    for (let i = 0; i < 60 && after >= 0.1 * LAMPORTS_PER_SOL; i++) {
      await sleep(500);
      after = await connection.getBalance(owner.publicKey);
    }
    if (after >= 0.1 * LAMPORTS_PER_SOL) fail(`the treasury owner still holds ${after} lamports`);
    console.log(`  treasury owner ${owner.publicKey.toBase58()}: ${before} → ${after} lamports`);
  },

  /** Waits for Prometheus to report the alert firing; prints it and the recorded figures behind it. */
  async firing(base, alertName, timeoutS) {
    if (!base || !alertName) fail('firing <prometheus url> <alert name> <timeout s>');
    const deadline = Date.now() + Number(timeoutS ?? 180) * 1000;
    let last = 'no alert';
    while (Date.now() < deadline) {
      const { alerts } = (await prometheus(base, '/api/v1/alerts')) as {
        alerts: Array<{ labels: Record<string, string>; state: string; activeAt: string; value: string }>;
      };
      const alert = alerts.find((a) => a.labels.alertname === alertName);
      if (alert) last = `${alert.state} since ${alert.activeAt}`;
      if (alert?.state === 'firing') {
        console.log(
          `  ${alertName} firing (severity ${alert.labels.severity}), active since ${alert.activeAt}, value ${Number(alert.value)}`,
        );
        const { result } = (await prometheus(
          base,
          `/api/v1/query?query=${encodeURIComponent('strm:treasury_sol_lamports')}`,
        )) as { result: Array<{ value: [number, string] }> };
        console.log(`  strm:treasury_sol_lamports = ${result[0]?.value[1]} (the rule fires under 100000000)`);
        return;
      }
      await sleep(2000);
    }
    const { activeTargets } = (await prometheus(base, '/api/v1/targets')) as {
      activeTargets: Array<{ scrapeUrl: string; health: string; lastError: string }>;
    };
    fail(
      `${alertName} did not fire within ${timeoutS} s (${last}); targets: ${JSON.stringify(activeTargets)}`,
    );
  },
};

const [name, ...args] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) fail(`usage: observability.ts ${Object.keys(commands).join('|')} …`);
try {
  await command(...args);
} catch (err) {
  fail((err as Error).stack ?? String(err));
}
process.exit(0);
