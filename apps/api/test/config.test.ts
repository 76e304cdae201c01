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
});
