import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const validWallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

function errorFor(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration from the environment', () => {
  it('has working embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.solanaRpcUrl).toBeUndefined();
    expect(config.webOrigins).toContain('http://127.0.0.1:3000');
    expect(config.signInDomain).toBe('127.0.0.1:3000');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SOLANA_RPC_URL: 'not a url' }, 'SOLANA_RPC_URL'],
    [{ ADMIN_WALLETS: `${validWallet},0xdeadbeef` }, 'ADMIN_WALLETS'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ NODE_ENV: 'production' }, 'JWT_SECRET'],
    [{ WEB_ORIGINS: 'nope' }, 'WEB_ORIGINS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('rejects %o with a one-line message naming %s', (env, name) => {
    const message = errorFor(env);
    expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    expect(message).not.toContain('\n');
  });

  it('parses lists', () => {
    const config = loadConfig({
      ADMIN_WALLETS: ` ${validWallet} ,`,
      WEB_ORIGINS: 'https://strm.example/app',
    });
    expect([...config.adminWallets]).toEqual([validWallet]);
    expect(config.webOrigins).toEqual(['https://strm.example']);
  });

  it('refuses a TREASURY_KEYPAIR_PATH that names no readable file', () => {
    expect(errorFor({ TREASURY_KEYPAIR_PATH: '/nonexistent/treasury.json' })).toBe(
      'Invalid environment variable TREASURY_KEYPAIR_PATH: no readable file at /nonexistent/treasury.json',
    );
  });
});

describe('production mode (NODE_ENV=production)', () => {
  const keypair = join(mkdtempSync(join(tmpdir(), 'strm-config-')), 'treasury.json');
  writeFileSync(keypair, '[]');
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: 'x'.repeat(32),
    DATABASE_URL: 'postgresql://strm:strm@db:5432/strm',
    SOLANA_RPC_URL: 'https://rpc.example',
    TREASURY_KEYPAIR_PATH: keypair,
  };

  it('starts with real services only, the demo platform off', () => {
    const config = loadConfig(production);
    expect(config.nodeEnv).toBe('production');
    expect(config.demoPlatform).toBe(false);
    expect(config.treasuryKeypairPath).toBe(keypair);
  });

  it.each(['JWT_SECRET', 'DATABASE_URL', 'SOLANA_RPC_URL', 'TREASURY_KEYPAIR_PATH'])(
    'requires %s, named in one line',
    (name) => {
      const message = errorFor({ ...production, [name]: '' });
      expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: required in production`));
      expect(message).not.toContain('\n');
    },
  );

  it('refuses the local chain and its faucet: no SOLANA_RPC_URL means no start', () => {
    const { SOLANA_RPC_URL: _, ...withoutRpc } = production;
    expect(errorFor(withoutRpc)).toBe(
      'Invalid environment variable SOLANA_RPC_URL: required in production (the local chain and its faucet are for development)',
    );
  });

  it('refuses the demo platform', () => {
    expect(errorFor({ ...production, DEMO_PLATFORM: 'on' })).toBe(
      'Invalid environment variable DEMO_PLATFORM: the demo platform is refused in production',
    );
  });

  it("keeps the TikTok API flag off unless TIKTOK_API is 'on' (spec §9)", () => {
    expect(loadConfig({}).platforms.tiktok.apiEnabled).toBe(false);
    expect(loadConfig({ TIKTOK_API: 'off' }).platforms.tiktok.apiEnabled).toBe(false);
    expect(loadConfig({ TIKTOK_API: 'on' }).platforms.tiktok.apiEnabled).toBe(true);
  });

  it('keeps the demo platform on by default outside production', () => {
    expect(loadConfig({}).demoPlatform).toBe(true);
    expect(loadConfig({ DEMO_PLATFORM: 'off' }).demoPlatform).toBe(false);
  });
});
