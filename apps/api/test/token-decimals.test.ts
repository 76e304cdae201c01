// The amounts here are base units of 6 decimals; the program's `initialize` accepts any mint. An API started
// on a config whose mint has other decimals would pay 1000× too little (9) or 100× too much (4): it refuses to
// start, naming both.
import { configPda, miningProgram } from '@strm/mining-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createPrisma } from '../src/db/index.ts';
import { createLogger } from '../src/logger.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { seedDefaultTiers } from '../src/services/tiers/catalog.ts';
import { startTestChain, type TestChain } from './support/engine-harness.ts';
import { createTestDatabase } from './support/test-app.ts';

let chain: TestChain;
let db: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  chain = await startTestChain();
  db = await createTestDatabase();
}, 180_000);
afterAll(async () => {
  await db?.drop();
  await chain?.stop();
});

async function startOn(decimals: number) {
  const program = miningProgram(chain.local.connection);
  const address = configPda(program.programId);
  const info = (await chain.local.connection.getAccountInfo(address, 'confirmed'))!;
  const config = program.coder.accounts.decode('config', info.data);
  const data = await program.coder.accounts.encode('config', { ...config, tokenDecimals: decimals });
  await chain.local.setAccount(address, { lamports: info.lamports, owner: info.owner, data });
  const prisma = createPrisma(db.url);
  await seedDefaultTiers(prisma);
  const app = createApp({
    config: loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      JWT_SECRET: 'decimals-test-secret-decimals-test',
    }),
    prisma,
    rpc: createRpc(chain.local.rpcUrl, chain.local.wsUrl),
    clock: systemClock,
    logger: createLogger('silent'),
    localChainInfo: chain.local.info,
  });
  try {
    await app.services.start();
  } finally {
    await app.services.stop();
    await prisma.$disconnect();
  }
}

it('refuses to start on a mint with 9 decimals, and on one with 4, naming both; starts on 6', async () => {
  await expect(startOn(9)).rejects.toThrow(
    "The mining program's config names a mint with 9 decimals, but STRM amounts here assume 6: payouts would be 1000× too small.",
  );
  await expect(startOn(4)).rejects.toThrow(
    "The mining program's config names a mint with 4 decimals, but STRM amounts here assume 6: payouts would be 100× too large.",
  );
  await expect(startOn(6)).resolves.toBeUndefined();
}, 120_000);
