// The fault suite (docs/operations.md#faults): the real API processes, with N live streamers, through each
// fault an operator meets: the embedded PostgreSQL killed, an external PostgreSQL stopped, the chain stalled,
// Redis restarted, one of two instances killed, a single instance killed and restarted (external PostgreSQL,
// and the embedded defaults: api-kill). For each it prints sessions held, mining-updates delivered against
// expected during and after the fault, accrual lost, payouts made twice, process exits and the time to
// recover; it fails (exit 1) when a figure misses its bound or an API process logged an unhandled promise
// rejection.
//   pnpm test:faults   (FAULTS_STREAMERS=20, FAULTS_PG_OUTAGE_S=30, FAULTS_CHAIN_STALL_S=20,
//                       FAULTS_REDIS_OUTAGE_S=10, FAULTS_RESTART_DELAY_S=5, FAULTS_ONLY=embedded-pg,chain,
//                       api-kill,external-pg,redis,instance,restart)
import { N, wanted } from './config.ts';
import { embeddedScenarios } from './embedded.ts';
import { log } from './measure.ts';
import { cleanups, results } from './scenario.ts';
import { sharedChainScenarios } from './shared-chain.ts';
import { printTable } from './table.ts';

async function main() {
  const started = Date.now();
  log(`fault suite: ${N} streamers per fault`);
  try {
    if (['embedded-pg', 'chain', 'api-kill'].some(wanted)) await embeddedScenarios();
    if (['external-pg', 'redis', 'instance', 'restart'].some(wanted)) await sharedChainScenarios();
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
  printTable(results);
  log(`fault suite took ${Math.round((Date.now() - started) / 1000)} s`);
  if (results.some((r) => !r.ok)) process.exit(1);
  process.exit(0);
}

await main();
