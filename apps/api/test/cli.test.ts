import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand, UsageError } from '../src/cli.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
const configured = Keypair.generate().publicKey.toBase58();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const wallet = () => Keypair.generate().publicKey.toBase58();

async function run(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdminCommand(
    {
      prisma: t.prisma,
      config: { adminWallets: new Set([configured]) },
      actor: 'cli:operator',
      now: () => new Date('2026-02-01T10:00:00Z'),
    },
    argv,
    (line) => lines.push(line),
  );
  return lines;
}

/** The real command, as an operator runs it, against the test database. */
function spawnCli(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
      cwd: apiDir,
      env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' },
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

describe('pnpm admin (the operators CLI)', () => {
  it('grants and revokes beta access, recorded as done by the CLI', async () => {
    const w = wallet();
    expect(await run('grant', w)).toEqual([`Beta access granted to ${w}`]);
    expect(await t.prisma.betaAccess.findUnique({ where: { wallet: w } })).toMatchObject({
      grantedBy: 'cli:operator',
    });
    expect(await run('revoke', w)).toEqual([`Beta access revoked from ${w}`]);
    expect(await t.prisma.betaAccess.count({ where: { wallet: w } })).toBe(0);
    const audit = await t.prisma.adminAction.findMany({ where: { target: w }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.actor, a.action, a.createdAt.toISOString()])).toEqual([
      ['cli:operator', 'grant_access', '2026-02-01T10:00:00.000Z'],
      ['cli:operator', 'revoke_access', '2026-02-01T10:00:00.000Z'],
    ]);
    await expect(run('revoke', w)).rejects.toThrow('This wallet has no beta access');
  });

  it('promotes and demotes admins and lists them', async () => {
    const w = wallet();
    expect(await run('promote', w)).toEqual([`${w} is now an admin`]);
    expect(await run('admins')).toEqual([
      `${configured}  ADMIN_WALLETS`,
      `${w}  promoted by cli:operator at 2026-02-01T10:00:00.000Z`,
    ]);
    expect(await run('demote', w)).toEqual([`${w} is no longer an admin`]);
    await expect(run('demote', configured)).rejects.toThrow('admin through ADMIN_WALLETS');
  });

  it('lists registrations with filters', async () => {
    const [a, b] = [wallet(), wallet()];
    const base = {
      name: 'S',
      email: 's@example.com',
      platformUsername: 'u',
      tokenBalance: 0n,
      streamingFrequency: 'Daily',
      followerCount: 1,
      contentType: 'Art',
      projectInterest: 'x',
    };
    await t.prisma.betaRegistration.createMany({
      data: [
        { ...base, wallet: a, platform: 'kick', createdAt: new Date('2026-01-05T00:00:00Z') },
        { ...base, wallet: b, platform: 'youtube', createdAt: new Date('2026-01-06T00:00:00Z') },
      ],
    });
    await run('grant', b);
    const lines = await run('list', '--platform', 'youtube');
    expect(lines[0]).toBe('1 registration(s), page 1');
    expect(lines[1]).toContain(`${b}  access  youtube`);
    expect((await run('list', '--access', 'none', '--platform', 'kick'))[1]).toContain(
      `${a}  no access  kick`,
    );
    await expect(run('list', '--platform', 'myspace')).rejects.toBeInstanceOf(UsageError);
    await expect(run('list', '--colour')).rejects.toBeInstanceOf(UsageError);
  });

  it('switches maintenance mode with an optional message', async () => {
    expect(await run('maintenance', 'on', 'Back', 'at', 'noon')).toEqual([
      'Maintenance mode on: Back at noon',
    ]);
    expect(await t.prisma.maintenance.findUnique({ where: { id: 1 } })).toMatchObject({
      isMaintenance: true,
      message: 'Back at noon',
      updatedBy: 'cli:operator',
    });
    expect(await run('maintenance', 'off')).toEqual(['Maintenance mode off']);
    await expect(run('maintenance', 'sideways')).rejects.toThrow('maintenance takes on or off');
  });

  it('refuses unknown commands and bad wallets', async () => {
    await expect(run('frobnicate')).rejects.toThrow('Unknown command: frobnicate');
    await expect(run('grant')).rejects.toThrow('A wallet address is required');
    await expect(run('grant', 'nope')).rejects.toThrow('Invalid wallet address: nope');
  });

  it('runs as a command against the database: exit codes, output, errors', async () => {
    const w = wallet();
    const ok = await spawnCli(['grant', w]);
    expect(ok).toMatchObject({ code: 0, stdout: `Beta access granted to ${w}\n` });
    expect(await t.prisma.betaAccess.count({ where: { wallet: w } })).toBe(1);

    const failed = await spawnCli(['revoke', wallet()]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe('This wallet has no beta access\n');

    const usage = await spawnCli(['grant', 'nope']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Invalid wallet address: nope');
    expect(usage.stderr).toContain('Usage: pnpm admin <command>');
    // Three processes started one after the other (tsx, Prisma, a database connection each): over a
    // minute on a loaded 2-core machine, which the 60 s default cut short.
  }, 240_000);
});
