#!/usr/bin/env -S node --import tsx
// `pnpm --filter @strm/local-chain start [--reset]`: the local chain on 127.0.0.1:8899/8900 until Ctrl-C.
import { startLocalChain } from './index.ts';

const chain = await startLocalChain({
  reset: process.argv.includes('--reset'),
  rpcPort: Number(process.env.RPC_PORT ?? 8899),
  onLog: (line) => console.log(line),
});
console.log(`local chain ready: ${chain.rpcUrl} (PubSub ${chain.wsUrl}), mint ${chain.info.mint}`);
const stop = () => void chain.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
