// AuthRoot keeps the wallet adapter (and web3.js) off the landing page: the module that holds them is
// imported only on Connect, or at once for a remembered wallet. The wallet module is replaced here by a
// fake that counts its loads and can be held, so the loading state can be seen (a fresh module graph per
// test, since the loading happens once per page).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../testing/fake-api.ts';

const wallet = {
  loads: 0,
  release: () => {},
  /** What the first connection attempt does: sign in as 'W' (or finish signing in), or fail without Phantom. */
  outcome: 'connects' as 'connects' | 'signed-in' | 'no-phantom',
};

async function fakeWalletModule() {
  const { useEffect } = await import('react');
  const { PhantomNotFoundError } = await import('../../lib/wallet-errors.ts');
  wallet.loads++;
  await new Promise<void>((resolve) => {
    wallet.release = resolve;
  });
  const base = {
    token: null,
    connect: async () => {},
    disconnect: async () => {},
    sendTransaction: async () => '',
  };
  function WalletAuth({
    start,
    onChange,
  }: {
    start: { returning: boolean; settled(error?: unknown): void };
    onChange(state: object): void;
  }) {
    useEffect(() => {
      if (wallet.outcome === 'no-phantom') {
        onChange({ ...base, status: 'disconnected', wallet: null });
        start.settled(new PhantomNotFoundError());
      } else if (wallet.outcome === 'signed-in') {
        onChange({
          ...base,
          status: 'authenticated',
          wallet: 'W',
          token: 'T',
          sendTransaction: async () => 'sig',
        });
        start.settled();
      } else {
        onChange({ ...base, status: 'authenticating', wallet: 'W' });
        start.settled();
      }
    }, [start, onChange]);
    return null;
  }
  return { WalletAuth };
}

beforeEach(() => {
  vi.resetModules();
  vi.doMock('./WalletAuth.tsx', fakeWalletModule);
  wallet.loads = 0;
  wallet.outcome = 'connects';
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  delete (window as { phantom?: unknown }).phantom;
});

async function renderRoot() {
  const { AuthRoot } = await import('./AuthRoot.tsx');
  const { ConnectButton } = await import('./components/ConnectButton.tsx');
  const { useAuth } = await import('./context.ts');
  const { ToastProvider } = await import('../../components/ui/index.ts');
  const { useRef, useState } = await import('react');
  function Probe() {
    const auth = useAuth();
    const [sent, setSent] = useState('');
    // A transaction built across awaits calls the sendTransaction of the state it started with.
    const kept = useRef(auth.sendTransaction);
    return (
      <>
        <p data-testid="status">{auth.status}</p>
        <p data-testid="wallet">{auth.wallet}</p>
        <p data-testid="sent">{sent}</p>
        <ConnectButton />
        <button
          type="button"
          onClick={() => void auth.sendTransaction({} as never, {} as never).then(setSent)}
        >
          Send
        </button>
        <button
          type="button"
          onClick={() => {
            kept.current = auth.sendTransaction;
          }}
        >
          Keep
        </button>
        <button
          type="button"
          onClick={() => void kept.current({} as never, {} as never).then((sig) => setSent(`kept ${sig}`))}
        >
          Send kept
        </button>
      </>
    );
  }
  render(
    <ToastProvider>
      <AuthRoot>
        <Probe />
      </AuthRoot>
    </ToastProvider>,
  );
}

const status = () => screen.getByTestId('status').textContent;

/** Phantom's injected provider as the extension gives it: a connect the test decides, a signature. */
function injectPhantom(connect: () => Promise<unknown>) {
  const provider = {
    isPhantom: true,
    connect: vi.fn(connect),
    disconnect: vi.fn(async () => {}),
    signMessage: vi.fn(async (message: Uint8Array) => ({ signature: message.slice(0, 3) })),
  };
  Object.assign(window, { phantom: { solana: provider } });
  return provider;
}

const connected = async () => ({ publicKey: { toBase58: () => 'W' } });

/** Connect with Phantom's own provider (no wallet code loaded yet), signed in as W with token T1. */
async function signInThroughPhantom() {
  const phantom = injectPhantom(connected);
  const { calls } = fakeApi({
    'GET /nonce': () => ({
      body: { nonce: 'n1', message: 'Sign in n1', expiresAt: '2030-01-01T00:00:00.000Z' },
    }),
    'POST /authenticate': () => ({ body: { token: 'T1' } }),
  });
  wallet.outcome = 'signed-in';
  await renderRoot();
  fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }));
  await vi.waitFor(() => expect(status()).toBe('authenticated'));
  return { phantom, calls };
}

describe('AuthRoot', () => {
  it('loads no wallet code for the landing page; Connect loads it, showing that it is loading', async () => {
    await renderRoot();
    expect(status()).toBe('disconnected');
    const button = screen.getByRole('button', { name: 'Connect Wallet' });
    await act(async () => {});
    expect(wallet.loads).toBe(0);

    fireEvent.click(button);
    expect(status()).toBe('loading');
    const loading = await screen.findByRole('button', { name: 'Loading wallet...' });
    expect(loading.hasAttribute('disabled')).toBe(true);
    expect(loading.getAttribute('aria-busy')).toBe('true');
    await vi.waitFor(() => expect(wallet.loads).toBe(1));

    await act(async () => wallet.release());
    await vi.waitFor(() => expect(status()).toBe('authenticating'));
    expect(screen.getByRole('button', { name: 'Authenticating...' })).toBeTruthy();
  });

  it('loads it at once for a remembered wallet, restoring meanwhile', async () => {
    localStorage.setItem('walletName', '"Phantom"');
    await renderRoot();
    expect(status()).toBe('restoring');
    await vi.waitFor(() => expect(wallet.loads).toBe(1));
    await act(async () => wallet.release());
    await vi.waitFor(() => expect(status()).toBe('authenticating'));
  });

  it("says 'Phantom Wallet not found' when the loaded adapter finds none, and Connect is offered again", async () => {
    wallet.outcome = 'no-phantom';
    await renderRoot();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }));
    await vi.waitFor(() => expect(wallet.loads).toBe(1));
    await act(async () => wallet.release());
    await screen.findByText('Phantom Wallet not found');
    expect(status()).toBe('disconnected');
    expect(screen.getByRole('button', { name: 'Connect Wallet' }).hasAttribute('disabled')).toBe(false);
  });

  it("with Phantom's provider, Connect signs in without the wallet code, which a transaction then loads", async () => {
    const { phantom, calls } = await signInThroughPhantom();
    expect(screen.getByTestId('wallet').textContent).toBe('W');
    expect(wallet.loads).toBe(0);
    expect(phantom.signMessage).toHaveBeenCalledWith(new TextEncoder().encode('Sign in n1'));
    expect(calls.find((c) => c.path === '/authenticate')?.body).toEqual({
      publicKey: 'W',
      signedMessage: Array.from(new TextEncoder().encode('Sig')),
      nonce: 'n1',
    });
    expect(localStorage.getItem('authToken')).toBe('T1');
    // The adapter reconnects the wallet for the transactions, as for a returning visitor.
    expect(localStorage.getItem('walletName')).toBe('"Phantom"');

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(wallet.loads).toBe(1));
    expect(status()).toBe('authenticated');
    await act(async () => wallet.release());
    await vi.waitFor(() => expect(screen.getByTestId('sent').textContent).toBe('sig'));
    expect(status()).toBe('authenticated');
  });

  it("a transaction begun on the first sign-in's state reaches the adapter that took over meanwhile", async () => {
    await signInThroughPhantom();
    // The dashboard starts an activation with the first sign-in's state; while its instructions are built the
    // adapter loads and takes over (here: through another transaction), and only then does it ask to send.
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(wallet.loads).toBe(1));
    await act(async () => wallet.release());
    await vi.waitFor(() => expect(screen.getByTestId('sent').textContent).toBe('sig'));
    fireEvent.click(screen.getByRole('button', { name: 'Send kept' }));
    await vi.waitFor(() => expect(screen.getByTestId('sent').textContent).toBe('kept sig'));
  });

  it('declining the connection in Phantom cancels quietly', async () => {
    injectPhantom(() =>
      Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })),
    );
    const { calls } = fakeApi({});
    await renderRoot();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }));
    await vi.waitFor(() => expect(status()).toBe('disconnected'));
    expect(screen.queryByText('Authentication failed')).toBeNull();
    expect(calls).toEqual([]);
    expect(wallet.loads).toBe(0);
  });

  it("'Failed to get nonce' disconnects Phantom and returns to the landing page with the message", async () => {
    const phantom = injectPhantom(connected);
    fakeApi({ 'GET /nonce': () => ({ status: 503, body: { error: 'unavailable', message: 'down' } }) });
    window.history.replaceState(null, '', '/dashboard');
    await renderRoot();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }));
    await vi.waitFor(() => expect(status()).toBe('disconnected'));
    expect(phantom.disconnect).toHaveBeenCalled();
    expect(new URL(window.location.href).searchParams.get('authError')).toBe('Failed to get nonce');
    expect(window.location.pathname).toBe('/');
    expect(phantom.signMessage).not.toHaveBeenCalled();
  });
});
