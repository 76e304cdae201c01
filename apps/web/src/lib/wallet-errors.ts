// What the app knows about wallets without loading the wallet code (kept out of the landing page's first
// download).

/** The chosen wallet is remembered under this local storage key (cleared at disconnect); the key the
 * Solana wallet adapter used, so a visitor remembered before is still restored. */
export const WALLET_STORAGE_KEY = 'walletName';

export class PhantomNotFoundError extends Error {}

/** Whether a wallet error is the user declining (code 4001): that cancels quietly. */
export function isUserRejection(err: unknown): boolean {
  const e = err as { code?: unknown; error?: { code?: unknown }; message?: unknown } | null;
  return e?.code === 4001 || e?.error?.code === 4001 || /reject/i.test(String(e?.message ?? ''));
}
