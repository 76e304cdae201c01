// Backups that restore (docs/operations.md#backups): `pnpm admin backup` with 100 open sessions and pending
// rewards, the database destroyed, `pnpm admin restore`, everything back; a payout in flight when the
// backup was taken, confirmed after it, is settled from the chain on the next start, and a collect reserved
// and paid entirely after the backup is found on chain (the treasury's getSignaturesForAddress) and recorded:
// neither is paid again.
// On the machine's PostgreSQL (an external server, whose pg_dump Debian ships; the embedded server is newer).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { SERVER_MESSAGES } from '@strm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTORED_MAINTENANCE } from '../src/cli.ts';
import { findTool } from '../src/db/backup.ts';
import { applyMigrations } from '../src/db/schema-engine.ts';
import {
  connect,
  type EngineServer,
  request as socketRequest,
  selfTransfer,
  startEngineServer,
  startTestChain,
  type TestChain,
  tokenUnits,
  wallClock,
} from './support/engine-harness.ts';
import { fundedWallets } from './support/payouts.ts';
import { adminQuery, databaseUrl, minedOnce } from './support/test-app.ts';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
const machinePostgres = process.env.EXTERNAL_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const name = `strm_backup_${randomBytes(6).toString('hex')}`;
const url = databaseUrl(machinePostgres, name);
let chain: TestChain;
let server: EngineServer | undefined;
let dir: string;

/** The operators' command, as they run it. */
function admin(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
      cwd: apiDir,
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  chain = await startTestChain();
  await adminQuery(machinePostgres, `CREATE DATABASE "${name}"`);
  await applyMigrations(url);
  // The reconciler of the instance the backup is taken beside runs once, at its start: the claim in flight
  // stays as the backup caught it.
  server = await startEngineServer(chain, {
    databaseUrl: url,
    clock: wallClock,
    env: { CLAIMS_RECONCILE_MS: '3600000' },
  });
  dir = await mkdtemp(join(tmpdir(), 'strm-backup-'));
}, 180_000);
afterAll(async () => {
  await server?.close();
  await chain?.stop();
  await adminQuery(machinePostgres, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('pnpm admin backup / restore', () => {
  it('names the client to install when no pg_dump is as new as the server (pg_dump refuses newer servers)', async () => {
    await expect(findTool('pg_dump', 99)).rejects.toThrow(
      /^pg_dump 99 or newer is needed for this PostgreSQL 99 server; found pg_dump \d+ \(.+\).* Install PostgreSQL 99's client tools \(Debian: postgresql-client-99\) or set PG_BIN_DIR to their bin directory\.$/,
    );
  });

  it('brings back every pending reward and open session; a payout in flight or made after the backup is not paid again', async () => {
    const live = server!;
    // 100 streamers mining now (their sessions as the engine checkpoints them, run by a live instance) and
    // owed rewards.
    const wallets = Array.from({ length: 100 }, () => Keypair.generate().publicKey.toBase58());
    const checkpoint = new Date(Date.now() - 30_000);
    await live.prisma.apiInstance.create({
      data: { id: 'backup-test-instance', leaseUntil: new Date(Date.now() + 3_600_000) },
    });
    await live.prisma.streamer.createMany({
      data: wallets.map((wallet, i) => ({ wallet, pendingRewardUnits: BigInt((i + 1) * 1_000) })),
    });
    await live.prisma.miningSession.createMany({
      data: wallets.map((wallet) => ({
        wallet,
        platform: 'demo' as const,
        tierName: 'Tier 1',
        rateUnitsPerHour: 250_000n,
        startedAt: new Date(checkpoint.getTime() - 600_000),
        accruedUntil: checkpoint,
        ownerInstance: 'backup-test-instance',
      })),
    });

    // A collect paid on chain; the backup is taken while its claim was `sent` (the payout sent, not yet
    // confirmed), and the payout path records its confirmation after the backup.
    const [collector, later] = await fundedWallets(chain, 2);
    const collectorWallet = collector!.publicKey.toBase58();
    const laterWallet = later!.publicKey.toBase58();
    for (const [wallet, units] of [
      [collectorWallet, 3_000_000n],
      [laterWallet, 2_000_000n],
    ] as const) {
      await minedOnce(live.prisma, wallet, new Date());
      await live.prisma.streamer.update({ where: { wallet }, data: { pendingRewardUnits: units } });
    }
    const socket = await connect(live, collectorWallet);
    const proof = await selfTransfer(chain, collector!);
    const paid = await socketRequest(
      socket,
      'collect-rewards',
      { signature: proof, wallet: collectorWallet },
      ['rewards-collected', 'rewards-error'],
    );
    expect(paid.event).toBe('rewards-collected');
    socket.disconnect();
    const claim = await live.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: collectorWallet } });
    await live.prisma.rewardClaim.update({
      where: { id: claim.id },
      data: { status: 'sent', settledAt: null },
    });

    const file = join(dir, 'strm.dump');
    const backup = await admin('backup', file);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written to .*strm\.dump \(\d+ bytes, .*pg_dump\)\n$/);
    await live.prisma.rewardClaim.update({
      where: { id: claim.id },
      data: { status: 'confirmed', settledAt: new Date() },
    });
    const before = {
      pending: await live.prisma.streamer.findMany({
        orderBy: { wallet: 'asc' },
        select: { wallet: true, pendingRewardUnits: true },
      }),
      open: await live.prisma.miningSession.findMany({ where: { endedAt: null }, orderBy: { id: 'asc' } }),
    };
    expect(before.open).toHaveLength(100);
    // Another wallet collects after the backup: reserved and paid on chain, unknown to the backup.
    const laterSocket = await connect(live, laterWallet);
    const laterPaid = await socketRequest(
      laterSocket,
      'collect-rewards',
      { signature: await selfTransfer(chain, later!), wallet: laterWallet },
      ['rewards-collected', 'rewards-error'],
    );
    expect(laterPaid.event).toBe('rewards-collected');
    laterSocket.disconnect();
    const laterPayout = (
      await live.prisma.rewardClaim.findFirstOrThrow({ where: { wallet: laterWallet, status: 'confirmed' } })
    ).payoutSignature;
    expect(await tokenUnits(chain, later!.publicKey)).toBe(2_000_000n);

    // The database is lost.
    await live.close();
    server = undefined;
    await adminQuery(machinePostgres, `DROP DATABASE "${name}" WITH (FORCE)`);
    await adminQuery(machinePostgres, `CREATE DATABASE "${name}"`);

    const restored = await admin('restore', file);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restored .*strm\.dump, taken at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \w+ \(.*pg_restore\)\.\nMaintenance mode is on: /,
    );
    // A second restore would overwrite what is there: refused unless asked for.
    const again = await admin('restore', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'The database is not empty: restore into an empty database, or pass --replace to drop what it holds first\n',
    );

    // Every pending reward and open session is back, as the backup had them (before any API starts).
    const back = await adminQuery(
      url,
      'SELECT wallet, pending_reward_units::text AS units FROM streamers ORDER BY wallet',
    );
    expect(back.rows).toEqual(
      before.pending.map((s) => ({
        wallet: s.wallet,
        units: (s.wallet === collectorWallet ? 0n : s.pendingRewardUnits).toString(),
      })),
    );
    const open = await adminQuery(
      url,
      'SELECT id, wallet, accrued_until FROM mining_sessions WHERE ended_at IS NULL ORDER BY id',
    );
    expect(open.rows).toEqual(
      before.open.map((s) => ({ id: s.id, wallet: s.wallet, accrued_until: s.accruedUntil })),
    );
    const inFlight = await adminQuery(url, 'SELECT status::text AS status FROM reward_claims WHERE id = $1', [
      claim.id,
    ]);
    expect(inFlight.rows).toEqual([{ status: 'sent' }]);

    // The API starts on the restored database: the reconciler reads the payout on chain and records it as
    // confirmed; nothing is re-credited and a new collect has nothing to pay.
    const balance = await tokenUnits(chain, collector!.publicKey);
    expect(balance).toBe(3_000_000n);
    server = await startEngineServer(chain, { databaseUrl: url, clock: wallClock });
    expect(await server.prisma.rewardClaim.findUniqueOrThrow({ where: { id: claim.id } })).toMatchObject({
      status: 'confirmed',
    });
    // The collect made after the backup, read from the chain: recorded as paid, its pending reward taken back.
    expect(
      await server.prisma.rewardClaim.findMany({
        where: { wallet: laterWallet },
        select: { status: true, amountUnits: true, payoutSignature: true },
      }),
    ).toEqual([{ status: 'confirmed', amountUnits: 2_000_000n, payoutSignature: laterPayout }]);
    expect(
      (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: laterWallet } })).pendingRewardUnits,
    ).toBe(0n);
    // Collects stay paused (maintenance, set by the restore) until the operator has checked and says so.
    expect(await server.prisma.maintenance.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({
      isMaintenance: true,
      message: RESTORED_MAINTENANCE,
    });
    const paused = await connect(server, collectorWallet);
    const pausedAnswer = await socketRequest(
      paused,
      'collect-rewards',
      { signature: await selfTransfer(chain, collector!), wallet: collectorWallet },
      ['rewards-collected', 'rewards-error'],
    );
    expect(pausedAnswer).toMatchObject({
      event: 'rewards-error',
      payload: { message: SERVER_MESSAGES.maintenanceActive },
    });
    paused.disconnect();
    const resumed = await admin('maintenance', 'off');
    expect([resumed.code, resumed.stdout]).toEqual([0, 'Maintenance mode off\n']);
    expect(
      (await server.prisma.streamer.findUniqueOrThrow({ where: { wallet: collectorWallet } }))
        .pendingRewardUnits,
    ).toBe(0n);
    const again2 = await connect(server, collectorWallet);
    const proof2 = await selfTransfer(chain, collector!);
    const refused = await socketRequest(
      again2,
      'collect-rewards',
      { signature: proof2, wallet: collectorWallet },
      ['rewards-collected', 'rewards-error'],
    );
    expect(refused).toMatchObject({
      event: 'rewards-error',
      payload: { message: SERVER_MESSAGES.nothingToCollect },
    });
    again2.disconnect();
    expect(await tokenUnits(chain, collector!.publicKey)).toBe(balance);
    // Nor is the wallet paid after the backup paid again.
    const laterAgain = await connect(server, laterWallet);
    expect(
      await socketRequest(
        laterAgain,
        'collect-rewards',
        { signature: await selfTransfer(chain, later!), wallet: laterWallet },
        ['rewards-collected', 'rewards-error'],
      ),
    ).toMatchObject({ event: 'rewards-error', payload: { message: SERVER_MESSAGES.nothingToCollect } });
    laterAgain.disconnect();
    expect(await tokenUnits(chain, later!.publicKey)).toBe(2_000_000n);
  }, 240_000);
});
