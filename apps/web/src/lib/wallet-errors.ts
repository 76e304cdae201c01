// What the app knows about wallets without loading the wallet adapter (kept out of the landing page's
// first download).

/** The wallet adapter remembers the chosen wallet under this local storage key (cleared at disconnect). */
export const WALLET_STORAGE_KEY = 'walletName';

export class PhantomNotFoundError extends Error {}

/** Whether a wallet error is the user declining (code 4001): that cancels quietly. */
export function isUserRejection(err: unknown): boolean {
  const e = err as { code?: unknown; error?: { code?: unknown }; message?: unknown } | null;
  return e?.code === 4001 || e?.error?.code === 4001 || /reject/i.test(String(e?.message ?? ''));
}
