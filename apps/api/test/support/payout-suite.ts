// The payout suites' common frame: one local chain and one API for the file, faults made anew for each test,
// and a claim service on them (docs/testing.md).
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { type ClaimDeps, ClaimService } from '../../src/services/rewards/claims.ts';
import { type EngineServer, startEngineServer, startTestChain, type TestChain } from './engine-harness.ts';
import { Faults } from './faults.ts';
import { localTreasury } from './payouts.ts';

/** What a payout suite runs on: one local chain and one API's database and clock for the whole file. */
export interface PayoutSuite {
  chain: TestChain;
  server: EngineServer;
}

/**
 * Starts the file's chain and API before its tests and stops them after; `started` is told them. The API's
 * own reconciler stays out of the way: the tests run reconciliation passes themselves.
 */
export function payoutSuite(started: (suite: PayoutSuite) => void): void {
  let suite: Partial<PayoutSuite> = {};
  beforeAll(async () => {
    const chain = await startTestChain();
    suite = { chain };
    const server = await startEngineServer(chain, { env: { CLAIMS_RECONCILE_MS: '3600000' } });
    suite = { chain, server };
    started({ chain, server });
  }, 180_000);
  afterAll(async () => {
    await suite.server?.close();
    await suite.server?.drop();
    await suite.chain?.stop();
  });
}

/** Faults made anew for each test and healed after it (support/faults.ts); `made` is told each one. */
export function faultsForEachTest(made: (faults: Faults) => void): void {
  let faults: Faults | undefined;
  beforeEach(() => {
    faults = new Faults();
    made(faults);
  });
  afterEach(async () => {
    await faults?.close();
  });
}

/** A claim service on the suite's database and chain, paying from the local treasury; `extra` replaces any of it. */
export function claimServiceOn(suite: PayoutSuite, extra: Partial<ClaimDeps> = {}): ClaimService {
  return new ClaimService({
    prisma: suite.server.prisma,
    connection: suite.chain.local.connection,
    clock: suite.server.clock,
    logger: createLogger(process.env.DEBUG_LOG ? 'debug' : 'silent'),
    treasury: async () => localTreasury(suite.chain),
    isLive: async () => false,
    ...extra,
  });
}
