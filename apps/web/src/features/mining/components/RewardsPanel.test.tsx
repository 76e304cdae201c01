// Mining Rewards with the real wallet-transaction hook: the wallet, the RPC connection and the socket are
// the boundaries, replaced by fakes; the program client's error handling is the real one. web3.js's
// transaction encoding is stubbed too: it checks Uint8Array across realms, which jsdom breaks.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/index.ts';
import { useWalletTransactions } from '../useWalletTransactions.ts';
import { serveClientConfig } from './client-config.fixture.ts';
import { RewardsPanel } from './RewardsPanel.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const fakes = vi.hoisted(() => ({
  sendTransaction: (() => Promise.resolve('sig')) as () => Promise<string>,
  answer: { data: { amount: 12.5 } } as { data: { amount: number } } | { error: string },
}));

vi.mock('@solana/web3.js', async (original) => ({
  ...(await original<typeof import('@solana/web3.js')>()),
  SystemProgram: { transfer: () => ({ keys: [], data: new Uint8Array() }) },
  Transaction: class {
    add() {
      return this;
    }
  },
}));
vi.mock('../../auth/index.ts', () => ({
  useAuth: () => ({ wallet, sendTransaction: () => fakes.sendTransaction() }),
}));
vi.mock('../../../lib/rpc.ts', () => ({
  rpcConnection: () => ({
    getLatestBlockhash: async () => ({
      blockhash: 'EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k',
      lastValidBlockHeight: 100,
    }),
    confirmTransaction: async () => ({ value: { err: null } }),
  }),
}));
vi.mock('../../../lib/socket.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/socket.ts')>()),
  requestSocket: () => ({ emitWithAck: async () => fakes.answer }),
}));

beforeEach(serveClientConfig);
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Rewards({ pending, isLive = false }: { pending: number; isLive?: boolean }) {
  const actions = useWalletTransactions(wallet);
  return <RewardsPanel pending={pending} isLive={isLive} sessionMined={3} actions={actions} />;
}

function renderRewards(pending: number, isLive = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <Rewards pending={pending} isLive={isLive} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

const collect = () => screen.getByRole('button', { name: /Collect Rewards|Collecting\.\.\./ });

describe('Mining Rewards', () => {
  it(
    "collects: 'Collecting...' while busy, then 'Successfully collected {amount} STRM!'",
    {
      timeout: 30_000,
    },
    async () => {
      let send!: (signature: string) => void;
      fakes.sendTransaction = () =>
        new Promise((resolve) => {
          send = resolve;
        });
      renderRewards(12.5);
      await waitFor(() => expect(collect().hasAttribute('disabled')).toBe(false));
      fireEvent.click(collect());
      await screen.findByRole('button', { name: 'Collecting...' });
      expect(collect().hasAttribute('disabled')).toBe(true);
      // The program client is imported with the first action: slow on a cold, busy test run.
      await waitFor(() => expect(send).toBeDefined(), { timeout: 15_000 });
      await act(async () => send('sig'));
      await screen.findByText('Successfully collected 12.5 STRM!', undefined, { timeout: 15_000 });
    },
  );

  it("shows the server's refusal, acknowledged to the collect request", { timeout: 30_000 }, async () => {
    fakes.sendTransaction = () => Promise.resolve('sig');
    fakes.answer = { error: 'No rewards to collect' };
    renderRewards(12.5);
    await waitFor(() => expect(collect().hasAttribute('disabled')).toBe(false));
    fireEvent.click(collect());
    await screen.findByText('No rewards to collect', undefined, { timeout: 15_000 });
    expect(screen.queryByText(/Successfully collected/)).toBeNull();
    fakes.answer = { data: { amount: 12.5 } };
  });

  it('is disabled while live (showing the current session) and with nothing pending', () => {
    const { unmount } = renderRewards(5, true);
    expect(collect().hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('session-mined').textContent).toBe('3 STRM');
    unmount();
    renderRewards(0);
    expect(collect().hasAttribute('disabled')).toBe(true);
    expect(screen.queryByTestId('session-mined')).toBeNull();
  });

  it('says network congestion once, in a toast that hides after 5 s; the panel keeps its own failure', async () => {
    fakes.sendTransaction = () =>
      Promise.reject(new Error('Transaction simulation failed: Blockhash not found'));
    renderRewards(12.5);
    await waitFor(() => expect(collect().hasAttribute('disabled')).toBe(false));
    // The toast's 5 s on fake timers: from the click on, time stands still until the toast is shown (only what is
    // due now runs), so its timer starts at this clock's reading and is counted on it.
    vi.useFakeTimers();
    fireEvent.click(collect());
    const congestion =
      'The Solana network is currently experiencing high traffic. Please try again in a few minutes.';
    const failure = 'Failed to collect rewards';
    for (
      let turn = 0;
      turn < 100 && !(screen.queryByText(congestion) && screen.queryByText(failure));
      turn++
    ) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
    }
    expect(screen.getAllByText(congestion)).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_999);
    });
    expect(screen.getAllByText(congestion)).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.queryByText(congestion)).toBeNull();
    expect(screen.getByText(failure)).toBeTruthy();
  });
});
