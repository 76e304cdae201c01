// The sign-in session for the whole app, with the wallet adapter (and web3.js under it) loaded only when
// needed: at once for a returning visitor whose wallet is remembered. A visitor who presses Connect signs in
// through Phantom's own provider (lib/phantom.ts: connect and sign a message, no web3.js), and the adapter
// loads once the signed-in screens have had their start, or at once when a transaction or a change in the
// wallet needs it (docs/architecture.md#the-web-apps-wallet-code). Without Phantom's provider, Connect
// loads the adapter, which looks for Wallet Standard wallets. The loaded session renders beside the app and
// publishes its state into the same context, so the page does not remount (nor lose focus or input) when
// the wallet code arrives.
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { authToken } from '../../lib/api.ts';
import { injectedPhantom, type PhantomProvider } from '../../lib/phantom.ts';
import { isUserRejection, WALLET_STORAGE_KEY } from '../../lib/wallet-errors.ts';
import { AuthContext, type AuthState, type AuthStatus } from './context.ts';
import type { SessionStart } from './WalletAuth.tsx';

type WalletAuthComponent = typeof import('./WalletAuth.tsx')['WalletAuth'];

const loadWalletAuth = () => import('./WalletAuth.tsx').then((m) => m.WalletAuth);
// The sign-in sequence and its schemas: loaded with a press of Connect, not with the landing page.
const loadSignIn = () => import('./sign-in.ts');

// Never reached: wallet transactions exist only on signed-in screens.
const notConnected = () => Promise.reject(new Error('The wallet code is not loaded'));

/**
 * After a sign-in through Phantom's provider, the adapter loads this long after the token is kept, when the
 * browser is idle: the signed-in screens' code and first reads go first (on a slow phone web3.js alone takes
 * a few hundred milliseconds of its main thread).
 */
const ADAPTER_AFTER_SIGN_IN_MS = 1500;

/** The wallet adapter's name for Phantom, as it remembers it (JSON in local storage). */
const REMEMBERED_PHANTOM = JSON.stringify('Phantom');

/** A sign-in through Phantom's provider, until the adapter's session takes over. */
interface FirstSignIn {
  status: Extract<AuthStatus, 'connecting' | 'authenticating' | 'authenticated'>;
  wallet: string | null;
  token: string | null;
  phantom: PhantomProvider;
}

/** The adapter's session is still reconnecting the wallet a first sign-in connected. */
const handingOver = (session: AuthState) =>
  session.status === 'restoring' || session.status === 'loading' || session.status === 'connecting';

/** A transaction waiting for the adapter's session. */
interface Waiting {
  resolve(session: AuthState): void;
  reject(err: unknown): void;
}

/** Sends a waiting transaction on to the adapter's session, or fails it when that session lost the wallet. */
function handTo(session: AuthState, w: Waiting): void {
  if (session.status === 'authenticated') w.resolve(session);
  else w.reject(new Error('The wallet is no longer connected'));
}

export function AuthRoot({ children }: { children: ReactNode }) {
  const [returning] = useState(() => localStorage.getItem(WALLET_STORAGE_KEY) !== null);
  const [requested, setRequested] = useState(returning);
  const [WalletAuth, setWalletAuth] = useState<WalletAuthComponent | null>(null);
  const [session, setSession] = useState<AuthState | null>(null);
  const [first, setFirst] = useState<FirstSignIn | null>(null);
  // The visitor's Connect press, answered when the first connection attempt settles.
  const pending = useRef<{ resolve(): void; reject(err: unknown): void } | null>(null);
  // Transactions asked for before the adapter's session took over a first sign-in.
  const waiting = useRef<Waiting[]>([]);
  // The adapter's session once it has taken over (null before): a transaction asked for through the first
  // sign-in's state after that (its instructions built across awaits while the adapter took over) goes to it
  // at once; pushed on `waiting` then, nothing would ever answer it.
  const adapter = useRef<AuthState | null>(null);
  const loading = useRef(false);

  const load = useCallback(() => {
    setRequested(true);
    if (loading.current) return;
    loading.current = true;
    loadWalletAuth().then(
      (component) => setWalletAuth(() => component),
      (err: unknown) => {
        // A failed download (offline, a new deployment): back to Connect, which tries again.
        loading.current = false;
        setRequested(false);
        pending.current?.reject(err);
        pending.current = null;
        for (const w of waiting.current.splice(0)) w.reject(err);
      },
    );
  }, []);

  useEffect(() => {
    if (returning) load();
  }, [returning, load]);

  /** Connect, sign and keep the token through Phantom's provider; the adapter takes over later. */
  const signInFirst = useCallback(async (phantom: PhantomProvider) => {
    setFirst({ status: 'connecting', wallet: null, token: null, phantom });
    const sequence = loadSignIn();
    // Settled here if the connection fails first (a failed download is the sign-in's failure below).
    sequence.catch(() => {});
    let wallet: string;
    try {
      wallet = (await phantom.connect()).publicKey.toBase58();
    } catch (err) {
      setFirst(null);
      // Declining the connection (4001) or closing the wallet's window cancels quietly.
      if (isUserRejection(err)) return;
      throw err;
    }
    setFirst({ status: 'authenticating', wallet, token: null, phantom });
    const { signIn, failTo } = await sequence.catch(async (err: unknown) => {
      // A failed download (offline, a new deployment): back to Connect, which tries again.
      setFirst(null);
      await phantom.disconnect().catch(() => {});
      throw err;
    });
    const outcome = await signIn(wallet, async (message) => (await phantom.signMessage(message)).signature);
    if ('token' in outcome) {
      authToken.set(outcome.token);
      // The adapter reconnects this wallet when it loads, as for a returning visitor.
      localStorage.setItem(WALLET_STORAGE_KEY, REMEMBERED_PHANTOM);
      setFirst({ status: 'authenticated', wallet, token: outcome.token, phantom });
      return;
    }
    setFirst(null);
    await phantom.disconnect().catch(() => {});
    if ('failed' in outcome) failTo(outcome.failed);
  }, []);

  const signedInFirst = first?.status === 'authenticated';
  // After a first sign-in: the adapter once the screens had their start, or at once when the account changes
  // in the wallet (the adapter's session signs the new one in); disconnected in the wallet, it is signed out
  // of the page as the adapter's session would be.
  const phantom = first?.phantom;
  useEffect(() => {
    if (!signedInFirst || !phantom) return;
    const dropped = () => setFirst(null);
    phantom.on?.('accountChanged', load);
    phantom.on?.('disconnect', dropped);
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(load, { timeout: 2000 });
      else load();
    }, ADAPTER_AFTER_SIGN_IN_MS);
    return () => {
      phantom.off?.('accountChanged', load);
      phantom.off?.('disconnect', dropped);
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [signedInFirst, phantom, load]);

  // Once the adapter's session has the wallet again (or has lost it) it is the session: the transactions that
  // waited for it go to it (or fail if it lost the wallet).
  useEffect(() => {
    adapter.current = session && !handingOver(session) ? session : null;
    if (!adapter.current) return;
    setFirst(null);
    for (const w of waiting.current.splice(0)) handTo(adapter.current, w);
  }, [session]);

  const start = useMemo<SessionStart>(
    () => ({
      returning: returning || signedInFirst,
      settled(error) {
        const request = pending.current;
        pending.current = null;
        if (error === undefined) request?.resolve();
        else if (request) request.reject(error);
      },
    }),
    [returning, signedInFirst],
  );

  const light = useMemo<AuthState>(() => {
    if (first) {
      const { phantom } = first;
      return {
        status: first.status,
        wallet: first.wallet,
        token: first.token,
        connect: async () => {},
        disconnect: async () => (await loadSignIn()).signOut(() => phantom.disconnect()),
        sendTransaction: (tx, connection) =>
          new Promise<AuthState>((resolve, reject) => {
            if (adapter.current) handTo(adapter.current, { resolve, reject });
            else {
              waiting.current.push({ resolve, reject });
              load();
            }
          }).then((loaded) => loaded.sendTransaction(tx, connection)),
      };
    }
    return {
      status: requested ? (returning ? 'restoring' : 'loading') : 'disconnected',
      wallet: null,
      token: null,
      connect: () => {
        const phantom = injectedPhantom();
        if (phantom) return signInFirst(phantom);
        return new Promise<void>((resolve, reject) => {
          pending.current = { resolve, reject };
          load();
        });
      },
      async disconnect() {},
      sendTransaction: notConnected,
    };
  }, [first, requested, returning, load, signInFirst]);

  // A first sign-in shows until the adapter's session has the wallet again (or has lost it).
  const current = session && !(first && handingOver(session)) ? session : light;
  return (
    <AuthContext.Provider value={current}>
      {WalletAuth && <WalletAuth start={start} onChange={setSession} />}
      {children}
    </AuthContext.Provider>
  );
}
