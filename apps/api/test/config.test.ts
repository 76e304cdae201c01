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
    expect(
      errorFor({
        SOLANA_RPC_URL: 'https://rpc.example',
        TREASURY_KEYPAIR_PATH: '/nonexistent/treasury.json',
      }),
    ).toBe(
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
    METRICS_TOKEN: 'scrape-secret-0123456789',
  };

  it('starts with real services only, the demo platform off', () => {
    const config = loadConfig(production);
    expect(config.nodeEnv).toBe('production');
    expect(config.demoPlatform).toBe(false);
    expect(config.treasuryKeypairPath).toBe(keypair);
  });

  it.each(['JWT_SECRET', 'DATABASE_URL', 'SOLANA_RPC_URL', 'TREASURY_KEYPAIR_PATH', 'METRICS_TOKEN'])(
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

  it.each([
    'https://user:secret@rpc.example',
    'https://mainnet.helius-rpc.com/?api-key=0123456789abcdef',
    'https://solana-mainnet.g.alchemy.com/v2/AbCdEf0123456789',
    'https://example.solana-mainnet.quiknode.pro/0123456789abcdef0123456789abcdef/',
  ])('requires PUBLIC_SOLANA_RPC_URL when SOLANA_RPC_URL may carry credentials (%s)', (url) => {
    expect(errorFor({ ...production, SOLANA_RPC_URL: url })).toBe(
      'Invalid environment variable PUBLIC_SOLANA_RPC_URL: required in production when SOLANA_RPC_URL has user info, a query or a path (it may carry an API key, and browsers are given the RPC URL)',
    );
    const config = loadConfig({
      ...production,
      SOLANA_RPC_URL: url,
      PUBLIC_SOLANA_RPC_URL: 'https://rpc.example',
    });
    expect(config.publicSolanaRpcUrl).toBe('https://rpc.example');
  });

  it('needs no PUBLIC_SOLANA_RPC_URL for an RPC URL that is a bare origin', () => {
    expect(
      loadConfig({ ...production, SOLANA_RPC_URL: 'https://api.mainnet-beta.solana.com/' }).solanaRpcUrl,
    ).toBe('https://api.mainnet-beta.solana.com/');
  });

  it("keeps the TikTok API flag off unless TIKTOK_API is 'on' (docs/product.md#constants)", () => {
    expect(loadConfig({}).platforms.tiktok.apiEnabled).toBe(false);
    expect(loadConfig({ TIKTOK_API: 'off' }).platforms.tiktok.apiEnabled).toBe(false);
    expect(loadConfig({ TIKTOK_API: 'on' }).platforms.tiktok.apiEnabled).toBe(true);
  });

  it('keeps the demo platform on by default outside production', () => {
    expect(loadConfig({}).demoPlatform).toBe(true);
    expect(loadConfig({ DEMO_PLATFORM: 'off' }).demoPlatform).toBe(false);
  });
});

describe('the demo platform and the faucet beside real money (whatever NODE_ENV says)', () => {
  const keypair = join(mkdtempSync(join(tmpdir(), 'strm-config-')), 'treasury.json');
  writeFileSync(keypair, '[]');

  it.each(['development', 'test'])(
    'refuses DEMO_PLATFORM=on with a treasury keypair (NODE_ENV=%s)',
    (NODE_ENV) => {
      expect(
        errorFor({
          NODE_ENV,
          DEMO_PLATFORM: 'on',
          SOLANA_RPC_URL: 'http://127.0.0.1:8899',
          TREASURY_KEYPAIR_PATH: keypair,
        }),
      ).toBe(
        'Invalid environment variable DEMO_PLATFORM: the demo platform is refused with TREASURY_KEYPAIR_PATH (a treasury paying real tokens)',
      );
    },
  );

  it.each(['https://api.devnet.solana.com', 'http://10.0.0.5:8899', 'http://rpc.internal:8899'])(
    'refuses DEMO_PLATFORM=on with a non-local SOLANA_RPC_URL (%s) under NODE_ENV=development',
    (url) => {
      expect(errorFor({ NODE_ENV: 'development', DEMO_PLATFORM: 'on', SOLANA_RPC_URL: url })).toBe(
        'Invalid environment variable DEMO_PLATFORM: the demo platform is refused with a SOLANA_RPC_URL that is not on this machine',
      );
    },
  );

  it('turns the demo platform off by default with a treasury keypair or a non-local RPC', () => {
    const devnet = { NODE_ENV: 'development', SOLANA_RPC_URL: 'https://api.devnet.solana.com' };
    expect(loadConfig(devnet).demoPlatform).toBe(false);
    expect(loadConfig({ ...devnet, TREASURY_KEYPAIR_PATH: keypair }).demoPlatform).toBe(false);
    expect(
      loadConfig({
        NODE_ENV: 'development',
        SOLANA_RPC_URL: 'http://127.0.0.1:8899',
        TREASURY_KEYPAIR_PATH: keypair,
      }).demoPlatform,
    ).toBe(false);
    // A validator on this machine without a treasury keypair is still a local configuration.
    expect(
      loadConfig({ NODE_ENV: 'development', SOLANA_RPC_URL: 'http://localhost:8899' }).demoPlatform,
    ).toBe(true);
  });

  it('refuses a treasury keypair beside the local chain and its faucet (NODE_ENV=development)', () => {
    expect(errorFor({ NODE_ENV: 'development', TREASURY_KEYPAIR_PATH: keypair })).toBe(
      'Invalid environment variable TREASURY_KEYPAIR_PATH: refused with the local chain and its faucet (SOLANA_RPC_URL unset): set SOLANA_RPC_URL to the cluster this treasury pays on',
    );
  });

  it('runs the faucet only beside the local chain', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).faucet).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'development', SOLANA_RPC_URL: 'https://api.devnet.solana.com' }).faucet,
    ).toBe(false);
  });

  it('uses a local chain another process runs (LOCAL_CHAIN_DIR), never with SOLANA_RPC_URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strm-chain-'));
    expect(errorFor({ LOCAL_CHAIN_DIR: dir })).toBe(
      `Invalid environment variable LOCAL_CHAIN_DIR: no readable chain.json in ${dir}`,
    );
    writeFileSync(join(dir, 'chain.json'), '{}');
    expect(loadConfig({ LOCAL_CHAIN_DIR: dir })).toMatchObject({
      localChainDir: dir,
      faucet: true,
      demoPlatform: true,
    });
    expect(errorFor({ LOCAL_CHAIN_DIR: dir, SOLANA_RPC_URL: 'http://127.0.0.1:8899' })).toBe(
      'Invalid environment variable LOCAL_CHAIN_DIR: names the local chain to use: leave SOLANA_RPC_URL unset with it',
    );
  });
});
