import { describe, expect, it } from 'vitest';
import { readToken, tokenFits } from './token.ts';

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const token = (payload: object) => `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;

describe('stored session tokens', () => {
  const now = Date.UTC(2026, 0, 1);
  const exp = now / 1000 + 3600;

  it('reads the wallet and expiry a token names', () => {
    expect(readToken(token({ sub: wallet, exp }))).toEqual({ wallet, expiresAt: exp * 1000 });
  });

  it('keeps a token only for its own wallet and while it has more than a minute left', () => {
    expect(tokenFits(token({ sub: wallet, exp }), wallet, now)).toBe(true);
    expect(tokenFits(token({ sub: 'another', exp }), wallet, now)).toBe(false);
    expect(tokenFits(token({ sub: wallet, exp: now / 1000 + 30 }), wallet, now)).toBe(false);
    expect(tokenFits(null, wallet, now)).toBe(false);
    expect(tokenFits('garbage', wallet, now)).toBe(false);
    expect(tokenFits(token({ exp }), wallet, now)).toBe(false);
  });
});
