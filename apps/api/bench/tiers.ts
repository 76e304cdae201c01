// Benchmark: GET /api/v1/tiers of the real app (middleware, rate limiter, logging, served from memory)
// against a bare Express handler returning the same JSON, on the same machine. The ratio is the figure
// (target ≥ 0.5×).   pnpm --filter @strm/api bench:tiers   (BENCH_SECONDS, BENCH_CONNECTIONS)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { createApp } from '../src/app.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { benchDatabase } from './support.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

const db = await benchDatabase();
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: db.url,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '100000000',
});
// No chain: the deposits fall back to the database's (the chain is read at refresh, never per request).
const app = createApp({
  config,
  prisma: db.prisma,
  rpc: createRpc('http://127.0.0.1:9'),
  clock: systemClock,
  logger: createLogger('silent'),
});
await app.services.tiers.refresh();
const body = app.services.tiers.json();

const bare = express();
const tiers = JSON.parse(body);
bare.get('/api/v1/tiers', (_req, res) => {
  res.json(tiers);
});

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function load(port: number): Promise<number> {
  const url = `http://127.0.0.1:${port}/api/v1/tiers`;
  await autocannon({ url, connections, duration: 2 }); // warm-up
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx) throw new Error(`${result.non2xx} non-2xx answers from ${url}`);
  return result.requests.average;
}

const appPort = await listen(app.server);
const barePort = await listen(createServer(bare));
const [real, reference] = [await load(appPort), await load(barePort)];
console.log(`GET /api/v1/tiers (${seconds} s, ${connections} connections, ${body.length} bytes)`);
console.log(`  the app:               ${real.toFixed(0)} req/s`);
console.log(`  bare Express handler:  ${reference.toFixed(0)} req/s`);
console.log(`  ratio:                 ${(real / reference).toFixed(2)}× (target ≥ 0.5×)`);
app.io.close();
app.server.close();
await app.services.stop();
await db.stop();
process.exit(0);
