#!/usr/bin/env -S node --import tsx
// `pnpm --filter @strm/local-chain start [--reset]`: the local chain until Ctrl-C, with its ledger and keys in
// $DATA_DIR/chain (as the API keeps them; default <repo>/.data/chain), RPC on $LOCAL_CHAIN_PORT (default
// 8899) and PubSub on the next port, listening on $LOCAL_CHAIN_HOST (default 127.0.0.1; 0.0.0.0 in a container
// that other containers reach, as scripts/compose/test.sh's `chain` service).
import { resolve } from 'node:path';
import { assertNotProduction, startLocalChain } from './index.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

try {
  assertNotProduction();
} catch (err) {
  fail((err as Error).message);
}
const rpcPort = Number(process.env.LOCAL_CHAIN_PORT || 8899);
if (!Number.isInteger(rpcPort) || rpcPort < 1 || rpcPort > 65_534)
  fail(`Invalid environment variable LOCAL_CHAIN_PORT: ${process.env.LOCAL_CHAIN_PORT}`);
// A relative DATA_DIR is taken from where the command was typed (pnpm runs this in chain/).
const dataDir = process.env.DATA_DIR
  ? resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR, 'chain')
  : undefined;
const chain = await startLocalChain({
  dataDir,
  host: process.env.LOCAL_CHAIN_HOST || undefined,
  reset: process.argv.includes('--reset'),
  rpcPort,
  onLog: (line) => console.log(line),
});
// Ctrl-C and SIGTERM are ours before the ready line: a signal sent the moment someone reads it (a person, a
// test) gets the stop below, not the default kill (a CLI descheduled between the line and its handlers was
// killed outright on a loaded machine).
const stop = () => void chain.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log(`local chain ready: ${chain.rpcUrl} (PubSub ${chain.wsUrl}), mint ${chain.info.mint}`);
