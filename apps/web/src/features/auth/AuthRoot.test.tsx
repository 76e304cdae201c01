// AuthRoot keeps the wallet adapter (and web3.js) off the landing page: the module that holds them is
// imported only on Connect, or at once for a remembered wallet. The wallet module is replaced here by a
// fake that counts its loads and can be held, so the loading state can be seen (a fresh module graph per
// test, since the loading happens once per page).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const wallet = {
  loads: 0,
  release: () => {},
  /** What the first connection attempt does: sign in as 'W', or fail without Phantom. */
  outcome: 'connects' as 'connects' | 'no-phantom',
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
});

async function renderRoot() {
  const { AuthRoot } = await import('./AuthRoot.tsx');
  const { ConnectButton } = await import('./components/ConnectButton.tsx');
  const { useAuth } = await import('./context.ts');
  const { ToastProvider } = await import('../../components/ui/index.ts');
  function Probe() {
    const auth = useAuth();
    return (
      <>
        <p data-testid="status">{auth.status}</p>
        <ConnectButton />
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
});
