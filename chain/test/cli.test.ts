// `pnpm --filter @strm/local-chain start` as a developer runs it: state where DATA_DIR says, as the API
// keeps it (DATA_DIR/chain), and never in production.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePortPair } from './support.ts';

const chainDir = fileURLToPath(new URL('..', import.meta.url));

function startCli(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'ts/cli.ts'], {
    cwd: chainDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  return { child, exited, output: () => output };
}

describe('pnpm --filter @strm/local-chain start', () => {
  it('keeps the ledger, keys and chain.json under DATA_DIR/chain, on LOCAL_CHAIN_PORT', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-cli-'));
    const port = await freePortPair();
    const cli = startCli({ DATA_DIR: dataDir, LOCAL_CHAIN_PORT: String(port), INIT_CWD: chainDir });
    try {
      const ready = await Promise.race([
        new Promise<boolean>((done) => {
          const timer = setInterval(() => {
            if (cli.output().includes('local chain ready')) {
              clearInterval(timer);
              done(true);
            }
          }, 100);
          void cli.exited.then(() => clearInterval(timer));
        }),
        cli.exited.then(() => false),
      ]);
      expect(ready, cli.output()).toBe(true);
      const info = JSON.parse(readFileSync(join(dataDir, 'chain', 'chain.json'), 'utf8'));
      expect(info.rpcUrl).toBe(`http://127.0.0.1:${port}`);
      expect(existsSync(join(dataDir, 'chain', 'keys', 'authority.json'))).toBe(true);
      expect(existsSync(join(dataDir, 'chain', 'cheat-token'))).toBe(true);
      // Stopped by Ctrl-C or SIGTERM, it writes the ledger there too.
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      expect(existsSync(join(dataDir, 'chain', 'ledger.bin'))).toBe(true);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill('SIGTERM');
      await cli.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start with NODE_ENV=production', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'strm-chain-cli-prod-'));
    try {
      const cli = startCli({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        LOCAL_CHAIN_PORT: String(await freePortPair()),
      });
      expect(await cli.exited).toBe(1);
      expect(cli.output()).toContain('does not run with NODE_ENV=production');
      expect(existsSync(join(dataDir, 'chain'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
