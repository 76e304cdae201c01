/** The wallet and expiry a stored session token names (read without verifying: the server verifies). */
export function readToken(token: string): { wallet: string; expiresAt: number } | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
      sub?: unknown;
      exp?: unknown;
    };
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
    return { wallet: payload.sub, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

/** Whether `token` signs in `wallet` for at least another minute. */
export function tokenFits(token: string | null, wallet: string, now = Date.now()): token is string {
  const read = token ? readToken(token) : null;
  return !!read && read.wallet === wallet && read.expiresAt - 60_000 > now;
}
