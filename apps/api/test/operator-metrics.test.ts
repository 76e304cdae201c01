// What an operator's Prometheus reads from /metrics (docs/operations.md#alerts): the treasury's balances, what
// is owed, how payouts fared, the dependencies' state, sockets per namespace, platform answers. A real server
// on PostgreSQL and the local chain; collects are real payouts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createRpc } from '../src/rpc/rpc.ts';
import { loadConfig } from '../src/config.ts';
import { createPrisma } from '../src/db/index.ts';
import { createLogger } from '../src/logger.ts';
import { API_INSTANCE, SettledClaims } from '../src/observability/operator.ts';
import { platformFetch } from '../src/platforms/fetch.ts';
import {
  connect,
  type EngineServer,
  request as socketRequest,
  selfTransfer,
  startEngineServer,
  startTestChain,
  type TestChain,
  wallClock,
} from './support/engine-harness.ts';
import { fundedWallets, localTreasury } from './support/payouts.ts';
import { createTestDatabase, minedOnce } from './support/test-app.ts';

/** The samples of a scrape, by series (`name{labels}` as exposed). */
export function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

let chain: TestChain;
let server: EngineServer;
beforeAll(async () => {
  chain = await startTestChain();
  server = await startEngineServer(chain, { clock: wallClock });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await server?.drop();
  await chain?.stop();
});

describe('/metrics for the operator', () => {
  it('reports the treasury, what is owed, a payout and its latency, failures by reason, the backlog and sockets', async () => {
    const [collector, owed] = await fundedWallets(chain, 2);
    const collectorWallet = collector!.publicKey.toBase58();
    for (const w of [collectorWallet, owed!.publicKey.toBase58()])
      await minedOnce(server.prisma, w, new Date());
    await server.prisma.streamer.update({
      where: { wallet: collectorWallet },
      data: { pendingRewardUnits: 2_000_000n },
    });
    await server.prisma.streamer.update({
      where: { wallet: owed!.publicKey.toBase58() },
      data: { pendingRewardUnits: 7_000_000n },
    });
    const socket = await connect(server, collectorWallet);
    const signature = await selfTransfer(chain, collector!);
    const paid = await socketRequest(socket, 'collect-rewards', { signature, wallet: collectorWallet }, [
      'rewards-collected',
      'rewards-error',
    ]);
    expect(paid.event).toBe('rewards-collected');
    // Claims as the payout path leaves them: one expired, one failed on chain, one sent and not settled.
    const claim = (status: 'expired' | 'failed' | 'sent', error: string | null, n: number) =>
      server.prisma.rewardClaim.create({
        data: {
          wallet: owed!.publicKey.toBase58(),
          requestSignature: `metrics-test-${n}`,
          amountUnits: 1n,
          status,
          error,
          createdAt: new Date(Date.now() - 90_000),
          settledAt: status === 'sent' ? null : new Date(),
        },
      });
    await claim('expired', 'payout blockhash expired before it landed', 1);
    await claim('failed', 'payout failed on chain', 2);
    await claim('sent', null, 3);

    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    const m = samples(await res.text());
    const treasury = localTreasury(chain);
    const connection = chain.local.connection;
    const units = Number((await connection.getTokenAccountBalance(treasury.tokenAccount)).value.amount);
    expect(m.get('strm_treasury_token_units')).toBe(units);
    expect(m.get('strm_treasury_sol_lamports')).toBe(await connection.getBalance(treasury.owner.publicKey));
    expect(m.get('strm_pending_reward_units')).toBe(7_000_000);
    expect(m.get('strm_payout_duration_seconds_count')).toBe(1);
    expect(m.get('strm_payout_duration_seconds_bucket{le="+Inf"}')).toBe(1);
    // Reserved and confirmed within the collect's answer: well under 30 s.
    expect(m.get('strm_payout_duration_seconds_bucket{le="30"}')).toBe(1);
    expect(m.get('strm_payout_failures_total{reason="expired"}')).toBe(1);
    expect(m.get('strm_payout_failures_total{reason="chain_error"}')).toBe(1);
    expect(m.get('strm_reward_claims_unsettled_oldest_seconds')).toBeGreaterThanOrEqual(89);
    expect(m.get('strm_dependency_up{dependency="database"}')).toBe(1);
    expect(m.get('strm_dependency_up{dependency="chain"}')).toBe(1);
    expect(m.get(`strm_sockets{namespace="/",api_instance="${API_INSTANCE}"}`)).toBe(1);
    socket.disconnect();
  }, 60_000);

  it("counts a platform's answers by outcome, 429s apart", async () => {
    let answers = [429, 200, 503];
    const fake: Server = createServer((_req, res) => {
      res.writeHead(answers.shift() ?? 200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`;
    const before = samples(await (await fetch(`${server.url}/metrics`)).text());
    const logger = createLogger('silent');
    for (let i = 0; i < 3; i++) await platformFetch('Kick', url, { timeoutMs: 2000 }, logger);
    await new Promise<void>((r) => fake.close(() => r()));
    await platformFetch('Kick', url, { timeoutMs: 2000 }, logger).catch(() => {});
    answers = [];
    const after = samples(await (await fetch(`${server.url}/metrics`)).text());
    const grew = (outcome: string) => {
      const key = `strm_platform_requests_total{platform="kick",outcome="${outcome}"}`;
      return (after.get(key) ?? 0) - (before.get(key) ?? 0);
    };
    expect([grew('rate_limited'), grew('ok'), grew('error'), grew('unreachable')]).toEqual([1, 1, 1, 1]);
  });

  it('counts each settled claim once, however many reads see it, the ones settling later included', async () => {
    const db = await createTestDatabase();
    const prisma = createPrisma(db.url);
    try {
      const wallet = 'SettledClaimsTestWallet1111111111111111111';
      await prisma.streamer.create({ data: { wallet } });
      let n = 0;
      const claim = (
        status: 'reserved' | 'confirmed' | 'failed',
        secondsToSettle: number,
        error?: string,
      ) => {
        const createdAt = new Date(Date.now() - 600_000);
        return prisma.rewardClaim.create({
          data: {
            wallet,
            requestSignature: `settled-${n++}`,
            amountUnits: 1n,
            status,
            error,
            createdAt,
            settledAt: status === 'reserved' ? null : new Date(createdAt.getTime() + secondsToSettle * 1000),
          },
        });
      };
      const settled = new SettledClaims(prisma);
      await claim('confirmed', 3);
      await settled.read();
      expect(settled.latency()).toMatchObject({ count: 1, sum: 3 });
      const inFlight = await claim('reserved', 0);
      await claim('confirmed', 45);
      await settled.read();
      await settled.read();
      expect(settled.latency()).toMatchObject({ count: 2, sum: 48 });
      await prisma.rewardClaim.update({
        where: { id: inFlight.id },
        data: { status: 'confirmed', settledAt: new Date(inFlight.createdAt.getTime() + 400_000) },
      });
      await claim('failed', 5, 'payout failed on chain');
      await settled.read();
      const latency = settled.latency();
      expect(latency).toMatchObject({ count: 3, sum: 448 });
      // le = 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800
      expect(latency.buckets).toEqual([0, 0, 1, 1, 1, 2, 2, 2, 3, 3]);
      expect([...settled.failures]).toEqual([['chain_error', 1]]);
    } finally {
      await prisma.$disconnect();
      await db.drop();
    }
  });

  it('answers the scrape with the database away: the database reported down, its figures left out', async () => {
    // Nothing listens on port 9: every query fails at once.
    const prisma = createPrisma('postgresql://strm@127.0.0.1:9/strm');
    try {
      const app = createApp({
        config: loadConfig({
          NODE_ENV: 'test',
          DATABASE_URL: 'postgresql://strm@127.0.0.1:9/strm',
          JWT_SECRET: 'operator-metrics-secret-0123456789abcdef',
        }),
        prisma,
        rpc: createRpc(chain.local.rpcUrl),
        clock: wallClock,
        logger: createLogger('silent'),
        localChainInfo: chain.local.info,
      });
      const res = await request(app.app).get('/metrics');
      expect(res.status).toBe(200);
      const m = samples(res.text);
      expect(m.get('strm_dependency_up{dependency="database"}')).toBe(0);
      expect(m.get('strm_dependency_up{dependency="chain"}')).toBe(1);
      expect(m.has('strm_pending_reward_units')).toBe(false);
      expect(m.has('strm_payout_duration_seconds_count')).toBe(false);
      expect(m.get('strm_treasury_token_units')).toBeGreaterThan(0);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('answers the scrape with the chain away: the chain reported down, the treasury left out', async () => {
    const db = await createTestDatabase();
    const prisma = createPrisma(db.url);
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: db.url,
        JWT_SECRET: 'operator-metrics-secret-0123456789abcdef',
      });
      // Nothing listens on port 9: every RPC call fails.
      const app = createApp({
        config,
        prisma,
        rpc: createRpc('http://127.0.0.1:9'),
        clock: wallClock,
        logger: createLogger('silent'),
        localChainInfo: chain.local.info,
      });
      const res = await request(app.app).get('/metrics');
      expect(res.status).toBe(200);
      const m = samples(res.text);
      expect(m.get('strm_dependency_up{dependency="chain"}')).toBe(0);
      expect(m.get('strm_dependency_up{dependency="database"}')).toBe(1);
      expect(m.has('strm_treasury_token_units')).toBe(false);
      expect(m.get('strm_pending_reward_units')).toBe(0);
    } finally {
      await prisma.$disconnect();
      await db.drop();
    }
  });
});
