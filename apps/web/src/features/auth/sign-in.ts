// The sign-in sequence (docs/product.md#sign-in-sequence) over any signer of the connected wallet: get a
// nonce, sign its message, post the signature, keep the token. Free of the wallet adapter and web3.js: a
// first sign-in runs it over Phantom's own provider (AuthRoot), the loaded adapter session over the adapter
// (WalletAuth).
import { authToken } from '../../lib/api.ts';
import { isUserRejection, WALLET_STORAGE_KEY } from '../../lib/wallet-errors.ts';
import { fetchNonce, postAuthenticate } from './api.ts';
import { AUTH_ERROR_PARAM } from './context.ts';
import { AUTH_MESSAGES } from './messages.ts';

/** The token (kept in storage), or why not: declined in the wallet (quiet), or the message to show. */
export type SignInOutcome = { token: string } | { declined: true } | { failed: string };

export async function signIn(
  address: string,
  signMessage: (message: Uint8Array) => Promise<Uint8Array>,
): Promise<SignInOutcome> {
  let nonce: Awaited<ReturnType<typeof fetchNonce>>;
  try {
    nonce = await fetchNonce(address);
  } catch {
    return { failed: AUTH_MESSAGES.nonceFailed };
  }
  let signature: Uint8Array;
  try {
    signature = await signMessage(new TextEncoder().encode(nonce.message));
  } catch (err) {
    return isUserRejection(err) ? { declined: true } : { failed: AUTH_MESSAGES.authFailed };
  }
  try {
    const { token } = await postAuthenticate({
      publicKey: address,
      signedMessage: Array.from(signature),
      nonce: nonce.nonce,
    });
    return { token };
  } catch {
    return { failed: AUTH_MESSAGES.authFailed };
  }
}

/** Back to the landing page with the sign-in's failure (AuthErrorBanner shows it). */
export function failTo(message: string) {
  const url = new URL(window.location.href);
  url.pathname = '/';
  url.search = '';
  url.searchParams.set(AUTH_ERROR_PARAM, message);
  window.history.replaceState(null, '', url);
  // The router listens to popstate; replaceState alone does not tell it.
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** Signing out: the wallet disconnected, stored auth, the remembered wallet and session storage cleared. */
export async function signOut(disconnectWallet: () => Promise<void>) {
  await disconnectWallet().catch(() => {});
  authToken.clear();
  localStorage.removeItem(WALLET_STORAGE_KEY);
  sessionStorage.clear();
  window.location.reload();
}
